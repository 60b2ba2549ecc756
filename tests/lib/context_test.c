/*
 * Opening a context: the library search, the statuses of NVML init failures (injected by
 * scenarios), a context without GPUs, the legacy driver (no versioned entry points), status
 * strings, and the device lookups of device.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

static void test_library_not_found(void **state) {
    (void)state;
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    nvt_context *ctx = (nvt_context *)&ctx; /* must be reset to NULL on failure */
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .nvml_library_path = "/nonexistent/libnvidia-ml.so.1"};
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    assert_null(ctx);
    assert_string_equal(nvt_strerror(NVT_ERR_LIBRARY_NOT_FOUND),
                        "NVIDIA Management Library (NVML) not found");

    setenv(NVT_ENV_NVML_LIBRARY, "/nonexistent/libnvidia-ml.so.1", 1);
    assert_int_equal(nvt_open(NULL, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    unsetenv(NVT_ENV_NVML_LIBRARY);
    assert_int_equal(nvt_open(NULL, NULL), NVT_ERR_INVALID_ARGUMENT);
}

/* A host-only context never loads the driver, even when one is there to load. */
static void test_host_only(void **state) {
    (void)state;
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.host_only = true;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_context_gpu_status(ctx), NVT_ERR_NOT_SUPPORTED);
    assert_int_equal(nvt_device_count(ctx), 0);
    struct nvt_host_process *self = NULL;
    for (int pass = 0; pass < 3; pass++) {
        assert_int_equal(nvt_host_process_read(ctx, (uint32_t)getpid(), &self), NVT_OK);
        assert_int_equal(self->pid, (uint32_t)getpid());
        nvt_host_process_free(self);
        nvt_host_process_pass_end(ctx);
    }
    nvt_host_process_pass_end(NULL);
    nvt_close(ctx);
}

static void test_allow_no_gpu(void **state) {
    (void)state;
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .nvml_library_path = "/nonexistent/libnvidia-ml.so.1",
                               .allow_no_gpu = true};
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_context_gpu_status(ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    assert_int_equal(nvt_device_count(ctx), 0);
    assert_int_equal(nvt_system_info(ctx)->device_count, 0);
    assert_int_equal(nvt_system_info(ctx)->cuda_driver_version, NVT_NA_I32);
    const char *names[4];
    assert_int_equal(nvt_missing_functions(ctx, names, 4), 0);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 0);
    assert_int_equal(snap->process_count, 0);
    assert_true(snap->host.cpu_count > 0);
    nvt_snapshot_free(snap);
    struct nvt_cuda_device *devices = NULL;
    size_t count = 1;
    assert_int_equal(nvt_cuda_visible_devices(ctx, "0", &devices, &count), NVT_OK);
    assert_int_equal(count, 0);
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &device), NVT_ERR_OUT_OF_RANGE);
    nvt_close(ctx);
    nvt_close(NULL);
}

/* A copy of lib-basic.json whose driver section injects an init error. */
static nvt_status open_with_init_error(const char *error, const char *dir) {
    char *text = tu_read_file(tu_test_scenario("lib-basic.json"));
    char replacement[128];
    snprintf(replacement, sizeof(replacement), "\"driver\": { \"init_error\": \"%s\",", error);
    char *changed = tu_replace(text, "\"driver\": {", replacement);
    char path[4096];
    snprintf(path, sizeof(path), "%s/init-error.json", dir);
    tu_write_file(path, changed);
    free(text);
    free(changed);
    tu_use_scenario(path);
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    nvt_close(ctx);
    return status;
}

static void test_init_errors(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    assert_int_equal(open_with_init_error("DRIVER_NOT_LOADED", dir), NVT_ERR_DRIVER_NOT_LOADED);
    assert_string_equal(nvt_strerror(NVT_ERR_DRIVER_NOT_LOADED), "Driver Not Loaded");
    assert_int_equal(open_with_init_error("LIB_RM_VERSION_MISMATCH", dir),
                     NVT_ERR_LIB_RM_VERSION_MISMATCH);
    assert_string_equal(nvt_strerror(NVT_ERR_LIB_RM_VERSION_MISMATCH),
                        "RM has detected an NVML/RM version mismatch.");
    assert_int_equal(open_with_init_error("NO_PERMISSION", dir), NVT_ERR_NO_PERMISSION);
    assert_string_equal(nvt_strerror(NVT_ERR_NO_PERMISSION), "Insufficient Permissions");
    assert_int_equal(open_with_init_error("UNKNOWN", dir), NVT_ERR_NVML_UNKNOWN);

    /* With allow_no_gpu the context opens and says why there are no GPUs. */
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options), .allow_no_gpu = true};
    nvt_context *ctx = NULL;
    assert_int_equal(open_with_init_error("DRIVER_NOT_LOADED", dir), NVT_ERR_DRIVER_NOT_LOADED);
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_context_gpu_status(ctx), NVT_ERR_DRIVER_NOT_LOADED);
    nvt_close(ctx);
    tu_remove_tree(dir);
    free(dir);
}

static void test_status_strings(void **state) {
    (void)state;
    for (int s = NVT_OK; s <= NVT_ERR_OUT_OF_RANGE; s++) {
        assert_true(strlen(nvt_strerror((nvt_status)s)) > 0);
        assert_true(strlen(nvt_status_name((nvt_status)s)) > 0);
    }
    assert_string_equal(nvt_status_name(NVT_OK), "OK");
    assert_string_equal(nvt_status_name(NVT_ERR_GPU_IS_LOST), "ERR_GPU_IS_LOST");
    assert_string_equal(nvt_strerror(NVT_ERR_GPU_IS_LOST), "GPU is lost");
    assert_string_equal(nvt_strerror((nvt_status)999), "Unknown status");
    assert_string_equal(nvt_version_string(), NVT_VERSION_STRING);
}

static void test_device_lookups(void **state) {
    (void)state;
    nvt_context *ctx = tu_open(tu_test_scenario("lib-basic.json"));
    assert_int_equal(nvt_device_count(ctx), 4);
    nvt_device *a100 = NULL;
    nvt_device *found = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &a100), NVT_OK);
    assert_int_equal(nvt_device_by_index(ctx, 4, &found), NVT_ERR_OUT_OF_RANGE);
    const struct nvt_device_info *info = nvt_device_info(a100);
    assert_string_equal(info->name, "NVIDIA A100-SXM4-40GB");
    assert_string_equal(info->serial, "1563221000001");
    assert_true(info->mig_supported);
    assert_null(nvt_device_parent(a100));

    assert_int_equal(nvt_device_by_uuid(ctx, "GPU-3eb79704-1571-707c-aee8-f43ce747313d", &found),
                     NVT_OK);
    assert_ptr_equal(found, a100);
    assert_int_equal(nvt_device_by_uuid(ctx, "GPU-3eb79704", &found), NVT_OK);
    assert_ptr_equal(found, a100);
    assert_int_equal(nvt_device_by_uuid(ctx, "GPU-3eb7", &found), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_device_by_uuid(ctx, "GPU-ffffffff", &found), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_device_by_uuid(ctx, "nonsense", &found), NVT_ERR_NOT_FOUND);

    assert_int_equal(nvt_device_mig_count(a100), 2);
    nvt_device *mig = NULL;
    assert_int_equal(nvt_device_mig(a100, 1, &mig), NVT_OK);
    assert_int_equal(nvt_device_mig(a100, 2, &found), NVT_ERR_OUT_OF_RANGE);
    assert_ptr_equal(nvt_device_parent(mig), a100);
    assert_int_equal(nvt_device_mig_count(mig), 0);
    info = nvt_device_info(mig);
    assert_true(info->is_mig);
    assert_int_equal(info->mig_index, 2);
    assert_string_equal(info->uuid, "MIG-d184f67c-c95f-5ef2-a935-b69bb2cd6d7e");
    assert_int_equal(nvt_device_by_uuid(ctx, "MIG-d184f67c-c95f-5ef2-a935-b69bb2cd6d7e", &found),
                     NVT_OK);
    assert_ptr_equal(found, mig);
    assert_int_equal(nvt_device_by_uuid(ctx, "MIG-d184f67c", &found), NVT_OK);
    assert_ptr_equal(found, mig);
    assert_int_equal(
        nvt_device_by_uuid(ctx, "MIG-GPU-3eb79704-1571-707c-aee8-f43ce747313d/13/0", &found),
        NVT_OK);
    assert_ptr_equal(found, mig);
    assert_int_equal(
        nvt_device_by_uuid(ctx, "MIG-GPU-3eb79704-1571-707c-aee8-f43ce747313d/13/1", &found),
        NVT_ERR_NOT_FOUND);

    nvt_device *rtx = NULL;
    assert_int_equal(nvt_device_by_bus_id(ctx, "00000000:1A:00.0", &rtx), NVT_OK);
    assert_int_equal(nvt_device_info(rtx)->index, 1);
    assert_int_equal(nvt_device_by_bus_id(ctx, "1a:00.0", &found), NVT_OK);
    assert_ptr_equal(found, rtx);
    assert_int_equal(nvt_device_by_bus_id(ctx, "0000:1A:00.0", &found), NVT_OK); /* old form */
    assert_ptr_equal(found, rtx);
    assert_int_equal(nvt_device_by_bus_id(ctx, "00000000:99:00.0", &found), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_device_by_bus_id(ctx, "00000001:1A:00.0", &found), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_device_by_bus_id(ctx, "1A:00", &found), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_device_by_bus_id(ctx, "zz", &found), NVT_ERR_NOT_FOUND);

    struct nvt_device_state live;
    nvt_device_state_init(&live);
    assert_int_equal(nvt_device_state(rtx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_CLOCKS, &live), NVT_OK);
    assert_int_equal(live.memory_used_bytes, 20110 * MiB);
    assert_int_equal(live.clock_sm_mhz, 1860);
    assert_true(nvt_is_na_u32(live.encoder_util_pct));
    assert_int_equal(nvt_device_state(mig, NVT_SAMPLE_DEVICES, &live), NVT_OK);
    assert_int_equal(live.memory_total_bytes, 4864 * MiB);

    nvt_device *lost = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 3, &lost), NVT_OK);
    assert_int_equal(nvt_device_info(lost)->handle_status, NVT_ERR_GPU_IS_LOST);
    assert_int_equal(nvt_device_state(lost, NVT_SAMPLE_ALL, &live), NVT_OK);
    assert_int_equal(live.status, NVT_ERR_GPU_IS_LOST);
    assert_int_equal(nvt_device_mig_count(lost), 0);
    nvt_close(ctx);
}

/* The legacy driver variant lacks every versioned entry point: the older ones stand in. */
static void test_legacy_driver(void **state) {
    (void)state;
    char path[4096];
    snprintf(path, sizeof(path), "%s/sim-driver-legacy/libnvidia-ml.so.1",
             getenv("NVT_BINARY_DIR") != NULL ? getenv("NVT_BINARY_DIR") : "build");
    /* The legacy build models R418 and takes only that branch's scenarios. */
    char *dir = tu_temp_dir();
    char scenario[4096];
    snprintf(scenario, sizeof(scenario), "%s/r418.json", dir);
    char *original = tu_read_file(tu_test_scenario("lib-basic.json"));
    char *r418 = tu_replace(original, "\"version\": \"550.54.15\"", "\"version\": \"418.226.00\"");
    tu_write_file(scenario, r418);
    free(r418);
    free(original);
    tu_use_scenario(scenario);
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .nvml_library_path = path};
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_system_info(ctx)->device_count, 4);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    /* R418 has no MIG queries: the A100 shows no MIG devices, so the slots are the indices. */
    assert_int_equal(snap->device_count, 4);
    const size_t rtx_slot = 1;
    const struct nvt_device_snapshot *rtx = &snap->devices[rtx_slot];
    assert_int_equal(rtx->info.index, 1);
    assert_int_equal(snap->devices[0].child_count, 0);
    assert_string_equal(snap->devices[0].info.bus_id, "00000000:07:00.0");
    assert_string_equal(snap->devices[2].info.bus_id, "00000000:3B:00.0");
    assert_string_equal(rtx->info.bus_id, "00000000:1A:00.0");
    assert_int_equal(rtx->info.pci_device_id, 0x220410DE);
    /* v1 counts the reserved memory as used and has no reserved field. */
    assert_int_equal(rtx->state.memory_used_bytes, (20110 + 300) * MiB);
    assert_true(nvt_is_na_u64(rtx->state.memory_reserved_bytes));
    assert_int_equal(rtx->state.temperature_c, 71);
    size_t on_rtx = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        if (p->device == rtx_slot) {
            on_rtx++;
            assert_true(nvt_is_na_u32(p->gpu_instance_id)); /* v1 elements have no ids */
        }
    }
    /* R418 has no MPS list (R450): the MPS process is not listed. */
    assert_int_equal(on_rtx, 3);
    const char *names[8];
    size_t missing = nvt_missing_functions(ctx, names, 8);
    for (size_t i = 0; i < missing && i < 8; i++) {
        print_message("missing: %s\n", names[i]);
    }
    assert_int_equal(missing, 0);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    tu_remove_tree(dir);
    free(dir);
}

/* memory_v2 answering UNKNOWN makes the library use v1 for good, for every device. */
static void test_memory_v2_fallback(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char path[4096];
    snprintf(path, sizeof(path), "%s/memory-unknown.json", dir);
    char *text = tu_read_file(tu_test_scenario("lib-basic.json"));
    char *changed = tu_replace(text,
                               "\"memory\": { \"total_mib\": 40960, \"used_mib\": 15000, "
                               "\"reserved_mib\": 0 },",
                               "\"memory\": { \"error\": \"UNKNOWN\" },");
    tu_write_file(path, changed);
    free(text);
    free(changed);
    nvt_context *ctx = tu_open(path);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES, &snap), NVT_OK);
    assert_true(nvt_is_na_u64(snap->devices[0].state.memory_used_bytes));
    assert_false(snap->devices[0].state.memory_is_host); /* UNKNOWN is no unified memory */
    /* The RTX comes later: read with v1, which counts reserved memory as used. */
    assert_int_equal(snap->devices[3].state.memory_used_bytes, (20110 + 300) * MiB);
    assert_true(nvt_is_na_u64(snap->devices[3].state.memory_reserved_bytes));
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    tu_remove_tree(dir);
    free(dir);
}

static const char *test_library(const char *name) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/lib/%s",
             getenv("NVT_BINARY_DIR") != NULL ? getenv("NVT_BINARY_DIR") : "build", name);
    return path;
}

/* A driver with init, a device count, handles and names and nothing else: everything else is
 * N/A, nothing crashes, and what was missing is reported. */
static void test_minimal_driver(void **state) {
    (void)state;
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .nvml_library_path = test_library("libminimalnvml.so"),
                               .cuda_library_path = ""};
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_string_equal(nvt_system_info(ctx)->driver_version, "");
    assert_int_equal(nvt_system_info(ctx)->cuda_driver_version, NVT_NA_I32);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 1);
    const struct nvt_device_snapshot *d = &snap->devices[0];
    assert_string_equal(d->info.name, "Minimal GPU");
    assert_string_equal(d->info.bus_id, "");
    assert_int_equal(d->state.status, NVT_OK);
    assert_true(nvt_is_na_u32(d->state.temperature_c));
    assert_int_equal(d->state.mig_mode, NVT_FEATURE_NA);
    assert_int_equal(snap->process_count, 0);
    nvt_snapshot_free(snap);
    const char *names[32];
    size_t count = nvt_missing_functions(ctx, names, 32);
    bool memory = false;
    bool utilization = false;
    bool mig = false;
    for (size_t i = 0; i < count && i < 32; i++) {
        memory |= strcmp(names[i], "nvmlDeviceGetMemoryInfo") == 0;
        utilization |= strcmp(names[i], "nvmlDeviceGetUtilizationRates") == 0;
        mig |= strncmp(names[i], "nvmlDeviceGetMig", 16) == 0; /* MIG stays silent, as in nvitop */
    }
    assert_true(memory);
    assert_true(utilization);
    assert_false(mig);
    struct nvt_cuda_device *devices = NULL;
    size_t visible = 0;
    assert_int_equal(nvt_cuda_visible_devices(ctx, NULL, &devices, &visible), NVT_OK);
    assert_int_equal(visible, 1); /* no UUID, but index 0 is visible */
    free(devices);
    nvt_close(ctx);

    /* A library that is not NVML at all. */
    opts.nvml_library_path = test_library("libfakecuda.so");
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_not_found), cmocka_unit_test(test_allow_no_gpu),
        cmocka_unit_test(test_host_only),         cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_status_strings),    cmocka_unit_test(test_device_lookups),
        cmocka_unit_test(test_legacy_driver),     cmocka_unit_test(test_memory_v2_fallback),
        cmocka_unit_test(test_minimal_driver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
