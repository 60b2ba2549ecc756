/*
 * The pid cache: a recycled pid (same pid, another start time) is another process, for the
 * readings and for environ and cwd; and for a long-lived caller that reads processes one by one,
 * without snapshots (which end a generation after every pass), readings and kept /proc/<pid>/stat
 * descriptors stay bounded however many distinct pids are read, and those of processes not read
 * again (exited ones included) are forgotten and closed.  The descriptors kept are half the soft
 * RLIMIT_NOFILE: a thousand processes fit where the limit allows.
 */
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/process.h>

#include "host.h"
#include "host_fixture.h"
#include "linux_internal.h"
#include "nvt_cmocka.h"
#include "util/array.h"

#define FIRST_PID  1000
#define PID_COUNT  600
#define GENERATION 64

/* Under AddressSanitizer, malloc is its own and mallinfo2() does not count it. */
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_COUNTED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_COUNTED 0
#endif
#endif
#ifndef HEAP_COUNTED
#define HEAP_COUNTED 1
#endif

static size_t open_fds(void) {
    DIR *dir = opendir("/proc/self/fd");
    assert_non_null(dir);
    size_t count = 0;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        count += e->d_name[0] != '.';
    }
    closedir(dir);
    return count;
}

/* A proc tree of count ordinary processes from FIRST_PID. */
static void make_tree_of(char *dir, size_t size, unsigned count) {
    fixture_copy(dir, size, "empty");
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + count; pid++) {
        char path[1200];
        snprintf(path, sizeof(path), "%s/%u", dir, pid);
        assert_int_equal(mkdir(path, 0755), 0);
        char name[32];
        char text[512];
        snprintf(name, sizeof(name), "%u/stat", pid);
        snprintf(text, sizeof(text),
                 "%u (worker) S 1 %u %u 0 -1 4194304 100 0 0 0 20 30 0 0 20 0 1 0 %u 1000 25 "
                 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
                 pid, pid, pid, 5000 + pid);
        fixture_write(dir, name, text);
        snprintf(name, sizeof(name), "%u/status", pid);
        fixture_write(dir, name, "Name:\tworker\nUid:\t0\t0\t0\t0\nThreads:\t1\n");
        snprintf(name, sizeof(name), "%u/cmdline", pid);
        fixture_write(dir, name, "worker --task");
    }
}

/* A proc tree of PID_COUNT ordinary processes. */
static void make_tree(char *dir, size_t size) {
    make_tree_of(dir, size, PID_COUNT);
}

/* Rewrite pid's stat file in place (the same file, as the kernel's is): threads and start time. */
static void write_stat(const char *dir, unsigned pid, unsigned threads, unsigned start) {
    char name[32];
    char text[512];
    snprintf(name, sizeof(name), "%u/stat", pid);
    snprintf(text, sizeof(text),
             "%u (worker) S 1 %u %u 0 -1 4194304 100 0 0 0 20 30 0 0 20 0 %u 0 %u 1000 25 "
             "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
             pid, pid, pid, threads, start);
    fixture_write(dir, name, text);
}

static void read_pid(struct host_ctx *host, unsigned pid, enum nvt_host_status expected) {
    struct host_process p;
    assert_int_equal(host_process_read(host, pid, &p), NVT_OK);
    assert_int_equal(p.pub.status, expected);
    host_process_fini(&p);
}

static size_t cached(const struct host_ctx *host) {
    return host->pids.count;
}

/* How many identities in the cache keep their stat file open. */
static size_t kept_stat_files(const struct host_ctx *host) {
    size_t count = 0;
    for (size_t i = 0; i < host->pids.capacity; i++) {
        const struct pid_cache_entry *entry = &host->pids.slots[i];
        count += entry->used && entry->identity != NULL && entry->identity->stat_fd >= 0;
    }
    return count;
}

/* A pid recycled between two reads (another start time, the same name): the kept status and
 * command line belong to the old process, so everything is read again, and the CPU percentage is
 * not a delta against the old process's counters. */
static void test_recycled_pid_is_read_again(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->identity_ttl_s = 3600.0;
    struct host_process p;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_string_equal(p.pub.command, "python3 train.py --name \"a b\"");
    host_process_fini(&p);
    host_generation_end(host);

    fixture_write(dir, "100/cmdline", "python3 new.py");
    fixture_write(dir, "100/stat",
                  "100 (python3) S 1 100 100 0 -1 4194304 100 0 0 0 2000 346 0 0 20 0 4 0 1000500 "
                  "123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_string_equal(p.pub.command, "python3 new.py");
    assert_true(p.cpu_percent_first);
    double ticks = (double)sysconf(_SC_CLK_TCK);
    assert_true(p.pub.create_time == 1700000000.0 + 1000500.0 / ticks);
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

/* environ and cwd of a pid this context has read belong to the process it read: after the pid is
 * recycled (another start time) both refuse it. */
static void test_environ_cwd_of_recycled_pid(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    char link[1200];
    snprintf(link, sizeof(link), "%s/100/cwd", dir);
    assert_int_equal(symlink("/srv/job", link), 0);
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    nvt_context *ctx = (nvt_context *)host;
    struct host_process p;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    host_process_fini(&p);
    char cwd[64];
    char **env = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_process_cwd(ctx, 100, cwd, sizeof(cwd)), NVT_OK);
    assert_string_equal(cwd, "/srv/job");
    assert_int_equal(nvt_host_process_environ(ctx, 100, &env, &count), NVT_OK);
    assert_int_equal(count, 3);
    free(env);

    fixture_write(dir, "100/stat",
                  "100 (python3) S 1 100 100 0 -1 4194304 100 0 0 0 2000 346 0 0 20 0 4 0 1000500 "
                  "123456789 2500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");
    assert_int_equal(nvt_host_process_cwd(ctx, 100, cwd, sizeof(cwd)), NVT_ERR_NO_SUCH_PROCESS);
    assert_string_equal(cwd, "");
    assert_int_equal(nvt_host_process_environ(ctx, 100, &env, &count), NVT_ERR_NO_SUCH_PROCESS);
    assert_null(env);
    /* Once the new process has been read, it is the one the pid stands for. */
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    host_process_fini(&p);
    assert_int_equal(nvt_host_process_cwd(ctx, 100, cwd, sizeof(cwd)), NVT_OK);
    assert_string_equal(cwd, "/srv/job");
    host_close(host);
    fixture_remove(dir);
}

static void test_many_pids_stay_bounded(void **state) {
    (void)state;
    char dir[1024];
    make_tree(dir, sizeof(dir));
    size_t baseline = open_fds();
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->pids.generation_max = GENERATION;
    /* Every pid twice, so that the second read would keep its stat file open. */
    for (unsigned round = 0; round < 2; round++) {
        for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
            read_pid(host, pid, NVT_HOST_OK);
            read_pid(host, pid, NVT_HOST_OK);
            assert_true(cached(host) <= 2 * GENERATION);
            assert_true(host->pids.kept_fds <= host->pids.kept_max);
            /* The proc root's descriptor, and the kept stat files. */
            assert_true(open_fds() <= baseline + 1 + host->pids.kept_fds);
        }
    }
    assert_true(host->pids.kept_fds > 0);

    /* Half the processes exit; reads of them find nothing and keep nothing. */
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT / 2; pid++) {
        static const char *const files[] = {"stat", "status", "cmdline"};
        char path[1200];
        for (size_t i = 0; i < 3; i++) {
            snprintf(path, sizeof(path), "%s/%u/%s", dir, pid, files[i]);
            assert_int_equal(unlink(path), 0);
        }
        snprintf(path, sizeof(path), "%s/%u", dir, pid);
        assert_int_equal(rmdir(path), 0);
        read_pid(host, pid, NVT_HOST_GONE);
    }
    assert_true(cached(host) <= 2 * GENERATION);

    /* Generations also end with age: readings not repeated within two of them are forgotten,
     * and their descriptors closed.  An age of 0 ends a generation at every read. */
    host->pids.generation_max_age_s = 0.0;
    unsigned last = FIRST_PID + PID_COUNT - 1;
    for (int i = 0; i < 3; i++) {
        read_pid(host, last, NVT_HOST_OK);
    }
    assert_true(cached(host) <= 2);
    /* Its stat, status and cmdline (statm is missing from the fixture). */
    assert_true(host->pids.kept_fds <= 3);
    assert_true(open_fds() <= baseline + 1 + 3);
    host_close(host);
    assert_int_equal(open_fds(), baseline);
    fixture_remove(dir);
}

#define LONG_CMDLINE   3000
#define HEAP_PID_COUNT 1000

/* The heap a host cache holds after reading the HEAP_PID_COUNT processes of dir in two passes. */
static size_t heap_held(const char *dir, bool command_only) {
    size_t before = mallinfo2().uordblks;
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host_set_command_only(host, command_only);
    host->identity_ttl_s = 3600.0;
    for (unsigned round = 0; round < 2; round++) {
        for (unsigned pid = FIRST_PID; pid < FIRST_PID + HEAP_PID_COUNT; pid++) {
            struct host_process p;
            assert_int_equal(host_process_read(host, pid, &p), NVT_OK);
            assert_int_equal(strlen(p.pub.command), LONG_CMDLINE);
            host_process_fini(&p);
        }
        host_generation_end(host);
    }
    size_t held = mallinfo2().uordblks - before;
    host_close(host);
    return held;
}

/* A process's command line is held once per identity, in the strings made from it (the arguments
 * and the command joined from them): the bytes read from its cmdline file are not kept beside
 * them.  With HEAP_PID_COUNT processes whose command lines are LONG_CMDLINE bytes, read in two
 * passes as snapshots read them (a generation ending after each), the cache holds two copies a
 * process, its identity and its slot in the cache's table; without argument lists
 * (host_set_command_only()), one copy. */
static void test_identity_keeps_strings_only(void **state) {
    (void)state;
    if (!HEAP_COUNTED) {
        skip();
    }
    char dir[1024];
    make_tree_of(dir, sizeof(dir), HEAP_PID_COUNT);
    char cmdline[LONG_CMDLINE + 1];
    memset(cmdline, 'x', LONG_CMDLINE);
    memcpy(cmdline, "worker --task ", strlen("worker --task "));
    cmdline[LONG_CMDLINE] = '\0';
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + HEAP_PID_COUNT; pid++) {
        char name[32];
        snprintf(name, sizeof(name), "%u/cmdline", pid);
        fixture_write(dir, name, cmdline);
    }
    for (int command_only = 0; command_only <= 1; command_only++) {
        size_t held = heap_held(dir, command_only);
        print_message("heap held for %d processes%s: %zu bytes (%zu a process)\n", HEAP_PID_COUNT,
                      command_only ? " without argument lists" : "", held, held / HEAP_PID_COUNT);
        /* About 6,370 bytes a process: 6,528 with a 304-byte identity holding all of status and
         * a copy of stat's name, 6,643 with two tables of 48-byte entries, one for each
         * generation.  Without argument lists, one copy of the command line: about 3,300. */
        size_t copies = command_only ? 1 : 2;
        assert_true(held < (size_t)HEAP_PID_COUNT * (copies * LONG_CMDLINE + 448));
    }
    fixture_remove(dir);
}

/* host_set_command_only(): a reading, and one kept from it, carry the command and the name
 * (argv[0]'s basename where stat's name was cut) but no argument list; the cache holds one copy of
 * a command line a process instead of two. */
static void test_command_only(void **state) {
    (void)state;
    char dir[1024];
    make_tree_of(dir, sizeof(dir), 2);
    char text[512];
    snprintf(text, sizeof(text),
             "%u (averyveryverylo) S 1 1 1 0 -1 4194304 100 0 0 0 20 30 0 0 20 0 1 0 7000 1000 25 "
             "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
             FIRST_PID + 1);
    char name[32];
    snprintf(name, sizeof(name), "%u/stat", FIRST_PID + 1);
    fixture_write(dir, name, text);
    snprintf(name, sizeof(name), "%u/status", FIRST_PID + 1);
    fixture_write(dir, name, "Name:\taveryveryverylo\nUid:\t0\t0\t0\t0\nThreads:\t1\n");
    snprintf(name, sizeof(name), "%u/cmdline", FIRST_PID + 1);
    fixture_write(dir, name, "/opt/averyveryverylongname --x");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host_set_command_only(host, true);
    for (unsigned round = 0; round < 2; round++) {
        struct host_process p;
        assert_int_equal(host_process_read(host, FIRST_PID, &p), NVT_OK);
        assert_int_equal(p.pub.status, NVT_HOST_OK); /* a process without arguments is a zombie */
        assert_string_equal(p.pub.command, "worker --task");
        assert_string_equal(p.pub.name, "worker");
        assert_null(p.pub.cmdline);
        assert_int_equal(p.pub.cmdline_count, 0);
        host_process_fini(&p);
        assert_int_equal(host_process_read(host, FIRST_PID + 1, &p), NVT_OK);
        assert_int_equal(p.pub.status, NVT_HOST_OK);
        assert_string_equal(p.pub.command, "/opt/averyveryverylongname --x");
        assert_string_equal(p.pub.name, "averyveryverylongname");
        assert_null(p.pub.cmdline);
        host_process_fini(&p);
        host_generation_end(host);
    }
    /* A reading kept without the files (outside a snapshot's focus) is the same. */
    struct host_process kept;
    assert_true(host_process_keep(host, FIRST_PID, &kept));
    assert_string_equal(kept.pub.command, "worker --task");
    assert_string_equal(kept.pub.user, "root");
    assert_null(kept.pub.cmdline);
    host_process_fini(&kept);
    host_close(host);
    fixture_remove(dir);
}

/* The budget of kept descriptors follows the soft RLIMIT_NOFILE of host_open(): a low limit keeps
 * few (and every process is still read), a high one keeps each of PID_COUNT processes' stat
 * files, status and cmdline within half the budget.  A first reading keeps nothing (a process read
 * once, as by `nvitop -1`, would only hold them until the end); the second keeps its stat file,
 * and with an identity due at once, its status and cmdline. */
static void test_kept_budget_follows_nofile(void **state) {
    (void)state;
    char dir[1024];
    make_tree(dir, sizeof(dir));
    struct rlimit saved;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
    const rlim_t limits[] = {64, 4 * PID_COUNT, 8 * PID_COUNT};
    for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
        if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < limits[i]) {
            continue;
        }
        struct rlimit lowered = {limits[i], saved.rlim_max};
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &lowered), 0);
        struct host_ctx *host = NULL;
        assert_int_equal(host_open(dir, &host), NVT_OK);
        assert_int_equal(host->pids.kept_max, limits[i] / 2);
        host->identity_ttl_s = 0.0;
        for (unsigned round = 0; round < 2; round++) {
            for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
                read_pid(host, pid, NVT_HOST_OK);
            }
            host_generation_end(host);
            if (round == 0) {
                assert_int_equal(host->pids.kept_fds, 0);
            }
        }
        assert_true(host->pids.kept_fds <= host->pids.kept_max);
        /* Room for every stat file (and statm, here missing from the fixture) under the high
         * limit, filled up to the low one; status and cmdline take at most half. */
        assert_int_equal(host->pids.kept_fds,
                         limits[i] / 2 < 3 * PID_COUNT ? limits[i] / 2 : 3 * PID_COUNT);
        if (limits[i] / 2 >= 2 * PID_COUNT) {
            assert_int_equal(kept_stat_files(host), PID_COUNT);
        }
        host_close(host);
    }
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
    fixture_remove(dir);
}

/* A caller that reads the same few processes again and again keeps measuring their CPU percentage
 * between reads: ending generations forgets only what was not read in the last one. */
static void test_repeated_reads_survive_aging(void **state) {
    (void)state;
    char dir[1024];
    make_tree(dir, sizeof(dir));
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->pids.generation_max = 3;
    for (int round = 0; round < 3; round++) {
        for (unsigned pid = FIRST_PID; pid < FIRST_PID + 3; pid++) {
            struct host_process p;
            assert_int_equal(host_process_read(host, pid, &p), NVT_OK);
            assert_true(p.cpu_percent_first == (round == 0));
            host_process_fini(&p);
        }
    }
    host_close(host);
    fixture_remove(dir);
}

/* The parent map reads every stat file once; a process the cache knows is then read in the same
 * pass from what the map read (its stat is not read again: a change written in between shows at
 * the next pass), once (a second reading in the pass reads the file), with its descriptor kept by
 * the map.  A pid recycled before the map is read in full, as a new process. */
static void test_parent_map_reads_stat_once(void **state) {
    (void)state;
    char dir[1024];
    make_tree(dir, sizeof(dir));
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->identity_ttl_s = 3600.0;
    host->pids.pass_stat_max_age_s = 3600.0; /* however long the rewrites below take */
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
        read_pid(host, pid, NVT_HOST_OK);
    }
    host_generation_end(host);

    const unsigned recycled = FIRST_PID + 1;
    write_stat(dir, recycled, 1, 9000);
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_ppid_map((nvt_context *)host, &pids, &ppids, &count), NVT_OK);
    assert_int_equal(count, PID_COUNT);
    free(pids);
    size_t kept = PID_COUNT < host->pids.kept_max ? PID_COUNT : host->pids.kept_max;
    assert_int_equal(kept_stat_files(host), kept);
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
        write_stat(dir, pid, 7, pid == recycled ? 9000 : 5000 + pid);
    }
    for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
        struct host_process p;
        assert_int_equal(host_process_read(host, pid, &p), NVT_OK);
        assert_int_equal(p.pub.status, NVT_HOST_OK);
        /* The recycled pid's stat is read (last) by its full reading; the others' is the map's. */
        assert_int_equal(p.pub.num_threads, pid == recycled ? 7 : 1);
        assert_true(p.cpu_percent_first == (pid == recycled));
        host_process_fini(&p);
    }
    struct host_process again;
    assert_int_equal(host_process_read(host, FIRST_PID, &again), NVT_OK);
    assert_int_equal(again.pub.num_threads, 7);
    host_process_fini(&again);
    host_generation_end(host);

    for (unsigned pid = FIRST_PID; pid < FIRST_PID + PID_COUNT; pid++) {
        struct host_process p;
        assert_int_equal(host_process_read(host, pid, &p), NVT_OK);
        assert_int_equal(p.pub.num_threads, 7);
        assert_false(p.cpu_percent_first);
        host_process_fini(&p);
    }
    host_close(host);
    fixture_remove(dir);
}

/* A remembered stat older than the bound is not taken: the reading reads the file. */
static void test_parent_map_stat_ages(void **state) {
    (void)state;
    char dir[1024];
    make_tree(dir, sizeof(dir));
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->identity_ttl_s = 3600.0;
    read_pid(host, FIRST_PID, NVT_HOST_OK);
    host_generation_end(host);
    host->pids.pass_stat_max_age_s = 0.0;
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_ppid_map((nvt_context *)host, &pids, &ppids, &count), NVT_OK);
    free(pids);
    write_stat(dir, FIRST_PID, 7, 5000 + FIRST_PID);
    struct host_process p;
    assert_int_equal(host_process_read(host, FIRST_PID, &p), NVT_OK);
    assert_int_equal(p.pub.num_threads, 7);
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recycled_pid_is_read_again),
        cmocka_unit_test(test_environ_cwd_of_recycled_pid),
        cmocka_unit_test(test_many_pids_stay_bounded),
        cmocka_unit_test(test_kept_budget_follows_nofile),
        cmocka_unit_test(test_repeated_reads_survive_aging),
        cmocka_unit_test(test_parent_map_reads_stat_once),
        cmocka_unit_test(test_parent_map_stat_ages),
        cmocka_unit_test(test_identity_keeps_strings_only),
        cmocka_unit_test(test_command_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
