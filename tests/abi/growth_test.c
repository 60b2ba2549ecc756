/*
 * The growth promise of docs/api.md ("ABI and versioning"): this program is compiled against the
 * real headers and runs against two builds of the library, the real one ("same") and one whose
 * growable structs have members appended as a later minor version would ("grown", see
 * CMakeLists.txt).  Either way it must get the right values, through caller-allocated structs
 * sized by their struct_size and through the snapshot accessors, and the library must never write
 * past a struct the caller owns.  Runs against tests/lib/scenarios/examples-2gpu.json.
 */
/* cmocka needs these four headers first, in this order. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/nvitop.h>

#define MiB      (UINT64_C(1) << 20)
#define CANARY   0xA5
#define TAIL_LEN 64

static bool grown(void) {
    const char *variant = getenv("NVT_ABI_VARIANT");
    return variant != NULL && strcmp(variant, "grown") == 0;
}

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

static void assert_canary(const unsigned char *tail) {
    for (size_t i = 0; i < TAIL_LEN; i++) {
        assert_int_equal(tail[i], CANARY);
    }
}

static void test_version(void **state) {
    (void)state;
    assert_int_equal(NVT_VERSION_NUM,
                     (NVT_VERSION_MAJOR << 16) | (NVT_VERSION_MINOR << 8) | NVT_VERSION_PATCH);
    assert_int_equal(nvt_version_num(), NVT_VERSION_NUM);
    char text[32];
    snprintf(text, sizeof(text), "%d.%d.%d", NVT_VERSION_MAJOR, NVT_VERSION_MINOR,
             NVT_VERSION_PATCH);
    assert_string_equal(nvt_version_string(), text);
}

/* Options of this program's size: the library reads what it covers and defaults the rest. */
static void test_options(void **state) {
    (void)state;
    struct nvt_options opts;
    nvt_options_init(&opts);
    assert_int_equal(opts.struct_size, sizeof(opts));
    opts.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    opts.allow_no_gpu = true;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_context_gpu_status(ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    nvt_close(ctx);

    /* A struct not set up by nvt_options_init() is refused, not misread. */
    opts.struct_size = 0;
    ctx = (nvt_context *)&ctx;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_INVALID_ARGUMENT);
    assert_null(ctx);
    opts.struct_size = offsetof(struct nvt_options, allow_no_gpu);
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_INVALID_ARGUMENT);

    /* A newer program's larger struct: the members this library does not know are ignored. */
    struct {
        struct nvt_options known;
        unsigned char later[TAIL_LEN];
    } newer;
    memset(&newer, 0xFF, sizeof(newer));
    nvt_options_init(&newer.known);
    newer.known.struct_size = sizeof(newer);
    newer.known.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    assert_int_equal(nvt_open(&newer.known, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
}

/* nvt_device_state() writes exactly the caller's struct, whatever the library's size. */
static void test_device_state(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &device), NVT_OK);

    unsigned char *buffer = malloc(sizeof(struct nvt_device_state) + TAIL_LEN);
    assert_non_null(buffer);
    memset(buffer, CANARY, sizeof(struct nvt_device_state) + TAIL_LEN);
    struct nvt_device_state *live = (struct nvt_device_state *)buffer;
    nvt_device_state_init(live);
    assert_int_equal(nvt_device_state(device, NVT_SAMPLE_DEVICES, live), NVT_OK);
    assert_int_equal(live->struct_size, sizeof(*live));
    assert_int_equal(live->memory_used_bytes, 3700 * MiB);
    assert_int_equal(live->temperature_c, 34);
    assert_true(nvt_is_na_double(live->nvlink_rx_kibps[NVT_NVLINK_MAX_LINKS - 1]));
    assert_canary(buffer + sizeof(struct nvt_device_state));

    /* Too small (not set up): refused, nothing written. */
    memset(buffer, CANARY, sizeof(struct nvt_device_state) + TAIL_LEN);
    live->struct_size = offsetof(struct nvt_device_state, memory_used_bytes);
    assert_int_equal(nvt_device_state(device, NVT_SAMPLE_DEVICES, live), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(live->struct_size, offsetof(struct nvt_device_state, memory_used_bytes));
    assert_canary(buffer + sizeof(live->struct_size));
    free(buffer);
    nvt_close(ctx);
}

/* Snapshot arrays through the accessors, and criteria of this program's size. */
static void test_snapshot_and_select(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 2);
    assert_int_equal(snap->flags, NVT_SAMPLE_ALL);
    if (grown()) {
        /* The grown library's elements are larger than this program's: only the accessors (and
         * the strides) find them. */
        assert_true(snap->device_stride > sizeof(struct nvt_device_snapshot));
        assert_true(snap->process_stride > sizeof(struct nvt_gpu_process));
    } else {
        assert_int_equal(snap->device_stride, sizeof(struct nvt_device_snapshot));
        assert_int_equal(snap->process_stride, sizeof(struct nvt_gpu_process));
    }
    static const char *const uuids[] = {"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40",
                                        "GPU-a2c47f09-61d3-4b8e-b5f0-7e9d4c1a8b63"};
    static const uint64_t used_mib[] = {20110, 3700};
    for (size_t slot = 0; slot < 2; slot++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(snap, slot);
        assert_non_null(d);
        assert_ptr_equal(d, (const char *)snap->devices + slot * snap->device_stride);
        assert_string_equal(d->info.uuid, uuids[slot]);
        assert_int_equal(d->info.index, slot);
        assert_int_equal(d->parent, NVT_NA_SIZE);
        assert_int_equal(d->state.memory_used_bytes, used_mib[slot] * MiB);
    }
    assert_null(nvt_snapshot_device(snap, 2));
    assert_true(snap->process_count >= 2);
    const struct nvt_gpu_process *first = nvt_snapshot_process(snap, 0);
    const struct nvt_gpu_process *second = nvt_snapshot_process(snap, 1);
    assert_int_equal(first->device, 0);
    assert_int_equal(first->type, NVT_PROCESS_GRAPHICS);
    assert_int_equal(first->gpu_memory_bytes, 4 * MiB);
    assert_int_equal(second->device, 0);
    assert_int_equal(second->gpu_memory_bytes, 19800 * MiB);
    assert_int_equal(second->sm_util_pct, 85);
    assert_null(nvt_snapshot_process(snap, snap->process_count));
    /* The host part is the snapshot's last member, after everything above. */
    assert_true(snap->host.memory_total_bytes > 0);

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
    assert_false(prefer_uuid);
    criteria.struct_size = 0;
    assert_int_equal(
        nvt_select_devices(snap, candidates, 2, &criteria, slots, &count, &prefer_uuid),
        NVT_ERR_INVALID_ARGUMENT);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_device_state),
        cmocka_unit_test(test_snapshot_and_select),
    };
    return cmocka_run_group_tests(tests, use_scenario, NULL);
}
