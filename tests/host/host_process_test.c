/* host_process_read() and the public process functions against the fixture tree "basic". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/process.h>

#include "host.h"
#include "host_fixture.h"
#include "linux_internal.h"
#include "nvt_cmocka.h"
#include "util/array.h"

static int setup(void **state) {
    char root[1024];
    fixture_path(root, sizeof(root), "basic");
    struct host_ctx *host = NULL;
    if (host_open(root, &host) != NVT_OK) {
        return -1;
    }
    *state = host;
    return 0;
}

static int teardown(void **state) {
    host_close(*state);
    return 0;
}

static void read_pid(void **state, uint32_t pid, struct host_process *p) {
    assert_int_equal(host_process_read(*state, pid, p), NVT_OK);
    assert_int_equal(p->pub.pid, pid);
}

static void test_ordinary_process(void **state) {
    struct host_process p;
    read_pid(state, 100, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_int_equal(p.pub.state, 'S');
    assert_int_equal(p.pub.ppid, 1);
    assert_int_equal(p.pub.uid, 0);
    assert_string_equal(p.pub.user, "root");
    assert_string_equal(p.pub.name, "python3");
    assert_string_equal(p.pub.command, "python3 train.py --name \"a b\"");
    assert_int_equal(p.pub.cmdline_count, 4);
    assert_string_equal(p.pub.cmdline[3], "a b");
    assert_null(p.pub.cmdline[4]);
    assert_int_equal(p.pub.num_threads, 4);
    assert_int_equal(p.pub.rss_bytes, 2500 * (uint64_t)sysconf(_SC_PAGESIZE));
    if (sysconf(_SC_PAGESIZE) == 4096) {
        assert_true(p.pub.memory_percent == 0.0625);
    }
    /* boot time + 1000000 ticks. */
    double ticks = (double)sysconf(_SC_CLK_TCK);
    assert_true(p.pub.create_time == 1700000000.0 + 1000000.0 / ticks);
    assert_true(p.pub.running_time_s > 0.0);
    /* First read: 0.0 as in nvitop, not the lifetime average (23.46 s of CPU over 2345.67 s
     * since start at 100 Hz would be 1.0). */
    assert_true(p.cpu_percent_first);
    assert_true(p.pub.cpu_percent == 0.0);
    host_process_fini(&p);
    assert_string_equal(p.pub.command, "");
    assert_null(p.cmdline);
}

static void test_second_read_is_a_delta(void **state) {
    struct host_process p;
    read_pid(state, 100, &p);
    host_process_fini(&p);
    host_generation_end(*state);
    /* Still known one generation later; the counters did not move. */
    read_pid(state, 100, &p);
    assert_false(p.cpu_percent_first);
    assert_true(p.pub.cpu_percent == 0.0);
    host_process_fini(&p);
    /* Two passes without a read forget the process. */
    host_generation_end(*state);
    host_generation_end(*state);
    read_pid(state, 100, &p);
    assert_true(p.cpu_percent_first);
    host_process_fini(&p);
}

static void test_name_with_spaces_and_parentheses(void **state) {
    struct host_process p;
    read_pid(state, 101, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_string_equal(p.pub.name, "my (weird) name");
    assert_int_equal(p.pub.state, 'R');
    assert_int_equal(p.pub.ppid, 100);
    assert_string_equal(p.pub.command, "./weird --flag");
    host_process_fini(&p);
}

static void test_zombie(void **state) {
    struct host_process p;
    read_pid(state, 102, &p);
    assert_int_equal(p.pub.status, NVT_HOST_ZOMBIE);
    assert_int_equal(p.pub.state, 'Z');
    assert_string_equal(p.pub.name, "defunct");
    assert_string_equal(p.pub.command, "");
    assert_int_equal(p.pub.cmdline_count, 0);
    host_process_fini(&p);
}

static void test_kernel_thread(void **state) {
    struct host_process p;
    read_pid(state, 103, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_string_equal(p.pub.name, "kworker/0:1");
    assert_string_equal(p.pub.command, "kworker/0:1");
    assert_int_equal(p.pub.cmdline_count, 0);
    assert_int_equal(p.pub.ppid, 2);
    host_process_fini(&p);
}

static void test_non_utf8_command_line(void **state) {
    struct host_process p;
    read_pid(state, 104, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_string_equal(p.pub.cmdline[0], "caf\xe9");
    assert_string_equal(p.pub.command, "caf\xe9 --\xff\xfe");
    host_process_fini(&p);
}

static void test_name_extended_from_argv0(void **state) {
    struct host_process p;
    read_pid(state, 105, &p);
    assert_string_equal(p.pub.name, "gnome-keyring-daemon");
    assert_string_equal(p.pub.command, "/usr/bin/gnome-keyring-daemon --start");
    host_process_fini(&p);
}

static void assert_gone(const struct host_process *p, enum nvt_host_status status) {
    assert_int_equal(p->pub.status, status);
    assert_int_equal(p->pub.state, 0);
    assert_int_equal(p->pub.ppid, NVT_NA_U32);
    assert_int_equal(p->pub.uid, NVT_NA_U32);
    assert_string_equal(p->pub.user, "");
    assert_string_equal(p->pub.name, "");
    assert_string_equal(p->pub.command, "");
    assert_int_equal(p->pub.cmdline_count, 0);
    assert_true(isnan(p->pub.cpu_percent));
    assert_int_equal(p->pub.rss_bytes, NVT_NA_U64);
    assert_true(isnan(p->pub.create_time));
}

static void test_vanished_mid_read(void **state) {
    struct host_process p;
    read_pid(state, 106, &p);
    assert_gone(&p, NVT_HOST_GONE);
    host_process_fini(&p);
    read_pid(state, 4242, &p);
    assert_gone(&p, NVT_HOST_GONE);
    host_process_fini(&p);
    read_pid(state, 0, &p);
    assert_gone(&p, NVT_HOST_GONE);
    host_process_fini(&p);
}

static void test_garbage_and_truncated_stat(void **state) {
    struct host_process p;
    read_pid(state, 107, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_int_equal(p.pub.state, 0);
    assert_int_equal(p.pub.ppid, NVT_NA_U32);
    assert_true(isnan(p.pub.cpu_percent));
    assert_true(isnan(p.pub.create_time));
    assert_string_equal(p.pub.name, "");
    assert_string_equal(p.pub.command, "x");
    assert_string_equal(p.pub.user, "root");
    host_process_fini(&p);
    read_pid(state, 112, &p);
    assert_int_equal(p.pub.state, 0);
    assert_int_equal(p.pub.uid, NVT_NA_U32);
    assert_string_equal(p.pub.user, "");
    assert_string_equal(p.pub.command, "trunc");
    host_process_fini(&p);
}

static void test_huge_counters(void **state) {
    struct host_process p;
    read_pid(state, 108, &p);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_int_equal(p.pub.rss_bytes, NVT_NA_U64);
    assert_true(isnan(p.pub.memory_percent));
    /* Threads come from status (3), not the stat field that does not fit in 32 bits. */
    assert_int_equal(p.pub.num_threads, 3);
    assert_true(p.pub.running_time_s == 0.0);
    assert_false(isnan(p.pub.cpu_percent));
    host_process_fini(&p);
}

static void test_setproctitle_forms(void **state) {
    struct host_process p;
    read_pid(state, 109, &p);
    assert_int_equal(p.pub.cmdline_count, 1);
    assert_string_equal(p.pub.command, "ray::IDLE");
    host_process_fini(&p);
    read_pid(state, 110, &p);
    assert_int_equal(p.pub.cmdline_count, 3);
    assert_string_equal(p.pub.cmdline[2], "--x");
    assert_string_equal(p.pub.command, "python train.py --x");
    host_process_fini(&p);
    read_pid(state, 111, &p);
    assert_int_equal(p.pub.cmdline_count, 3);
    assert_string_equal(p.pub.cmdline[0], "nginx:");
    assert_string_equal(p.pub.command, "nginx: worker process");
    host_process_fini(&p);
}

static void test_unknown_uid_is_numeric(void **state) {
    struct host_process p;
    read_pid(state, 113, &p);
    assert_int_equal(p.pub.uid, 3999999999u);
    assert_string_equal(p.pub.user, "3999999999");
    host_process_fini(&p);
}

static void test_nested_namespace(void **state) {
    (void)state;
    char root[1024];
    fixture_path(root, sizeof(root), "nested");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(root, &host), NVT_OK);
    struct host_process p;
    assert_int_equal(host_process_read(host, 4242, &p), NVT_OK);
    assert_gone(&p, NVT_HOST_NOT_IN_NAMESPACE);
    host_process_fini(&p);
    host_close(host);
}

/* Root reads everything, so the errno mapping is checked directly as well. */
static void test_permission_mapping(void **state) {
    (void)state;
    assert_int_equal(host_status_of_errno(EACCES), NVT_HOST_NO_PERMISSION);
    assert_int_equal(host_status_of_errno(EPERM), NVT_HOST_NO_PERMISSION);
    assert_int_equal(host_status_of_errno(ENOENT), NVT_HOST_GONE);
    assert_int_equal(host_status_of_errno(ESRCH), NVT_HOST_GONE);
    assert_int_equal(host_status_of_errno(EISDIR), NVT_HOST_GONE);
}

static void test_permission_denied(void **state) {
    (void)state;
    if (geteuid() == 0) {
        skip(); /* chmod does not stop root */
    }
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    char path[1200];
    snprintf(path, sizeof(path), "%s/100/cmdline", dir);
    assert_int_equal(chmod(path, 0), 0);
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    struct host_process p;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_int_equal(p.pub.status, NVT_HOST_NO_PERMISSION);
    /* The user still shows, from the owner of the process directory. */
    assert_int_equal(p.pub.uid, (uint32_t)getuid());
    assert_true(p.pub.user[0] != '\0');
    assert_string_equal(p.pub.command, "");
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

/* A directory where a file should be reads as a failure, never as data. */
static void test_directory_instead_of_file(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    char path[1200];
    snprintf(path, sizeof(path), "%s/100/status", dir);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    struct host_process p;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_gone(&p, NVT_HOST_GONE);
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

/* A known process is read from its stat file alone: status and cmdline are kept for the identity
 * lifetime, unless its name in stat changes (exec) or it is forgotten. */
static void test_identity_is_kept(void **state) {
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

    /* New command line, user and counters: only the counters show. */
    fixture_write(dir, "100/cmdline", "python3 other.py");
    fixture_write(dir, "100/status", "Name:\tpython3\nUid:\t4242\t4242\t4242\t4242\nThreads:\t9\n");
    fixture_write(dir, "100/stat",
                  "100 (python3) S 1 100 100 0 -1 4194304 100 0 0 0 2000 346 0 0 20 0 7 0 1000000 "
                  "123456789 5000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_string_equal(p.pub.command, "python3 train.py --name \"a b\"");
    assert_int_equal(p.pub.uid, 0);
    assert_int_equal(p.pub.num_threads, 7);
    assert_int_equal(p.pub.rss_bytes, 5000 * (uint64_t)sysconf(_SC_PAGESIZE));
    assert_false(p.cpu_percent_first);
    host_process_fini(&p);
    host_generation_end(host);

    /* exec: the name in stat changes, and everything is read again. */
    fixture_write(dir, "100/stat",
                  "100 (other) S 1 100 100 0 -1 4194304 100 0 0 0 2000 346 0 0 20 0 7 0 1000000 "
                  "123456789 5000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_string_equal(p.pub.command, "python3 other.py");
    assert_int_equal(p.pub.uid, 4242);
    assert_false(p.cpu_percent_first);
    host_process_fini(&p);
    host_generation_end(host);

    /* An expired identity is read again too. */
    fixture_write(dir, "100/cmdline", "python3 third.py");
    host->identity_ttl_s = 0.0;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_string_equal(p.pub.command, "python3 third.py");
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

/* The user, name and command line of an identity are made once and shared by the reads of that
 * identity; a read's strings stay valid after the identity is replaced (its cmdline changed, read
 * again once due) or forgotten, and the new identity shows the new command line. */
static void test_identity_strings_are_shared(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    host->identity_ttl_s = 3600.0;
    struct host_process first;
    assert_int_equal(host_process_read(host, 100, &first), NVT_OK);
    host_generation_end(host);
    struct host_process second;
    assert_int_equal(host_process_read(host, 100, &second), NVT_OK);
    host_generation_end(host);
    assert_non_null(second.shared);
    assert_ptr_equal(first.pub.command, second.pub.command);
    assert_ptr_equal(first.pub.cmdline, second.pub.cmdline);
    assert_ptr_equal(first.pub.user, second.pub.user);
    assert_ptr_equal(first.pub.name, second.pub.name);
    host_process_fini(&second);

    /* The process changes its command line without exec: shown once its identity is due. */
    fixture_write(dir, "100/cmdline", "python3 serve.py --port 8000");
    host->identity_ttl_s = 0.0;
    struct host_process third;
    assert_int_equal(host_process_read(host, 100, &third), NVT_OK);
    assert_string_equal(third.pub.command, "python3 serve.py --port 8000");
    assert_int_equal(third.pub.cmdline_count, 4);
    assert_string_equal(third.pub.cmdline[3], "8000");
    assert_null(third.pub.cmdline[4]);
    assert_string_equal(third.pub.name, "python3");
    /* The first read still holds the old identity's strings. */
    assert_string_equal(first.pub.command, "python3 train.py --name \"a b\"");
    assert_string_equal(first.pub.cmdline[3], "a b");
    host_generation_end(host);
    host_generation_end(host);
    host_generation_end(host); /* forgotten by the cache: third's strings are its own now */
    assert_string_equal(third.pub.command, "python3 serve.py --port 8000");
    host_process_fini(&first);
    host_process_fini(&third);
    host_close(host);
    fixture_remove(dir);
}

/* The resident set psutil reports: status's VmRSS where it has one (statm unread), else statm's
 * second field, else stat's count. */
static void test_resident_set_sources(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    const char *status = "Name:\tpython3\nUid:\t0\t0\t0\t0\nThreads:\t4\n";
    const char *status_rss = "Name:\tpython3\nUid:\t0\t0\t0\t0\nVmRSS:\t   16384 kB\nThreads:\t4\n";
    struct {
        const char *status;
        const char *statm; /* NULL: none */
        uint64_t rss_bytes;
    } cases[] = {
        {status, NULL, 2500 * page},
        {status, "9000 3000 100 1 0 500 0\n", 3000 * page},
        {status_rss, "9000 3000 100 1 0 500 0\n", 16384 * 1024},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        fixture_write(dir, "100/status", cases[i].status);
        char path[1200];
        snprintf(path, sizeof(path), "%s/100/statm", dir);
        unlink(path);
        if (cases[i].statm != NULL) {
            fixture_write(dir, "100/statm", cases[i].statm);
        }
        struct host_ctx *host = NULL;
        assert_int_equal(host_open(dir, &host), NVT_OK);
        struct host_process p;
        assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
        assert_int_equal(p.pub.rss_bytes, cases[i].rss_bytes);
        host_process_fini(&p);
        host_close(host);
    }
    fixture_remove(dir);
}

/* A status and a command line longer than the buffers most fit in are read whole all the same. */
static void test_long_status_and_command_line(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    char status[12000];
    size_t len = (size_t)snprintf(status, sizeof(status), "Name:\tpython3\nGroups:\t");
    while (len < 9000) {
        len += (size_t)snprintf(status + len, sizeof(status) - len, "%zu ", len);
    }
    snprintf(status + len, sizeof(status) - len, "\nUid:\t1000\t1000\t1000\t1000\nThreads:\t7\n");
    fixture_write(dir, "100/status", status);
    char cmdline[10000];
    memset(cmdline, 'x', sizeof(cmdline) - 1);
    memcpy(cmdline, "python3 ", 8);
    cmdline[sizeof(cmdline) - 1] = '\0';
    fixture_write(dir, "100/cmdline", cmdline);
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    struct host_process p;
    assert_int_equal(host_process_read(host, 100, &p), NVT_OK);
    assert_int_equal(p.pub.uid, 1000);
    assert_int_equal(p.pub.cmdline_count, 2);
    assert_int_equal(strlen(p.pub.cmdline[1]), sizeof(cmdline) - 1 - 8);
    host_process_fini(&p);
    host_close(host);
    fixture_remove(dir);
}

/* psutil's environ rules: entries need a name before '='; an unterminated tail is dropped. */
static void test_environ_fixture(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    char **env = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_process_environ(ctx, 100, &env, &count), NVT_OK);
    assert_int_equal(count, 3);
    assert_string_equal(env[0], "PATH=/usr/bin:/bin");
    assert_string_equal(env[1], "HOME=/root");
    assert_string_equal(env[2], "LANG=C.UTF-8");
    assert_null(env[3]);
    free(env);
    /* A process without an environ file (gone), and a bad argument. */
    assert_int_equal(nvt_host_process_environ(ctx, 101, &env, &count), NVT_ERR_NO_SUCH_PROCESS);
    assert_null(env);
    assert_int_equal(count, 0);
    assert_int_equal(nvt_host_process_environ(ctx, 0, &env, &count), NVT_ERR_INVALID_ARGUMENT);
}

/* Every pid directory with a readable stat, in any order; garbage and truncated stats skipped. */
static void test_ppid_map_fixture(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_ppid_map(ctx, &pids, &ppids, &count), NVT_OK);
    static const uint32_t expected_pids[] = {100, 101, 102, 103, 104, 105,
                                             106, 108, 109, 110, 111, 113};
    static const uint32_t expected_ppids[] = {1, 100, 100, 2, 1, 1, 1, 1, 1, 1, 1, 1};
    size_t n = sizeof(expected_pids) / sizeof(expected_pids[0]);
    assert_int_equal(count, n);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t j = 0; j < count && !found; j++) {
            found = pids[j] == expected_pids[i] && ppids[j] == expected_ppids[i];
        }
        assert_true(found);
    }
    free(pids);
}

/* The public read packs everything into one allocation and refuses pids that are gone. */
static void test_public_read_fixture(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    struct nvt_host_process *p = NULL;
    assert_int_equal(nvt_host_process_read(ctx, 100, &p), NVT_OK);
    assert_string_equal(p->command, "python3 train.py --name \"a b\"");
    assert_string_equal(p->cmdline[1], "train.py");
    assert_true(isnan(p->cpu_percent));
    nvt_host_process_free(p);
    assert_int_equal(nvt_host_process_read(ctx, 102, &p), NVT_OK);
    assert_int_equal(p->status, NVT_HOST_ZOMBIE);
    assert_int_equal(p->cmdline_count, 0);
    nvt_host_process_free(p);
    assert_int_equal(nvt_host_process_read(ctx, 106, &p), NVT_ERR_NO_SUCH_PROCESS);
    assert_null(p);
    assert_int_equal(nvt_host_process_read(NULL, 100, &p), NVT_ERR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ordinary_process, setup, teardown),
        cmocka_unit_test_setup_teardown(test_second_read_is_a_delta, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_with_spaces_and_parentheses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zombie, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_utf8_command_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_name_extended_from_argv0, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vanished_mid_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_and_truncated_stat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_huge_counters, setup, teardown),
        cmocka_unit_test(test_resident_set_sources),
        cmocka_unit_test(test_long_status_and_command_line),
        cmocka_unit_test_setup_teardown(test_setproctitle_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_uid_is_numeric, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environ_fixture, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ppid_map_fixture, setup, teardown),
        cmocka_unit_test_setup_teardown(test_public_read_fixture, setup, teardown),
        cmocka_unit_test(test_nested_namespace),
        cmocka_unit_test(test_permission_mapping),
        cmocka_unit_test(test_permission_denied),
        cmocka_unit_test(test_directory_instead_of_file),
        cmocka_unit_test(test_identity_is_kept),
        cmocka_unit_test(test_identity_strings_are_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
