/*
 * Process lists and per-process utilisation against scripted driver entry points: the element
 * layout chosen by the entry points the driver exports (docs/nvitop-behaviour.md §9.1), growing the
 * buffer on INSUFFICIENT_SIZE, falling back when _v3 answers FUNCTION_NOT_FOUND, a GPU lost during
 * a list call, merging C/G/MPS lists by pid, and the utilisation cursor with its one-second memory
 * of samples.
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/process.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "nvt_cmocka.h"
#include "util/sys/clock.h"

#define MiB (1ULL << 20)

/* What the scripted driver lists, and how it behaves. */
static struct {
    unsigned stride;        /* bytes per element the driver writes */
    unsigned compute_count; /* pids 100, 101, ... */
    unsigned graphics_pid;  /* also on the compute list when equal to 100 */
    unsigned mps_pid;
    bool v3_is_stub;    /* _v3 answers FUNCTION_NOT_FOUND */
    unsigned too_small; /* answer INSUFFICIENT_SIZE this many times first */
    bool graphics_lost; /* the graphics list answers GPU_IS_LOST */
    unsigned list_calls;
    /* utilisation samples of the next call */
    nvmlProcessUtilizationSample_t samples[8];
    unsigned sample_count;
    unsigned burst;   /* or this many samples of pid 100, as a first call's whole history */
    unsigned history; /* or a whole history of this many samples, too many to take */
    unsigned long long last_seen;
} drv;

static void fill(unsigned char *buffer, unsigned index, unsigned pid, unsigned long long memory) {
    unsigned char *element = buffer + (size_t)index * drv.stride;
    memset(element, 0xAB, drv.stride);
    memcpy(element + offsetof(nvmlProcessInfo_v2_t, pid), &pid, sizeof(pid));
    memcpy(element + offsetof(nvmlProcessInfo_v2_t, usedGpuMemory), &memory, sizeof(memory));
    if (drv.stride >= sizeof(nvmlProcessInfo_v2_t)) {
        unsigned gi = 1;
        unsigned ci = 2;
        memcpy(element + offsetof(nvmlProcessInfo_v2_t, gpuInstanceId), &gi, sizeof(gi));
        memcpy(element + offsetof(nvmlProcessInfo_v2_t, computeInstanceId), &ci, sizeof(ci));
    }
}

static nvmlReturn_t list(unsigned int *count, void *buffer, unsigned n, unsigned first_pid) {
    drv.list_calls++;
    if (drv.too_small > 0 || *count < n) {
        drv.too_small -= drv.too_small > 0;
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < n; i++) {
        fill(buffer, i, first_pid + i, i == 1 ? NVML_VALUE_NOT_AVAILABLE_ULL : (i + 1) * MiB);
    }
    *count = n;
    return NVML_SUCCESS;
}

static nvmlReturn_t compute_v3(nvmlDevice_t d, unsigned int *count, void *infos) {
    (void)d;
    return drv.v3_is_stub ? NVML_ERROR_FUNCTION_NOT_FOUND
                          : list(count, infos, drv.compute_count, 100);
}

static nvmlReturn_t graphics_v3(nvmlDevice_t d, unsigned int *count, void *infos) {
    (void)d;
    if (drv.graphics_lost) {
        return NVML_ERROR_GPU_IS_LOST;
    }
    return drv.v3_is_stub ? NVML_ERROR_FUNCTION_NOT_FOUND : list(count, infos, 1, drv.graphics_pid);
}

static nvmlReturn_t mps_v3(nvmlDevice_t d, unsigned int *count, void *infos) {
    (void)d;
    return drv.v3_is_stub ? NVML_ERROR_FUNCTION_NOT_FOUND : list(count, infos, 1, drv.mps_pid);
}

static nvmlReturn_t compute_v2(nvmlDevice_t d, unsigned int *count, nvmlProcessInfo_v2_t *infos) {
    (void)d;
    return list(count, infos, drv.compute_count, 100);
}

static nvmlReturn_t graphics_v2(nvmlDevice_t d, unsigned int *count, nvmlProcessInfo_v2_t *infos) {
    (void)d;
    return list(count, infos, 1, drv.graphics_pid);
}

static nvmlReturn_t conf_compute(nvmlDevice_t d, nvmlConfComputeMemSizeInfo_t *info) {
    (void)d;
    (void)info;
    return NVML_ERROR_NOT_SUPPORTED; /* present, but not a confidential-computing GPU */
}

static nvmlReturn_t detail_list_ok(nvmlDevice_t d, nvmlProcessDetailList_v1_t *plist) {
    (void)d;
    plist->numProcArrayEntries = 0;
    return NVML_SUCCESS;
}

static nvmlReturn_t utilization(nvmlDevice_t d, nvmlProcessUtilizationSample_t *samples,
                                unsigned int *count, unsigned long long last_seen) {
    (void)d;
    drv.last_seen = last_seen;
    if (drv.burst > 0) {
        if (samples == NULL || *count < drv.burst) {
            *count = drv.burst;
            return NVML_ERROR_INSUFFICIENT_SIZE;
        }
        for (unsigned i = 0; i < drv.burst; i++) {
            samples[i] = (nvmlProcessUtilizationSample_t){100, 1000000 + i, 30, 15, 0, 0};
        }
        *count = drv.burst;
        drv.burst = 0;
        return NVML_SUCCESS;
    }
    if (drv.history > 0 && last_seen == 0) {
        *count = drv.history;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (drv.sample_count == 0) {
        return NVML_ERROR_NOT_FOUND;
    }
    memcpy(samples, drv.samples, drv.sample_count * sizeof(samples[0]));
    *count = drv.sample_count;
    drv.sample_count = 0;
    return NVML_SUCCESS;
}

struct fixture {
    struct nvml_backend backend;
    struct nvml_device device;
    struct nvml_process_list out;
};

static int setup(void **state) {
    struct fixture *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    memset(&drv, 0, sizeof(drv));
    drv.stride = sizeof(nvmlProcessInfo_v2_t);
    drv.compute_count = 3;
    drv.graphics_pid = 100;
    drv.mps_pid = 200;
    struct nvml_api *api = &f->backend.lib.api;
    api->nvmlDeviceGetComputeRunningProcesses_v3 = compute_v3;
    api->nvmlDeviceGetGraphicsRunningProcesses_v3 = graphics_v3;
    api->nvmlDeviceGetMPSComputeRunningProcesses_v3 = mps_v3;
    api->nvmlDeviceGetComputeRunningProcesses_v2 = compute_v2;
    api->nvmlDeviceGetGraphicsRunningProcesses_v2 = graphics_v2;
    api->nvmlDeviceGetProcessUtilization = utilization;
    f->backend.layout = NVML_LAYOUT_UNDECIDED;
    f->device.handle = (nvmlDevice_t)(uintptr_t)0x1000;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    free(f->backend.proc_buffer);
    free(f->device.util_recent);
    free(f->out.items);
    free(f);
    return 0;
}

static const struct nvml_process *find(const struct nvml_process_list *out, uint32_t pid) {
    for (size_t i = 0; i < out->count; i++) {
        if (out->items[i].pid == pid) {
            return &out->items[i];
        }
    }
    fail_msg("pid %u not listed", pid);
    static const struct nvml_process none; /* not reached */
    return &none;
}

static void check_merged(const struct nvml_process_list *out) {
    assert_int_equal(out->count, 4);
    for (size_t i = 1; i < out->count; i++) {
        assert_true(out->items[i - 1].pid < out->items[i].pid);
    }
    assert_int_equal(find(out, 100)->type, NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS);
    assert_int_equal(find(out, 101)->type, NVT_PROCESS_COMPUTE);
    assert_true(nvt_is_na_u64(find(out, 101)->gpu_memory_bytes));
    assert_int_equal(find(out, 102)->gpu_memory_bytes, 3 * MiB);
    assert_int_equal(find(out, 200)->type, NVT_PROCESS_COMPUTE); /* MPS client */
}

static void test_r550_layout(void **state) {
    struct fixture *f = *state;
    /* ConfCompute and ProcessDetailList both present: _v3 with 24-byte elements. */
    f->backend.lib.api.nvmlDeviceGetConfComputeMemSizeInfo = conf_compute;
    f->backend.lib.api.nvmlDeviceGetRunningProcessDetailList = detail_list_ok;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->backend.layout, NVML_LAYOUT_V3_24);
    check_merged(&f->out);
    assert_int_equal(find(&f->out, 102)->gpu_instance_id, 1);
    assert_int_equal(find(&f->out, 102)->compute_instance_id, 2);
}

static void test_r535_layout(void **state) {
    struct fixture *f = *state;
    /* ConfCompute exported, ProcessDetailList not: _v3 fills the 32-byte element. */
    drv.stride = sizeof(nvmlProcessInfo_v3_t);
    f->backend.lib.api.nvmlDeviceGetConfComputeMemSizeInfo = conf_compute;
    f->backend.lib.api.nvmlDeviceGetRunningProcessDetailList = NULL;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->backend.layout, NVML_LAYOUT_V3_32);
    check_merged(&f->out);
}

static void test_v3_stub_falls_back(void **state) {
    struct fixture *f = *state;
    /* A driver exporting _v3 that answers FUNCTION_NOT_FOUND (not implemented, in NVML's terms). */
    drv.v3_is_stub = true;
    drv.mps_pid = 100;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->backend.layout, NVML_LAYOUT_V2);
    assert_int_equal(f->out.count, 3); /* no MPS entry point in _v2 here */
    assert_int_equal(find(&f->out, 100)->type, NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS);
}

/* A GPU that falls off the bus between two list calls is lost, not idle. */
static void test_lost_during_lists(void **state) {
    struct fixture *f = *state;
    drv.graphics_lost = true;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_ERR_GPU_IS_LOST);
    assert_int_equal(f->out.count, 0);
}

static void test_buffer_grows(void **state) {
    struct fixture *f = *state;
    drv.compute_count = 150; /* more than the initial 64 entries */
    drv.graphics_pid = 100;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->out.count, 150); /* pids 100..249; the G and MPS pids are among them */
    assert_true(f->backend.proc_capacity >= 2 * 150 + 5);
    /* The grown buffer is kept: the next pass needs one call per list. */
    drv.list_calls = 0;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(drv.list_calls, 3);
    /* One buffer serves every device: another GPU's lists fit it at once, and it stays put. */
    const unsigned char *buffer = f->backend.proc_buffer;
    struct nvml_device other = {.handle = (nvmlDevice_t)(uintptr_t)0x2000};
    drv.list_calls = 0;
    assert_int_equal(nvml_device_processes(&f->backend, &other, &f->out), NVT_OK);
    assert_int_equal(f->out.count, 150);
    assert_int_equal(drv.list_calls, 3);
    assert_ptr_equal(f->backend.proc_buffer, buffer);
    /* A race: the list grows between the size answer and the retry, a bounded number of times. */
    drv.too_small = 100;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->out.count, 0);
}

static nvmlProcessUtilizationSample_t sample(unsigned pid, unsigned long long t, unsigned sm) {
    return (nvmlProcessUtilizationSample_t){pid, t, sm, sm / 2, 1, 2};
}

static void test_utilization_cursor(void **state) {
    struct fixture *f = *state;
    drv.compute_count = 1; /* pid 100 */
    drv.graphics_pid = 300;
    drv.mps_pid = 100;
    drv.samples[0] = sample(300, 5000000, 150); /* clamped to 100 */
    drv.samples[1] = sample(100, 5100000, 20);
    drv.samples[2] = sample(100, 4900000, 90); /* older: applied first, overwritten */
    drv.sample_count = 3;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(drv.last_seen, 0);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 20);
    assert_int_equal(find(&f->out, 100)->memory_util_pct, 10);
    assert_int_equal(find(&f->out, 300)->sm_util_pct, 100);
    assert_int_equal(f->device.util_cursor_us, 5100000);

    /* Nothing new from the driver: the last second's samples stand in, and the cursor is the
     * newest timestamp seen. */
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(drv.last_seen, 5100000);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 20);

    /* A new sample for one process; the other keeps its remembered one while it is younger
     * than a second (measured from the newest sample). */
    drv.samples[0] = sample(100, 5900000, 40);
    drv.sample_count = 1;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 40);
    assert_int_equal(find(&f->out, 300)->sm_util_pct, 100);
    drv.samples[0] = sample(100, 6200000, 50);
    drv.sample_count = 1;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 300)->sm_util_pct, 0); /* its sample is now too old: idle */

    /* Nothing new for more than a second of our clock: remembered samples expire. */
    f->device.util_recent_time -= 2.0;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 0);
}

/* The first call names the driver's whole history (72 periods of every process); the room made
 * for it is cut down once many later calls in a row needed far less, to twice the largest of
 * them, instead of sizing every later query's buffer. */
static void test_utilization_buffer_shrinks(void **state) {
    struct fixture *f = *state;
    drv.compute_count = 1; /* pid 100 */
    drv.burst = 5000;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 30);
    assert_true(f->backend.util_capacity >= 5000);

    for (unsigned call = 0; call < 64; call++) {
        /* One answer in eight is larger (a busier GPU in the same round): it sets the size. */
        drv.burst = call % 8 == 0 ? 200 : 0;
        drv.samples[0] = sample(100, 1006000 + call, 60);
        drv.samples[1] = sample(100, 1005000 + call, 10);
        drv.sample_count = 2;
        assert_true(f->backend.util_capacity >= 5000);
        assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    }
    assert_int_equal(f->backend.util_capacity, 400);
    drv.samples[0] = sample(100, 1007000, 70);
    drv.sample_count = 1;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 70);

    /* A larger answer again grows it as before. */
    drv.burst = 300;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_true(f->backend.util_capacity >= 300);
}

/* One GPU running 1,000 processes: the driver's whole history (72 periods of each) is more
 * samples than one query takes.  The first query then asks for the last second's, as nvitop does,
 * instead of getting none from then on. */
static void test_utilization_history_too_large(void **state) {
    struct fixture *f = *state;
    drv.compute_count = 1; /* pid 100 */
    drv.history = 72 * 1000;
    double now = clock_wall_s();
    drv.samples[0] = sample(100, (unsigned long long)(now * 1e6) - 200000, 35);
    drv.sample_count = 1;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(find(&f->out, 100)->sm_util_pct, 35);
    assert_true(drv.last_seen >= (unsigned long long)((now - 1.5) * 1e6));
    assert_true(drv.last_seen <= (unsigned long long)((now + 1.0) * 1e6));
    assert_true(f->backend.util_capacity < 1000); /* no room was made for the history */
}

static void test_utilization_na_with_hidden_memory(void **state) {
    struct fixture *f = *state;
    drv.compute_count = 2; /* pid 101's memory is N/A: idle processes stay N/A */
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_true(nvt_is_na_u32(find(&f->out, 100)->sm_util_pct));
    assert_true(nvt_is_na_u32(find(&f->out, 101)->decoder_util_pct));
}

static void test_no_handle(void **state) {
    struct fixture *f = *state;
    f->device.handle = NULL;
    assert_int_equal(nvml_device_processes(&f->backend, &f->device, &f->out), NVT_OK);
    assert_int_equal(f->out.count, 0);
    assert_int_equal(drv.list_calls, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_r550_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_r535_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_v3_stub_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_during_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_buffer_grows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utilization_cursor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utilization_buffer_shrinks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utilization_history_too_large, setup, teardown),
        cmocka_unit_test_setup_teardown(test_utilization_na_with_hidden_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_handle, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
