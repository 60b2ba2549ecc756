/*
 * A program with functions of its own named like libnvitop's internal helpers (parse_u32,
 * str_copy, ring_push, clock_monotonic_ns), linked with the static libnvitop.a: it must link, its
 * own functions must be the ones it calls, and the library must keep using its own helpers.  With
 * an archive that exports the helpers the link fails with multiple definitions.
 */
#include <string.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"

/* Different signatures and meanings from the library's helpers of the same names. */
int parse_u32(const char *text);
const char *str_copy(void);
int ring_push(int value);
double clock_monotonic_ns(void);

int parse_u32(const char *text) {
    return (int)strlen(text) * 1000;
}

const char *str_copy(void) {
    return "the program's str_copy";
}

int ring_push(int value) {
    return value + 1;
}

double clock_monotonic_ns(void) {
    return -1.0;
}

static void test_both_sides_keep_their_own(void **state) {
    (void)state;
    assert_int_equal(parse_u32("abc"), 3000);
    assert_string_equal(str_copy(), "the program's str_copy");
    assert_int_equal(ring_push(41), 42);
    assert_true(clock_monotonic_ns() == -1.0);

    /* The library parses numbers, copies strings and reads clocks with its own helpers. */
    uint64_t bytes = 0;
    assert_int_equal(nvt_parse_bytes("1.5GiB", &bytes), NVT_OK);
    assert_int_equal(bytes, 3 * (UINT64_C(1) << 29));
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    opts.allow_no_gpu = true;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    struct nvt_host_state *host = NULL;
    assert_int_equal(nvt_host_state_read(ctx, &host), NVT_OK);
    assert_true(host->memory_total_bytes > 0 && !nvt_is_na_u64(host->memory_total_bytes));
    assert_true(host->uptime_s > 0);
    nvt_free(host);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_HOST, &snap), NVT_OK);
    assert_true(snap->timestamp > 1e9);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_sides_keep_their_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
