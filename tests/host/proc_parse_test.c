/* The proc text parsers on hand-made inputs, including the odd ones. */
#include "proc_parse.h"

#include <string.h>

#include "linux_internal.h"
#include "nvt_cmocka.h"

/* Split a command line given as bytes and compare with the expected arguments. */
static void expect_split(const char *bytes, size_t len, const char *const *expected, size_t n) {
    char data[128];
    assert_true(len < sizeof(data));
    memcpy(data, bytes, len);
    data[len] = '\0';
    assert_int_equal(proc_count_cmdline(data, len), n);
    char *argv[16];
    assert_int_equal(proc_split_cmdline(data, len, argv, 16), n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(argv[i], expected[i]);
    }
}

#define SPLIT(literal, ...)                                                                        \
    expect_split(literal, sizeof(literal) - 1, (const char *const[]){__VA_ARGS__},                 \
                 sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

static void test_cmdline_split(void **state) {
    (void)state;
    SPLIT("a\0b\0", "a", "b");
    SPLIT("a\0\0b\0", "a", "", "b");
    SPLIT("a\0b\0\0\0", "a", "b");
    SPLIT("a b c", "a", "b", "c");
    SPLIT("a b c ", "a", "b", "c");
    SPLIT("a  b", "a", "", "b");
    SPLIT("one arg with spaces\0", "one", "arg", "with", "spaces");
    SPLIT("x\0with space\0", "x", "with space");
    SPLIT("noterminator", "noterminator");
    assert_int_equal(proc_count_cmdline("", 0), 0);
    assert_int_equal(proc_count_cmdline("\0", 1), 0);
    assert_int_equal(proc_count_cmdline("\0\0\0", 3), 0);
    assert_int_equal(proc_count_cmdline(" ", 1), 0);
    /* Fewer slots than arguments: the count is still right, only cap pointers are stored. */
    char data[] = "a\0b\0c\0";
    char *argv[2];
    assert_int_equal(proc_split_cmdline(data, sizeof(data) - 1, argv, 2), 3);
    assert_string_equal(argv[1], "b");
}

static void test_pid_stat(void **state) {
    (void)state;
    struct proc_pid_stat st;
    assert_true(proc_parse_pid_stat("7 (a) b) c) S 1 7 7 0 -1 64 0 0 0 0 11 22 -5 -6 20 0 3 0 "
                                    "99 4096 -7 18446744073709551615",
                                    &st));
    assert_string_equal(st.comm, "a) b) c");
    assert_int_equal(st.state, 'S');
    assert_int_equal(st.ppid, 1);
    assert_int_equal(st.flags, 64);
    assert_int_equal(st.utime_ticks, 11);
    assert_int_equal(st.stime_ticks, 22);
    assert_int_equal(st.num_threads, 3);
    assert_int_equal(st.start_ticks, 99);
    assert_int_equal(st.rss_pages, 0); /* negative garbage reads as zero */
    assert_false(proc_parse_pid_stat("", &st));
    assert_false(proc_parse_pid_stat("1 (x", &st));
    assert_false(proc_parse_pid_stat("1 )x( S 1", &st));
    assert_false(proc_parse_pid_stat("1 (x) S 1 2 3", &st));
    assert_false(proc_parse_pid_stat("1 (x)", &st));
    assert_false(proc_parse_pid_stat("1 (x) S 99999999999 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 1 "
                                     "1 1",
                                     &st));
    /* A long name is cut, not overflowed. */
    char text[256];
    memset(text, 0, sizeof(text));
    strcpy(text, "1 (");
    memset(text + 3, 'n', 100);
    strcat(text, ") S 1 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 1 1 1");
    assert_true(proc_parse_pid_stat(text, &st));
    assert_int_equal(strlen(st.comm), sizeof(st.comm) - 1);
}

static void test_pid_status(void **state) {
    (void)state;
    struct proc_pid_status st;
    proc_parse_pid_status("Name:\tx\nUid:\t1000\t0\t0\t0\nThreads:\t12\nNSpid:\t4242\t17\t1\n",
                          &st);
    assert_true(st.has_uid);
    assert_int_equal(st.uid, 1000);
    assert_true(st.has_uid_all);
    assert_int_equal(st.uid_effective, 0);
    assert_int_equal(st.uid_saved, 0);
    assert_true(st.has_threads);
    assert_int_equal(st.threads, 12);
    assert_int_equal(st.nspid_count, 3);
    assert_true(st.has_name);
    assert_string_equal(st.name, "x");
    /* Spaces are kept, escapes left as status wrote them. */
    proc_parse_pid_status("Name:\tWeb Content\\n\nUid:\t1\n", &st);
    assert_string_equal(st.name, "Web Content\\n");
    /* A set-uid process: real, effective and saved uids differ. */
    proc_parse_pid_status("Uid:\t1000\t0\t1002\t0\n", &st);
    assert_true(st.has_uid_all);
    assert_int_equal(st.uid, 1000);
    assert_int_equal(st.uid_effective, 0);
    assert_int_equal(st.uid_saved, 1002);
    /* A truncated line keeps the real uid and no others. */
    proc_parse_pid_status("Uid:\t1000\n", &st);
    assert_true(st.has_uid);
    assert_false(st.has_uid_all);
    proc_parse_pid_status("Uid:\t99999999999\nThreads:\n", &st);
    assert_false(st.has_uid);
    assert_false(st.has_threads);
    assert_int_equal(st.nspid_count, 0);
    assert_false(st.has_rss);
    /* The resident set, in KiB, wherever its line is; one not in kB is not taken. */
    proc_parse_pid_status("Name:\tx\nVmHWM:\t    9999 kB\nVmRSS:\t    1936 kB\nRssAnon:\t 1 kB\n"
                          "Threads:\t1\n",
                          &st);
    assert_true(st.has_rss);
    assert_int_equal(st.rss_kib, 1936);
    assert_true(st.has_threads);
    proc_parse_pid_status("Threads:\t1\nVmRSS:\t1936\n", &st);
    assert_false(st.has_rss);
    proc_parse_pid_status("VmRSS:\t1936 MB\n", &st);
    assert_false(st.has_rss);
    /* A kernel thread has no VmRSS: the whole file is scanned and none is found. */
    proc_parse_pid_status("Name:\tkworker/0:0\nUid:\t0\t0\t0\t0\nNSpid:\t8\nThreads:\t1\n"
                          "Cpus_allowed:\tff\n",
                          &st);
    assert_false(st.has_rss);
    assert_true(st.has_uid_all);
    assert_int_equal(st.nspid_count, 1);
}

static void test_stat_and_meminfo(void **state) {
    (void)state;
    struct proc_cpu_times per_cpu[1];
    struct proc_stat st;
    proc_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4 5 6 7 8 9 10\ncpu7 1 1 1 1\ncpux 1 1 1 1\n"
                    "cpu1 1 2\nbtime 12\n",
                    &st, per_cpu, 1);
    assert_true(st.has_total);
    assert_int_equal(st.total.idle, 4);
    assert_int_equal(st.total.iowait, 0);
    assert_int_equal(st.cpu_count, 2);
    assert_int_equal(per_cpu[0].guest_nice, 10);
    assert_true(st.has_boot_time);
    assert_int_equal(st.boot_time, 12);
    /* guest time is inside user time: total and busy leave it out. */
    struct proc_cpu_times t = {.user = 10, .idle = 5, .iowait = 5, .guest = 4, .guest_nice = 1};
    assert_true(proc_cpu_total(&t) == 20.0);
    assert_true(proc_cpu_busy(&t) == 10.0);

    struct proc_meminfo m;
    proc_parse_meminfo("MemTotal: 2 kB\nMemFree:1 kB\nCached:   x kB\nSwapTotal:\t3 kB\n", &m);
    assert_int_equal(m.mem_total, 2048);
    assert_int_equal(m.mem_free, UINT64_MAX); /* no blank after the colon: not our key */
    assert_int_equal(m.cached, UINT64_MAX);
    assert_int_equal(m.swap_total, 3072);
    assert_int_equal(m.mem_available, UINT64_MAX);

    uint64_t pages = 0;
    assert_true(proc_parse_zoneinfo_low("  low 5\n  high 9\nlow 6\n  lowmem 1\n", &pages));
    assert_int_equal(pages, 11);
    assert_false(proc_parse_zoneinfo_low("nothing\n", &pages));
}

static void test_loadavg_uptime(void **state) {
    (void)state;
    double load[3] = {-1, -1, -1};
    assert_true(proc_parse_loadavg("0.00 1.25 10.50 1/2 3\n", load));
    assert_true(load[0] == 0.0 && load[1] == 1.25 && load[2] == 10.5);
    assert_false(proc_parse_loadavg("1.0 2.0\n", load));
    assert_false(proc_parse_loadavg("nan 1 1\n", load));
    assert_false(proc_parse_loadavg("-1 1 1\n", load));
    double up = 0;
    assert_true(proc_parse_uptime("35.5 70.25\n", &up));
    assert_true(up == 35.5);
    assert_false(proc_parse_uptime("", &up));
    assert_false(proc_parse_uptime("1e999 1\n", &up));
}

/* The two-generation CPU cache: an entry survives one rotation, not two; a different start time
 * is a different process. */
static void test_pid_cache(void **state) {
    (void)state;
    struct pid_cache cache;
    memset(&cache, 0, sizeof(cache));
    for (uint32_t pid = 1; pid <= 1000; pid++) {
        struct pid_cache_entry e = {.pid = pid, .start_ticks = pid * 10, .cpu_ticks = pid};
        assert_true(pid_cache_store(&cache, &e));
    }
    assert_non_null(pid_cache_find(&cache, 500, 5000));
    assert_null(pid_cache_find(&cache, 500, 5001));
    assert_null(pid_cache_find(&cache, 1001, 10010));
    pid_cache_rotate(&cache);
    const struct pid_cache_entry *hit = pid_cache_find(&cache, 999, 9990);
    assert_non_null(hit);
    assert_int_equal(hit->cpu_ticks, 999);
    struct pid_cache_entry again = {.pid = 999, .start_ticks = 9990, .cpu_ticks = 2000};
    assert_true(pid_cache_store(&cache, &again));
    pid_cache_rotate(&cache);
    assert_null(pid_cache_find(&cache, 500, 5000));
    hit = pid_cache_find(&cache, 999, 9990);
    assert_non_null(hit);
    assert_int_equal(hit->cpu_ticks, 2000);
    pid_cache_fini(&cache);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmdline_split),  cmocka_unit_test(test_pid_stat),
        cmocka_unit_test(test_pid_status),     cmocka_unit_test(test_stat_and_meminfo),
        cmocka_unit_test(test_loadavg_uptime), cmocka_unit_test(test_pid_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
