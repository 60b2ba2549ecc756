/*
 * NVT_SAMPLE_DEVICES_FAST: memory and utilisation are read now, the slow fields (temperature,
 * fan, power, modes, ECC) repeat the context's last full reading until the next one, and a fast
 * snapshot costs fewer NVML calls.  This is how the monitor keeps to nvitop's cadence (slow
 * fields every 5 s) within its NVML call budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB        (UINT64_C(1) << 20)
#define DEADLINE_S 10.0
#define A100_SLOT  0

static struct nvt_snapshot *take(nvt_context *ctx, unsigned flags) {
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, flags, &snap), NVT_OK);
    return snap;
}

static void test_fast_keeps_slow_fields(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char path[4096];
    snprintf(path, sizeof(path), "%s/fast.json", dir);
    char *original = tu_read_file(tu_test_scenario("lib-basic.json"));
    tu_write_file(path, original);
    nvt_context *ctx = tu_open(path);

    /* Without an earlier full reading, a fast one reads everything. */
    struct nvt_snapshot *snap = take(ctx, NVT_SAMPLE_DEVICES_FAST);
    assert_int_equal(snap->devices[A100_SLOT].state.temperature_c, 33);
    assert_int_equal(snap->devices[A100_SLOT].state.memory_used_bytes, 15000 * MiB);
    assert_int_equal(snap->devices[A100_SLOT].state.mig_mode, NVT_FEATURE_ENABLED);
    nvt_snapshot_free(snap);

    char *hotter = tu_replace(original, "\"temperature\": 33", "\"temperature\": 44");
    char *changed = tu_replace(hotter, "\"used_mib\": 15000", "\"used_mib\": 16000");
    tu_write_file(path, changed);

    /* Fast readings see the memory change as soon as the driver does, with the old temperature. */
    bool seen = false;
    double deadline = tu_now() + DEADLINE_S;
    while (!seen && tu_now() < deadline) {
        snap = take(ctx, NVT_SAMPLE_DEVICES_FAST);
        const struct nvt_device_state *a100 = &snap->devices[A100_SLOT].state;
        seen = a100->memory_used_bytes == 16000 * MiB;
        if (seen) {
            assert_int_equal(a100->temperature_c, 33);
            assert_int_equal(a100->power_limit_mw, 400000);
            assert_int_equal(a100->persistence_mode, NVT_FEATURE_ENABLED);
            assert_int_equal(a100->mig_mode, NVT_FEATURE_ENABLED);
        }
        nvt_snapshot_free(snap);
        if (!seen) {
            usleep(20000);
        }
    }
    assert_true(seen);

    /* The next full reading brings the slow fields up to date, and fast ones repeat them. */
    snap = take(ctx, NVT_SAMPLE_DEVICES);
    assert_int_equal(snap->devices[A100_SLOT].state.temperature_c, 44);
    nvt_snapshot_free(snap);
    snap = take(ctx, NVT_SAMPLE_DEVICES_FAST);
    assert_int_equal(snap->devices[A100_SLOT].state.temperature_c, 44);
    nvt_snapshot_free(snap);

    nvt_close(ctx);
    free(changed);
    free(hotter);
    free(original);
    tu_remove_tree(dir);
    free(dir);
}

/* NVML calls of: open, one full snapshot, `fast` fast snapshots, close. */
static char *calls_of_cycle(const char *calls_file, int fast) {
    remove(calls_file);
    nvt_context *ctx = tu_open(tu_bundled_scenario("h100-8gpu.json"));
    nvt_snapshot_free(take(ctx, NVT_SAMPLE_DEVICES));
    for (int i = 0; i < fast; i++) {
        nvt_snapshot_free(take(ctx, NVT_SAMPLE_DEVICES_FAST));
    }
    nvt_close(ctx);
    return tu_read_file(calls_file);
}

static void test_fast_costs_two_calls_per_gpu(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char calls_file[4096];
    snprintf(calls_file, sizeof(calls_file), "%s/calls.txt", dir);
    setenv("NVML_SIM_CALLS_FILE", calls_file, 1);
    char *none = calls_of_cycle(calls_file, 0);
    char *three = calls_of_cycle(calls_file, 3);
    unsetenv("NVML_SIM_CALLS_FILE");

    /* Slow fields: read once, by the full snapshot. */
    const char *slow[] = {"nvmlDeviceGetFanSpeed", "nvmlDeviceGetPowerUsage",
                          "nvmlDeviceGetPerformanceState", "nvmlDeviceGetMigMode",
                          "nvmlDeviceGetTotalEccErrors"};
    for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++) {
        assert_int_equal(tu_calls_of(three, slow[i]), tu_calls_of(none, slow[i]));
    }
    /* Fast fields: once per GPU and snapshot. */
    assert_int_equal(tu_calls_of(three, "nvmlDeviceGetUtilizationRates") -
                         tu_calls_of(none, "nvmlDeviceGetUtilizationRates"),
                     3 * 8);
    free(none);
    free(three);
    tu_remove_tree(dir);
    free(dir);
}

/* NVML clock calls of `count` snapshots with flags (plus NVT_SAMPLE_DEVICES_FAST). */
static int clock_calls(const char *calls_file, unsigned flags, int count) {
    remove(calls_file);
    nvt_context *ctx = tu_open(tu_bundled_scenario("h100-8gpu.json"));
    for (int i = 0; i < count; i++) {
        nvt_snapshot_free(take(ctx, NVT_SAMPLE_DEVICES_FAST | flags));
    }
    nvt_close(ctx);
    char *calls = tu_read_file(calls_file);
    int n = tu_calls_of(calls, "nvmlDeviceGetClockInfo");
    free(calls);
    return n;
}

/* NVT_SAMPLE_CLOCKS_SM_MEM: the two clocks the monitor's bars show, two calls per GPU instead of
 * four; NVT_SAMPLE_CLOCKS alone or with it still reads all four. */
static void test_sm_and_memory_clocks_only(void **state) {
    (void)state;
    nvt_context *ctx = tu_open(tu_bundled_scenario("h100-8gpu.json"));
    struct nvt_snapshot *all = take(ctx, NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_CLOCKS);
    struct nvt_snapshot *two = take(ctx, NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_CLOCKS_SM_MEM);
    assert_int_equal(two->device_count, all->device_count);
    for (size_t i = 0; i < two->device_count; i++) {
        const struct nvt_device_state *a = &all->devices[i].state;
        const struct nvt_device_state *b = &two->devices[i].state;
        assert_false(nvt_is_na_u32(a->clock_graphics_mhz));
        assert_false(nvt_is_na_u32(a->clock_video_mhz));
        assert_false(nvt_is_na_u32(b->clock_sm_mhz));
        assert_false(nvt_is_na_u32(b->clock_memory_mhz));
        assert_int_equal(b->clock_memory_mhz, a->clock_memory_mhz);
        assert_true(nvt_is_na_u32(b->clock_graphics_mhz));
        assert_true(nvt_is_na_u32(b->clock_video_mhz));
    }
    nvt_snapshot_free(all);
    nvt_snapshot_free(two);
    nvt_close(ctx);

    char *dir = tu_temp_dir();
    char calls_file[4096];
    snprintf(calls_file, sizeof(calls_file), "%s/calls.txt", dir);
    setenv("NVML_SIM_CALLS_FILE", calls_file, 1);
    int sm_mem = clock_calls(calls_file, NVT_SAMPLE_CLOCKS_SM_MEM, 3);
    int four = clock_calls(calls_file, NVT_SAMPLE_CLOCKS, 3);
    int both = clock_calls(calls_file, NVT_SAMPLE_CLOCKS | NVT_SAMPLE_CLOCKS_SM_MEM, 3);
    unsetenv("NVML_SIM_CALLS_FILE");
    assert_int_equal(sm_mem, 3 * 8 * 2);
    assert_int_equal(four, 3 * 8 * 4);
    assert_int_equal(both, 3 * 8 * 4);
    tu_remove_tree(dir);
    free(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_keeps_slow_fields),
        cmocka_unit_test(test_fast_costs_two_calls_per_gpu),
        cmocka_unit_test(test_sm_and_memory_clocks_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
