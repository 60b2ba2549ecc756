/*
 * A single-threaded process that has not run since its last full stat is not read again
 * (src/lib/host/quiet_stat.c): its schedstat, unchanged, stands for its stat.  Against a fixture
 * tree whose files the test rewrites in place, so that what the reading took from where shows:
 * a stat rewritten while the schedstat stays the same is not seen; one rewritten with the
 * schedstat is; nor is a command line rewritten while it has not run since its identity was read.
 * And every case where that would be wrong reads stat: several threads, a running process, an
 * identity due, a kernel without schedstat.
 */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "host_fixture.h"
#include "linux_internal.h"
#include "nvt_cmocka.h"

#define PID 100

/* pid 100's stat: state, utime, thread count, start time 1000500. */
static void write_stat(const char *dir, char state, unsigned utime, unsigned threads) {
    char text[512];
    snprintf(text, sizeof(text),
             "100 (worker) %c 1 100 100 0 -1 4194304 100 0 0 0 %u 30 0 0 20 0 %u 0 1000500 "
             "123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
             state, utime, threads);
    fixture_write(dir, "100/stat", text);
}

static void write_schedstat(const char *dir, unsigned long long runtime, unsigned slices) {
    char text[128];
    snprintf(text, sizeof(text), "%llu 4242 %u\n", runtime, slices);
    fixture_write(dir, "100/schedstat", text);
}

struct fixture {
    char dir[1024];
    struct host_ctx *host;
};

static int setup(void **state) {
    static struct fixture f;
    memset(&f, 0, sizeof(f));
    fixture_copy(f.dir, sizeof(f.dir), "basic");
    fixture_write(f.dir, "100/status", "Name:\tworker\nUid:\t0\t0\t0\t0\nThreads:\t1\n");
    fixture_write(f.dir, "100/cmdline", "worker --task");
    write_stat(f.dir, 'S', 20, 1);
    write_schedstat(f.dir, 5000000, 7);
    if (host_open(f.dir, &f.host) != NVT_OK) {
        return -1;
    }
    f.host->identity_ttl_s = 3600.0;
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    host_close(f->host);
    fixture_remove(f->dir);
    return 0;
}

/* One pass's reading of pid 100: its state and CPU ticks as the reading took them. */
static void read_once(struct fixture *f, char *state, unsigned long long *cpu_ticks) {
    host_generation_end(f->host);
    struct host_process p;
    assert_int_equal(host_process_read(f->host, PID, &p), NVT_OK);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_string_equal(p.pub.command, "worker --task");
    *state = p.pub.state;
    host_process_fini(&p);
    const struct pid_cache_entry *entry = pid_cache_find_pid(&f->host->pids, PID);
    assert_non_null(entry);
    *cpu_ticks = entry->cpu_ticks;
}

static const struct process_identity *identity_of(struct fixture *f) {
    const struct pid_cache_entry *entry = pid_cache_find_pid(&f->host->pids, PID);
    assert_non_null(entry);
    assert_non_null(entry->identity);
    return entry->identity;
}

/* The first reading (new) and the second (the base, read with its schedstat) read stat; then a
 * stat rewritten alone is not seen, and one rewritten with the schedstat is. */
static void test_quiet_process_is_not_read(void **state) {
    struct fixture *f = *state;
    char st = 0;
    unsigned long long ticks = 0;
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 50);
    read_once(f, &st, &ticks);
    assert_true(identity_of(f)->schedstat_fd >= 0);
    assert_true(identity_of(f)->quiet.have_base);

    write_stat(f->dir, 'D', 80, 1); /* what a read of stat would now see */
    read_once(f, &st, &ticks);
    assert_int_equal(st, 'S');
    assert_int_equal(ticks, 50);
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 50);

    write_schedstat(f->dir, 5000100, 7); /* it ran */
    read_once(f, &st, &ticks);
    assert_int_equal(st, 'D');
    assert_int_equal(ticks, 110);
    write_stat(f->dir, 'S', 90, 1);
    write_schedstat(f->dir, 5000200, 8);
    read_once(f, &st, &ticks);
    assert_int_equal(st, 'S');
    assert_int_equal(ticks, 120);
    assert_false(f->host->no_schedstat);
}

/* Three readings, then a stat rewritten alone (utime 80, the state and thread count given) is
 * seen by the next. */
static void assert_stat_seen(struct fixture *f, char state, unsigned threads) {
    char st = 0;
    unsigned long long ticks = 0;
    for (int pass = 0; pass < 3; pass++) {
        read_once(f, &st, &ticks);
    }
    write_stat(f->dir, state, 80, threads);
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 110);
}

/* Several threads: another may run while the main one sleeps; schedstat is never opened. */
static void test_threads_read_stat(void **state) {
    struct fixture *f = *state;
    write_stat(f->dir, 'S', 20, 4);
    assert_stat_seen(f, 'S', 4);
    assert_true(identity_of(f)->schedstat_fd < 0);
    assert_false(identity_of(f)->quiet.eligible);
}

/* Running at its last reading: it may be on a CPU between the kernel's updates of its counters. */
static void test_running_reads_stat(void **state) {
    struct fixture *f = *state;
    write_stat(f->dir, 'R', 20, 1);
    assert_stat_seen(f, 'R', 1);
    assert_false(identity_of(f)->quiet.eligible);
}

/* An identity due (status and command line read again) reads stat in full too: its parent and
 * resident set may change while it sleeps. */
static void test_due_identity_reads_stat(void **state) {
    struct fixture *f = *state;
    char st = 0;
    unsigned long long ticks = 0;
    read_once(f, &st, &ticks);
    read_once(f, &st, &ticks);
    write_stat(f->dir, 'S', 80, 1);
    f->host->identity_ttl_s = 0.0;
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 110);
    /* ...with the schedstat read before it as the new base. */
    f->host->identity_ttl_s = 3600.0;
    write_stat(f->dir, 'S', 90, 1);
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 110);
}

/* pid 100's command and parent as a reading (due every time) takes them. */
static void read_command(struct fixture *f, char *command, size_t size, uint32_t *ppid) {
    host_generation_end(f->host);
    struct host_process p;
    assert_int_equal(host_process_read(f->host, PID, &p), NVT_OK);
    snprintf(command, size, "%s", p.pub.command);
    *ppid = p.pub.ppid;
    host_process_fini(&p);
}

/* An identity due is read again unless the process has not run since it was read: only the
 * process changes its uids and arguments, so a command line rewritten in the fixture while the
 * schedstat stays the same is not seen, and its parent (which the kernel changes when the parent
 * exits) comes from stat, read in full. */
static void test_quiet_identity_stands(void **state) {
    struct fixture *f = *state;
    char command[64];
    uint32_t ppid = 0;
    read_command(f, command, sizeof(command), &ppid);
    read_command(f, command, sizeof(command), &ppid); /* the base, read after the identity */
    f->host->identity_ttl_s = 0.0;
    /* It may have run between its identity's read and the base: read again. */
    fixture_write(f->dir, "100/cmdline", "worker --renamed");
    read_command(f, command, sizeof(command), &ppid);
    assert_string_equal(command, "worker --renamed");
    /* Not run since that read: the identity stands, the parent is fresh. */
    fixture_write(f->dir, "100/cmdline", "worker --unseen");
    fixture_write(f->dir, "100/stat",
                  "100 (worker) S 7 100 100 0 -1 4194304 100 0 0 0 20 30 0 0 20 0 1 0 1000500 "
                  "123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");
    read_command(f, command, sizeof(command), &ppid);
    assert_string_equal(command, "worker --renamed");
    assert_int_equal(ppid, 7);
    read_command(f, command, sizeof(command), &ppid);
    assert_string_equal(command, "worker --renamed");
    /* It ran: read again. */
    write_schedstat(f->dir, 5000100, 8);
    read_command(f, command, sizeof(command), &ppid);
    assert_string_equal(command, "worker --unseen");
}

/* A kernel without schedstat (the file missing, or zeros where it keeps no statistics): learnt
 * once, then stat is read every time and schedstat no more. */
static void run_without_schedstat(struct fixture *f) {
    char st = 0;
    unsigned long long ticks = 0;
    for (int pass = 0; pass < 3; pass++) {
        read_once(f, &st, &ticks);
        write_stat(f->dir, 'S', 30 + 10 * (unsigned)pass, 1);
    }
    read_once(f, &st, &ticks);
    assert_int_equal(ticks, 80);
    assert_true(f->host->no_schedstat);
    assert_true(identity_of(f)->schedstat_fd < 0);
}

static void test_missing_schedstat(void **state) {
    struct fixture *f = *state;
    char path[1200];
    snprintf(path, sizeof(path), "%s/100/schedstat", f->dir);
    assert_int_equal(remove(path), 0);
    run_without_schedstat(f);
}

static void test_zero_schedstat(void **state) {
    struct fixture *f = *state;
    write_schedstat(f->dir, 0, 0);
    run_without_schedstat(f);
}

/* A damaged schedstat is not a reason to keep anything. */
static void test_damaged_schedstat(void **state) {
    struct fixture *f = *state;
    fixture_write(f->dir, "100/schedstat", "12 x\n");
    assert_stat_seen(f, 'S', 1);
    assert_false(identity_of(f)->quiet.have_base);
}

/* A reading that takes the resident set from a fresh status (VmRSS, psutil's figure) pairs it with
 * stat's count read just before and reads no statm (it read one every time its identity was due:
 * stat's approximate count, compared with status's exact one, never matched). */
static void test_fresh_status_reads_no_statm(void **state) {
    struct fixture *f = *state;
    fixture_write(f->dir, "100/status",
                  "Name:\tworker\nUid:\t0\t0\t0\t0\nVmRSS:\t1000 kB\nThreads:\t1\n");
    fixture_write(f->dir, "100/statm", "5000 300 100 10 0 200 0\n");
    f->host->identity_ttl_s = 0.0;
    for (int pass = 0; pass < 4; pass++) {
        host_generation_end(f->host);
        struct host_process p;
        assert_int_equal(host_process_read(f->host, PID, &p), NVT_OK);
        assert_int_equal(p.pub.rss_bytes, 1000 * 1024);
        host_process_fini(&p);
        assert_true(identity_of(f)->statm_fd < 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_quiet_process_is_not_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads_read_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_running_reads_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_due_identity_reads_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_schedstat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_schedstat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_schedstat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fresh_status_reads_no_statm, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quiet_identity_stands, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
