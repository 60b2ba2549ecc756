/*
 * The calls that complete nvitop's API (docs/nvitop-behaviour.md §5) against
 * tests/lib/scenarios/lib-basic.json: a MIG-enabled A100 (MIG devices in slots 0 and 2), a busy RTX
 * 3090, a T4 and a lost GPU.  This test's own pid is one of the GPU processes, so its host data is
 * real.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

static nvt_context *open_basic(void) {
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    return tu_open(tu_test_scenario("lib-basic.json"));
}

static void test_device_processes(void **state) {
    (void)state;
    nvt_context *ctx = open_basic();
    nvt_device *rtx = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &rtx), NVT_OK);
    struct nvt_gpu_process *list = NULL;
    size_t count = 0;
    assert_int_equal(nvt_device_processes(rtx, NVT_SAMPLE_HOST_PROCESSES, &list, &count), NVT_OK);
    assert_int_equal(count, 4);
    assert_int_equal(list[0].pid, (uint32_t)getpid());
    assert_int_equal(list[0].device, 0);
    assert_int_equal(list[0].gpu_memory_bytes, 1000 * MiB);
    assert_int_equal(list[0].sm_util_pct, 10);
    assert_int_equal(list[0].host.status, NVT_HOST_OK);
    assert_true(list[0].host.user[0] != '\0'); /* joined with /proc: strings in the block */
    assert_true(list[0].host.cmdline_count > 0);
    nvt_free(list);

    /* The MIG-enabled A100: the processes of its MIG devices, device 1 + k. */
    nvt_device *a100 = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &a100), NVT_OK);
    assert_int_equal(nvt_device_processes(a100, 0, &list, &count), NVT_OK);
    assert_int_equal(count, 2);
    assert_int_equal(list[0].device, 1);
    assert_int_equal(list[0].gpu_memory_bytes, 9000 * MiB);
    assert_int_equal(list[1].device, 2);
    assert_true(nvt_is_na_u64(list[1].gpu_memory_bytes));
    assert_string_equal(list[0].host.user, ""); /* no host data asked for */
    nvt_free(list);

    /* A lost GPU has none; bad flags are refused. */
    nvt_device *lost = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 3, &lost), NVT_OK);
    assert_int_equal(nvt_device_processes(lost, 0, &list, &count), NVT_OK);
    assert_int_equal(count, 0);
    assert_null(list);
    assert_int_equal(nvt_device_processes(rtx, NVT_SAMPLE_DEVICES, &list, &count),
                     NVT_ERR_INVALID_ARGUMENT);
    nvt_close(ctx);
}

/* Devices given by handle: a MIG device alone in its slot, a physical one with its MIG devices. */
static void test_snapshot_of_handles(void **state) {
    (void)state;
    nvt_context *ctx = open_basic();
    nvt_device *a100 = NULL;
    nvt_device *rtx = NULL;
    nvt_device *mig = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &a100), NVT_OK);
    assert_int_equal(nvt_device_by_index(ctx, 1, &rtx), NVT_OK);
    assert_int_equal(nvt_device_mig(a100, 1, &mig), NVT_OK);
    nvt_device *const chosen[] = {mig, rtx};
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(
        nvt_snapshot_take_of(ctx, NVT_SAMPLE_DEFAULT | NVT_SAMPLE_INFO, chosen, 2, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 2);
    assert_true(snap->devices[0].info.is_mig);
    assert_int_equal(snap->devices[0].info.index, 0);
    assert_int_equal(snap->devices[0].info.mig_index, nvt_device_info(mig)->mig_index);
    assert_string_equal(snap->devices[0].info.uuid, nvt_device_info(mig)->uuid);
    assert_int_equal(snap->devices[0].parent, NVT_NA_SIZE);
    assert_string_equal(snap->devices[1].info.uuid, "GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40");
    size_t on_mig = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        assert_true(nvt_snapshot_is_leaf(snap, snap->processes[i].device));
        on_mig += snap->processes[i].device == 0;
    }
    assert_true(on_mig > 0);
    assert_true(snap->process_count > on_mig);
    nvt_snapshot_free(snap);

    /* The A100 with its MIG devices; a MIG device beside its parent would have two slots. */
    nvt_device *const whole[] = {a100};
    assert_int_equal(nvt_snapshot_take_of(ctx, NVT_SAMPLE_DEVICES, whole, 1, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 3);
    nvt_snapshot_free(snap);
    nvt_device *const twice[] = {a100, mig};
    assert_int_equal(nvt_snapshot_take_of(ctx, NVT_SAMPLE_DEVICES, twice, 2, &snap),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_null(snap);
    nvt_device *const none[] = {NULL};
    assert_int_equal(nvt_snapshot_take_of(ctx, NVT_SAMPLE_DEVICES, none, 1, &snap),
                     NVT_ERR_INVALID_ARGUMENT);
    nvt_close(ctx);
}

static void test_snapshot_of_some_devices(void **state) {
    (void)state;
    nvt_context *ctx = open_basic();
    const uint32_t indices[] = {1, 0};
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(
        nvt_snapshot_take_devices(ctx, NVT_SAMPLE_DEFAULT | NVT_SAMPLE_INFO, indices, 2, &snap),
        NVT_OK);
    assert_int_equal(snap->device_count, 4); /* the RTX, then the A100 and its two MIG devices */
    assert_string_equal(snap->devices[0].info.uuid, "GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40");
    assert_int_equal(snap->devices[1].info.index, 0);
    assert_int_equal(snap->devices[1].first_child, 2);
    assert_int_equal(snap->devices[1].child_count, 2);
    assert_int_equal(snap->devices[3].parent, 1);
    assert_int_equal(snap->process_count, 6);
    for (size_t i = 0; i < snap->process_count; i++) {
        assert_true(nvt_snapshot_is_leaf(snap, snap->processes[i].device));
    }
    assert_true(snap->host.memory_total_bytes > 0);
    nvt_free(snap);

    const uint32_t repeated[] = {2, 2};
    const uint32_t outside[] = {4};
    snap = (struct nvt_snapshot *)&snap;
    assert_int_equal(nvt_snapshot_take_devices(ctx, NVT_SAMPLE_DEVICES, repeated, 2, &snap),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_null(snap);
    assert_int_equal(nvt_snapshot_take_devices(ctx, NVT_SAMPLE_DEVICES, outside, 1, &snap),
                     NVT_ERR_OUT_OF_RANGE);
    assert_int_equal(nvt_snapshot_take_devices(ctx, NVT_SAMPLE_HOST, NULL, 0, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 0);
    assert_true(snap->host.memory_total_bytes > 0);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

static void test_cuda(void **state) {
    (void)state;
    char text[16];
    assert_int_equal(nvt_cuda_version_string(text, sizeof(text), 12040), 4);
    assert_string_equal(text, "12.4");
    nvt_cuda_version_string(text, sizeof(text), 11041);
    assert_string_equal(text, "11.4.1");
    nvt_cuda_version_string(text, sizeof(text), 10000);
    assert_string_equal(text, "10.0");
    nvt_cuda_version_string(text, sizeof(text), NVT_NA_I32);
    assert_string_equal(text, "N/A");
    assert_int_equal(nvt_cuda_version_string(text, 3, 11041), 6);
    assert_string_equal(text, "11");

    char library[4096];
    snprintf(library, sizeof(library), "%s/tests/lib/libfakecuda.so", getenv("NVT_BINARY_DIR"));
    int32_t version = 0;
    assert_int_equal(nvt_cuda_runtime_version(library, &version), NVT_OK);
    assert_int_equal(version, 12040);
    setenv("FAKE_CUDART_VERSION", "-1", 1);
    assert_int_equal(nvt_cuda_runtime_version(library, &version), NVT_ERR_CUDA);
    assert_true(nvt_is_na_i32(version));
    unsetenv("FAKE_CUDART_VERSION");
    assert_int_equal(nvt_cuda_runtime_version("/nonexistent/libcudart.so", &version),
                     NVT_ERR_LIBRARY_NOT_FOUND);
    snprintf(library, sizeof(library), "%s/tests/lib/libminimalnvml.so", getenv("NVT_BINARY_DIR"));
    assert_int_equal(nvt_cuda_runtime_version(library, &version), NVT_ERR_FUNCTION_NOT_FOUND);

    /* Ordinals to handles, by the pure-NVML resolution. */
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.cuda_library_path = "";
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_cuda_index(ctx, "2,1", 1, &device), NVT_OK);
    assert_int_equal(nvt_device_info(device)->index, 1);
    assert_false(nvt_device_info(device)->is_mig);
    /* A GPU with MIG enabled stands for its first MIG device. */
    assert_int_equal(nvt_device_by_cuda_index(ctx, "0", 0, &device), NVT_OK);
    assert_true(nvt_device_info(device)->is_mig);
    assert_string_equal(nvt_device_info(device)->uuid, "MIG-37b51284-1df4-5451-979d-3231ccb0822e");
    assert_int_equal(nvt_device_by_cuda_index(ctx, "2,1", 2, &device), NVT_ERR_OUT_OF_RANGE);
    assert_null(device);
    assert_int_equal(nvt_device_by_cuda_index(ctx, "", 0, &device), NVT_ERR_OUT_OF_RANGE);

    /* The other way (nvitop's Device.cuda_index): the ordinal of a device handle. */
    nvt_device *gpu1 = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &gpu1), NVT_OK);
    uint32_t ordinal = 99;
    assert_int_equal(nvt_device_cuda_index(ctx, "2,1", gpu1, &ordinal), NVT_OK);
    assert_int_equal(ordinal, 1);
    assert_int_equal(nvt_device_cuda_index(ctx, "1,2", gpu1, &ordinal), NVT_OK);
    assert_int_equal(ordinal, 0);
    assert_int_equal(nvt_device_cuda_index(ctx, "2", gpu1, &ordinal), NVT_ERR_NOT_FOUND);
    assert_true(nvt_is_na_u32(ordinal));
    nvt_close(ctx);
}

static void test_derived_strings(void **state) {
    (void)state;
    char text[64];
    assert_int_equal(nvt_format_memory_usage(text, sizeof(text), 20110 * MiB, 24576 * MiB), 19);
    assert_string_equal(text, "20110MiB / 24.00GiB");
    nvt_format_memory_usage(text, sizeof(text), 1320702443, 85520809984);
    assert_string_equal(text, "1260MiB / 79.65GiB");
    nvt_format_memory_usage(text, sizeof(text), NVT_NA_U64, NVT_NA_U64);
    assert_string_equal(text, "N/A / N/A");
    nvt_format_power_status(text, sizeof(text), 255000, 700000);
    assert_string_equal(text, "255W / 700W");
    nvt_format_power_status(text, sizeof(text), 254500, 255500); /* half to even */
    assert_string_equal(text, "254W / 256W");
    nvt_format_power_status(text, sizeof(text), NVT_NA_U32, 350000);
    assert_string_equal(text, "N/A / 350W");
    assert_int_equal(nvt_format_power_status(text, 4, 255000, 700000), 11);
    assert_string_equal(text, "255");
    nvt_format_utilization(text, sizeof(text), 87);
    assert_string_equal(text, "87%");
    nvt_format_utilization(text, sizeof(text), NVT_NA_U32);
    assert_string_equal(text, "N/A");
    assert_true(nvt_percent(20110, 24576) == 81.8);
    assert_true(nvt_percent(1, 8) == 12.5);
    assert_true(nvt_percent(1, 400) == 0.2); /* 0.25 rounds half to even */
    assert_true(isnan(nvt_percent(1, 0)));
    assert_true(isnan(nvt_percent(NVT_NA_U64, 10)));
}

/* N/A integers print "N/A", never 4294967295; process types as nvitop's GpuProcess.type. */
static void test_na_and_type_strings(void **state) {
    (void)state;
    char text[32];
    assert_int_equal(nvt_format_u32(text, sizeof(text), NVT_NA_U32), 3);
    assert_string_equal(text, "N/A");
    nvt_format_u32(text, sizeof(text), 4294967294U);
    assert_string_equal(text, "4294967294");
    nvt_format_u64(text, sizeof(text), NVT_NA_U64);
    assert_string_equal(text, "N/A");
    assert_int_equal(nvt_format_u64(text, 3, 12345), 5);
    assert_string_equal(text, "12");
    nvt_format_i32(text, sizeof(text), NVT_NA_I32);
    assert_string_equal(text, "N/A");
    nvt_format_i32(text, sizeof(text), -7);
    assert_string_equal(text, "-7");
    assert_string_equal(nvt_process_type_name(NVT_PROCESS_COMPUTE), "C");
    assert_string_equal(nvt_process_type_name(NVT_PROCESS_GRAPHICS), "G");
    assert_string_equal(nvt_process_type_name(NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS), "C+G");
    assert_string_equal(nvt_process_type_name(0), "N/A");
    /* psutil's status() words for the /proc state letters. */
    assert_string_equal(nvt_process_status_name('R'), "running");
    assert_string_equal(nvt_process_status_name('S'), "sleeping");
    assert_string_equal(nvt_process_status_name('D'), "disk-sleep");
    assert_string_equal(nvt_process_status_name('Z'), "zombie");
    assert_string_equal(nvt_process_status_name('t'), "tracing-stop");
    assert_string_equal(nvt_process_status_name('I'), "idle");
    assert_string_equal(nvt_process_status_name(0), "N/A");
    assert_string_equal(nvt_process_status_name('?'), "N/A");
}

/* The escape hatch to the driver: the nvmlDevice_t behind a device (physical and MIG). */
static void test_nvml_handle(void **state) {
    (void)state;
    nvt_context *ctx = open_basic();
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &device), NVT_OK);
    assert_non_null(nvt_device_nvml_handle(device));
    nvt_device *other = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &other), NVT_OK);
    assert_ptr_not_equal(nvt_device_nvml_handle(device), nvt_device_nvml_handle(other));
    assert_null(nvt_device_nvml_handle(NULL));
    /* A Linux driver has one driver model: nvitop's current_driver_model() is N/A there. */
    assert_string_equal(nvt_device_driver_model(device), "N/A");
    assert_string_equal(nvt_device_driver_model(NULL), "N/A");
    nvt_close(ctx);
}

static void test_host(void **state) {
    (void)state;
    char root[4096];
    snprintf(root, sizeof(root), "%s/tests/fixtures/proc/basic", getenv("NVT_SOURCE_DIR"));
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.proc_root = root;
    opts.allow_no_gpu = true;
    opts.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);

    struct nvt_host_state *host = NULL;
    assert_int_equal(nvt_host_state_read(ctx, &host), NVT_OK);
    /* The context's first reading has nothing to compare with: 0.0, as psutil's first
     * cpu_percent() (not the average since boot, 15 % in the fixture). */
    assert_true(host->cpu_percent == 0.0);
    assert_int_equal(host->cpu_count, 2);
    assert_true(host->cpu_percent_per_cpu[0] == 0.0);
    assert_true(host->cpu_percent_per_cpu[1] == 0.0);
    assert_int_equal(host->memory_total_bytes, 16384000000);
    assert_true(host->memory_percent == 37.5);
    assert_int_equal(host->swap_used_bytes, 512000000);
    assert_true(host->load_15m == 0.25);
    assert_true(host->uptime_s == 12345.67);
    assert_string_equal(host->hostname, "fixture-host");
    nvt_free(host);

    uint32_t *pids = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_pids(ctx, &pids, &count), NVT_OK);
    assert_int_equal(count, 12); /* 107 and 112 have unreadable stat files */
    assert_int_equal(pids[0], 100);
    for (size_t i = 1; i < count; i++) {
        assert_true(pids[i - 1] < pids[i]);
    }
    nvt_free(pids);

    uint32_t *ppids = NULL;
    uint32_t *children = NULL;
    assert_int_equal(nvt_host_reverse_ppid_map(ctx, &ppids, &children, &count), NVT_OK);
    assert_int_equal(count, 12);
    assert_int_equal(ppids[count - 2], 100);
    assert_int_equal(children[count - 2], 101);
    assert_int_equal(ppids[count - 1], 100);
    assert_int_equal(children[count - 1], 102);
    assert_int_equal(ppids[count - 3], 2);
    assert_int_equal(children[count - 3], 103);
    for (size_t i = 1; i < count; i++) {
        assert_true(ppids[i - 1] < ppids[i] ||
                    (ppids[i - 1] == ppids[i] && children[i - 1] < children[i]));
    }
    nvt_free(ppids);
    nvt_close(ctx);
}

/* The RTX's used memory in a fresh snapshot of ctx (NVT_NA_U64 when NVML no longer answers). */
static uint64_t rtx_memory_used(nvt_context *ctx) {
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES, &snap), NVT_OK);
    uint64_t used = nvt_snapshot_device(snap, 3)->state.memory_used_bytes; /* A100, 2 MIG, RTX */
    nvt_snapshot_free(snap);
    return used;
}

static void *sample_in_thread(void *arg) {
    nvt_context *ctx = arg;
    for (int i = 0; i < 20; i++) {
        if (rtx_memory_used(ctx) != 20110 * MiB) {
            return arg; /* failure */
        }
    }
    return NULL;
}

/* One context per thread, NVML initialised by each: NVML counts nvmlInit/nvmlShutdown calls, so
 * closing one context leaves the others working, and contexts sample side by side. */
static void test_contexts_share_nvml(void **state) {
    (void)state;
    nvt_context *first = open_basic();
    nvt_context *second = NULL;
    assert_int_equal(nvt_open(NULL, &second), NVT_OK);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, sample_in_thread, second), 0);
    void *failed = first;
    for (int i = 0; i < 20; i++) {
        assert_int_equal(rtx_memory_used(first), 20110 * MiB);
    }
    assert_int_equal(pthread_join(thread, &failed), 0);
    assert_null(failed);
    nvt_close(first);
    assert_int_equal(rtx_memory_used(second), 20110 * MiB);
    nvt_close(second);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_processes),    cmocka_unit_test(test_snapshot_of_some_devices),
        cmocka_unit_test(test_snapshot_of_handles), cmocka_unit_test(test_cuda),
        cmocka_unit_test(test_derived_strings),     cmocka_unit_test(test_host),
        cmocka_unit_test(test_na_and_type_strings), cmocka_unit_test(test_nvml_handle),
        cmocka_unit_test(test_contexts_share_nvml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
