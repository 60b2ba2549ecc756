/*
 * A program written and compiled against the previous minor version's headers (tests/abi/
 * headers-0.1: include/nvitop as of 0.1, taken from git history, never edited) runs against this
 * library: the "ABI and versioning" promise of docs/api.md for a caller that was never rebuilt.
 * Its caller-allocated structs are the old, smaller ones; the snapshot and process arrays are
 * reached as that version allowed.  Runs against tests/lib/scenarios/examples-2gpu.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

static int use_scenario(void **state) {
    (void)state;
    const char *source = getenv("NVT_SOURCE_DIR");
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/lib/scenarios/examples-2gpu.json",
             source != NULL ? source : ".");
    setenv("NVML_SIM_SCENARIO", path, 1);
    setenv("NVML_SIM_TIME", "100", 1);
    return 0;
}

static void test_old_caller(void **state) {
    (void)state;
    assert_true(nvt_version_num() >= NVT_VERSION_NUM);
    struct nvt_options opts;
    nvt_options_init(&opts);
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_device_count(ctx), 2);

    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &device), NVT_OK);
    struct nvt_device_state live;
    nvt_device_state_init(&live);
    assert_int_equal(nvt_device_state(device, NVT_SAMPLE_DEVICES, &live), NVT_OK);
    assert_int_equal(live.struct_size, sizeof(live));
    assert_int_equal(live.memory_used_bytes, 3700 * MiB);

    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 2);
    assert_string_equal(nvt_snapshot_device(snap, 0)->info.uuid,
                        "GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40");

    struct nvt_select_criteria criteria;
    nvt_select_criteria_init(&criteria);
    criteria.min_free_memory_bytes = 10 * 1024 * MiB;
    size_t candidates[] = {0, 1};
    size_t slots[2];
    size_t count = 0;
    bool prefer_uuid = true;
    assert_int_equal(
        nvt_select_devices(snap, candidates, 2, &criteria, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(slots[0], 1);
    nvt_snapshot_free(snap);

    struct nvt_collector_options copts;
    nvt_collector_options_init(&copts);
    copts.manual_sampling = true;
    nvt_collector *collector = NULL;
    assert_int_equal(nvt_collector_create(&copts, &collector), NVT_OK);
    nvt_collector_destroy(collector);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_old_caller)};
    return cmocka_run_group_tests(tests, use_scenario, NULL);
}
