/* host_sample() against fixture trees with known contents (psutil's figures for the same files,
 * computed with psutil.PROCFS_PATH pointing at them, are the expected values). */
#include <math.h>
#include <string.h>

#include "host.h"
#include "host_fixture.h"
#include "nvt_cmocka.h"

struct sample {
    struct host_ctx *host;
    struct nvt_host_state state;
    double per_cpu[8];
};

static void open_fixture(struct sample *s, const char *name) {
    char root[1024];
    fixture_path(root, sizeof(root), name);
    memset(s, 0, sizeof(*s));
    assert_int_equal(host_open(root, &s->host), NVT_OK);
}

static void take(struct sample *s) {
    assert_int_equal(host_sample(s->host, &s->state, s->per_cpu, 8), NVT_OK);
}

static void test_basic_cpu(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "basic");
    assert_int_equal(host_cpu_count(s.host), 0);
    take(&s);
    /* Since boot: busy = total - idle - iowait. */
    assert_true(s.state.cpu_percent == 15.0);
    assert_int_equal(s.state.cpu_count, 2);
    assert_int_equal(host_cpu_count(s.host), 2);
    assert_true(s.per_cpu[0] == 18.0);
    assert_true(s.per_cpu[1] == 12.0);
    assert_true(s.state.boot_time == 1700000000.0);
    host_close(s.host);
}

static void test_basic_memory(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "basic");
    take(&s);
    assert_int_equal(s.state.memory_total_bytes, 16384000000);
    assert_int_equal(s.state.memory_available_bytes, 10240000000);
    assert_int_equal(s.state.memory_used_bytes, 8192000000);
    assert_int_equal(s.state.memory_free_bytes, 4096000000);
    assert_true(s.state.memory_percent == 37.5);
    assert_int_equal(s.state.swap_total_bytes, 2048000000);
    assert_int_equal(s.state.swap_used_bytes, 512000000);
    assert_int_equal(s.state.swap_free_bytes, 1536000000);
    assert_true(s.state.swap_percent == 25.0);
    assert_int_equal(host_memory_total(s.host), 16384000000);
    /* What a unified-memory GPU shows: psutil's total, free and used, as nvitop 1.7. */
    uint64_t total = 0;
    uint64_t free_bytes = 0;
    uint64_t used = 0;
    host_virtual_memory(s.host, &total, &free_bytes, &used);
    assert_int_equal(total, 16384000000);
    assert_int_equal(free_bytes, 4096000000);
    assert_int_equal(used, 8192000000);
    host_close(s.host);
}

static void test_basic_load_uptime_hostname(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "basic");
    take(&s);
    assert_true(s.state.load_1m == 1.5);
    assert_true(s.state.load_5m == 0.75);
    assert_true(s.state.load_15m == 0.25);
    assert_true(s.state.uptime_s == 12345.67);
    assert_string_equal(s.state.hostname, "fixture-host");
    host_close(s.host);
}

/* The second sample measures since the first one. */
static void test_cpu_since_previous_sample(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    struct nvt_host_state st;
    double per_cpu[2];
    assert_int_equal(host_sample(host, &st, per_cpu, 2), NVT_OK);
    /* +300 busy (user 200, system 100) and +100 idle overall; cpu0 all busy, cpu1 all idle. */
    fixture_write(dir, "stat",
                  "cpu  1200 0 600 8100 500 0 0 0 0 0\n"
                  "cpu0 800 0 400 3900 200 0 0 0 0 0\n"
                  "cpu1 400 0 200 4200 300 0 0 0 0 0\n"
                  "btime 1700000000\n");
    assert_int_equal(host_sample(host, &st, per_cpu, 2), NVT_OK);
    assert_true(st.cpu_percent == 75.0);
    assert_true(per_cpu[0] == 100.0);
    assert_true(per_cpu[1] == 0.0);
    /* Nothing moved: 0 %, not a division by zero. */
    assert_int_equal(host_sample(host, &st, per_cpu, 2), NVT_OK);
    assert_true(st.cpu_percent == 0.0);
    /* A CPU came online: per-CPU figures restart from boot, the total still uses deltas. */
    fixture_write(dir, "stat",
                  "cpu  1300 0 600 8100 500 0 0 0 0 0\n"
                  "cpu0 800 0 400 3900 200 0 0 0 0 0\n"
                  "cpu1 400 0 200 4200 300 0 0 0 0 0\n"
                  "cpu2 100 0 0 100 0 0 0 0 0 0\n"
                  "btime 1700000000\n");
    assert_int_equal(host_sample(host, &st, per_cpu, 2), NVT_OK);
    assert_true(st.cpu_percent == 100.0);
    assert_int_equal(st.cpu_count, 2); /* capped by the caller's array */
    assert_int_equal(host_cpu_count(host), 3);
    host_close(host);
    fixture_remove(dir);
}

/* Rounding to one decimal, half to even as psutil does: 1/3 -> 33.3. */
static void test_cpu_rounding(void **state) {
    (void)state;
    char dir[1024];
    fixture_copy(dir, sizeof(dir), "basic");
    fixture_write(dir, "stat", "cpu  1 0 0 2 0 0 0 0 0 0\n");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(dir, &host), NVT_OK);
    struct nvt_host_state st;
    assert_int_equal(host_sample(host, &st, NULL, 0), NVT_OK);
    assert_true(st.cpu_percent == 33.3);
    assert_int_equal(st.cpu_count, 0);
    assert_true(isnan(st.boot_time));
    host_close(host);
    fixture_remove(dir);
}

static void test_no_memavailable(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "nomemavail");
    take(&s);
    assert_int_equal(s.state.memory_available_bytes, 6451052544);
    assert_true(s.state.memory_percent == 60.6);
    assert_int_equal(s.state.memory_used_bytes, 8294400000);
    assert_true(s.state.swap_percent == 0.0);
    host_close(s.host);

    open_fixture(&s, "nozoneinfo");
    take(&s);
    assert_int_equal(s.state.memory_available_bytes, 7168000000);
    assert_true(s.state.memory_percent == 56.2);
    /* No swap lines at all: N/A (psutil would ask sysinfo(2)). */
    assert_int_equal(s.state.swap_total_bytes, NVT_NA_U64);
    assert_true(isnan(s.state.swap_percent));
    host_close(s.host);
}

static void test_no_swap(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "noswap");
    take(&s);
    assert_int_equal(s.state.swap_total_bytes, 0);
    assert_int_equal(s.state.swap_used_bytes, 0);
    assert_true(s.state.swap_percent == 0.0);
    assert_true(s.state.memory_percent == 75.0);
    assert_int_equal(s.state.memory_used_bytes, 6144000000);
    host_close(s.host);
}

static void assert_all_na(const struct nvt_host_state *st) {
    assert_true(isnan(st->cpu_percent));
    assert_int_equal(st->cpu_count, 0);
    assert_true(isnan(st->load_1m));
    assert_int_equal(st->memory_total_bytes, NVT_NA_U64);
    assert_int_equal(st->memory_used_bytes, NVT_NA_U64);
    assert_true(isnan(st->memory_percent));
    assert_int_equal(st->swap_total_bytes, NVT_NA_U64);
    assert_true(isnan(st->uptime_s));
    assert_true(isnan(st->boot_time));
}

static void test_garbage_and_empty(void **state) {
    (void)state;
    const char *cases[] = {"garbage", "empty"};
    for (size_t i = 0; i < 2; i++) {
        struct sample s;
        open_fixture(&s, cases[i]);
        take(&s);
        assert_all_na(&s.state);
        /* The host name falls back to uname(). */
        assert_true(s.state.hostname[0] != '\0');
        assert_int_equal(host_memory_total(s.host), NVT_NA_U64);
        host_close(s.host);
    }
}

static void test_missing_root(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    assert_int_equal(host_open("/nonexistent/proc/root", &host), NVT_OK);
    struct nvt_host_state st;
    assert_int_equal(host_sample(host, &st, NULL, 0), NVT_OK);
    assert_all_na(&st);
    struct host_process p;
    assert_int_equal(host_process_read(host, 1, &p), NVT_OK);
    assert_int_equal(p.pub.status, NVT_HOST_GONE);
    host_process_fini(&p);
    assert_int_equal(host_sample(NULL, &st, NULL, 0), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(host_sample(host, &st, NULL, 4), NVT_ERR_INVALID_ARGUMENT);
    host_close(host);
    host_close(NULL);
}

/* Counters at the 64-bit edges: no overflow, no crash; what cannot be represented is N/A. */
static void test_huge_counters(void **state) {
    (void)state;
    struct sample s;
    open_fixture(&s, "huge");
    take(&s);
    assert_true(s.state.cpu_percent >= 0.0 && s.state.cpu_percent <= 100.0);
    /* cpu0's first field does not fit in 64 bits: that line is dropped. */
    assert_int_equal(s.state.cpu_count, 0);
    assert_true(s.state.boot_time == 18446744073709551615.0);
    /* MemTotal just fits in bytes, MemFree does not: without MemFree memory is N/A. */
    assert_int_equal(s.state.memory_total_bytes, NVT_NA_U64);
    assert_int_equal(s.state.swap_total_bytes, NVT_NA_U64);
    host_close(s.host);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_cpu),
        cmocka_unit_test(test_basic_memory),
        cmocka_unit_test(test_basic_load_uptime_hostname),
        cmocka_unit_test(test_cpu_since_previous_sample),
        cmocka_unit_test(test_cpu_rounding),
        cmocka_unit_test(test_no_memavailable),
        cmocka_unit_test(test_no_swap),
        cmocka_unit_test(test_garbage_and_empty),
        cmocka_unit_test(test_missing_root),
        cmocka_unit_test(test_huge_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
