/*
 * Driver edge cases against the simulator (tests/lib/scenarios/driver-edges.json, with the
 * scenario's "call_errors" for answers it does not model otherwise): a refused handle reports the
 * driver's error; _v2 memory and TemperatureV answering ARGUMENT_VERSION_MISMATCH fall back to
 * the older calls; a GPU lost during its process lists is lost, not idle; an NVLink counter that
 * failed to read is no baseline; a host-only snapshot asks the driver nothing; a bad
 * NVITOP_NVML_LIBRARY is named in the error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB        (UINT64_C(1) << 20)
#define DEADLINE_S 10.0

struct fixture {
    nvt_context *ctx; /* closed by the teardown, also when a test fails half-way */
    char *dir;
    char path[4096];
    char *original;
};

static int setup(void **state) {
    static struct fixture f;
    f.dir = tu_temp_dir();
    snprintf(f.path, sizeof(f.path), "%s/edges.json", f.dir);
    f.original = tu_read_file(tu_test_scenario("driver-edges.json"));
    tu_write_file(f.path, f.original);
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    nvt_close(f->ctx);
    f->ctx = NULL;
    tu_remove_tree(f->dir);
    free(f->dir);
    free(f->original);
    return 0;
}

/* The scenario with a "call_errors" object (its members as JSON text). */
static void write_with_call_errors(struct fixture *f, const char *members) {
    char head[1024];
    snprintf(head, sizeof(head), "{\n  \"call_errors\": {%s},\n  \"driver\"", members);
    char *changed = tu_replace(f->original, "{\n  \"driver\"", head);
    tu_write_file(f->path, changed);
    free(changed);
}

static struct nvt_snapshot *take(nvt_context *ctx, unsigned flags) {
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, flags, &snap), NVT_OK);
    return snap;
}

/* A handle the driver refuses with NO_PERMISSION: the device stays listed without a handle, and
 * its status is the driver's answer, not "unknown". */
static void test_handle_error_is_reported(void **state) {
    struct fixture *f = *state;
    write_with_call_errors(f, "\"nvmlDeviceGetHandleByIndex_v2\": \"NO_PERMISSION\", "
                              "\"nvmlDeviceGetHandleByIndex\": \"NO_PERMISSION\"");
    f->ctx = tu_open(f->path);
    assert_int_equal(nvt_device_count(f->ctx), 2);
    struct nvt_snapshot *snap = take(f->ctx, NVT_SAMPLE_DEVICES);
    assert_int_equal(snap->device_count, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(snap->devices[i].info.handle_status, NVT_ERR_NO_PERMISSION);
        assert_true(nvt_is_na_u64(snap->devices[i].state.memory_total_bytes));
    }
    nvt_snapshot_free(snap);
}

/* A driver built for other struct versions: the unversioned calls answer instead. */
static void test_version_mismatch_falls_back(void **state) {
    struct fixture *f = *state;
    write_with_call_errors(f, "\"nvmlDeviceGetMemoryInfo_v2\": \"ARGUMENT_VERSION_MISMATCH\", "
                              "\"nvmlDeviceGetTemperatureV\": \"ARGUMENT_VERSION_MISMATCH\"");
    f->ctx = tu_open(f->path);
    for (int pass = 0; pass < 2; pass++) { /* the fallback holds on later passes too */
        struct nvt_snapshot *snap = take(f->ctx, NVT_SAMPLE_DEVICES);
        assert_int_equal(snap->devices[1].state.status, NVT_OK);
        assert_int_equal(snap->devices[1].state.memory_total_bytes, 81559 * MiB);
        assert_int_equal(snap->devices[1].state.memory_used_bytes, 2000 * MiB);
        assert_int_equal(snap->devices[1].state.temperature_c, 51);
        nvt_snapshot_free(snap);
    }
}

/* GPU 0 falls off the bus while its processes are listed: lost, not "no processes". */
static void test_lost_during_process_list(void **state) {
    struct fixture *f = *state;
    f->ctx = tu_open(f->path);
    struct nvt_snapshot *snap = take(f->ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES);
    assert_int_equal(snap->device_count, 2);
    assert_int_equal(snap->devices[0].state.status, NVT_ERR_GPU_IS_LOST);
    assert_int_equal(snap->devices[1].state.status, NVT_OK);
    assert_int_equal(snap->process_count, 1);
    assert_int_equal(snap->processes[0].device, 1);
    assert_int_equal(snap->processes[0].pid, 4194001);
    nvt_snapshot_free(snap);
}

#define NVLINK_FLAGS (NVT_SAMPLE_NVLINK | NVT_SAMPLE_INFO)

/* TX counters that fail to read give no rate and are no baseline.  Once they read, their first
 * reading is the baseline; here the counters have stopped (a burst in the first millisecond, then
 * nothing), so every rate from a real baseline is 0, while a baseline taken from the failed
 * reads (0) would give a positive rate once. */
static void test_nvlink_baseline_skips_failed_reads(void **state) {
    struct fixture *f = *state;
    f->ctx = tu_open(f->path);
    for (int i = 0; i < 2; i++) {
        struct nvt_snapshot *snap = take(f->ctx, NVLINK_FLAGS);
        assert_int_equal(snap->devices[0].info.nvlink_count, 2);
        assert_true(isnan(snap->devices[0].state.nvlink_tx_kibps[0]));
        assert_true(isnan(snap->devices[0].state.nvlink_tx_kibps[1]));
        if (i == 1) {
            assert_true(snap->devices[0].state.nvlink_rx_kibps[0] >= 0.0);
        }
        nvt_snapshot_free(snap);
    }
    char *fixed = tu_replace(f->original, "\"tx_kibps\": {\"error\": \"UNKNOWN\"}",
                             "\"tx_kibps\": {\"schedule\": [[0, 1000000000], [0.001, 0]]}");
    tu_write_file(f->path, fixed);
    free(fixed);
    double deadline = tu_now() + DEADLINE_S;
    bool measured = false;
    while (!measured && tu_now() < deadline) {
        struct nvt_snapshot *snap = take(f->ctx, NVLINK_FLAGS);
        for (size_t link = 0; link < 2; link++) {
            double rate = snap->devices[0].state.nvlink_tx_kibps[link];
            if (!(isnan(rate) || rate == 0.0)) {
                fail_msg("link %zu: %g KiB/s from a baseline of a failed read", link, rate);
            }
            measured = measured || rate == 0.0;
        }
        nvt_snapshot_free(snap);
        usleep(20000);
    }
    assert_true(measured);
}

static const char *const QUERIED[] = {"nvmlInit_v2",
                                      "nvmlDeviceGetHandleByIndex_v2",
                                      "nvmlDeviceGetMigMode",
                                      "nvmlDeviceGetName",
                                      "nvmlDeviceGetMemoryInfo_v2",
                                      "nvmlDeviceGetUtilizationRates",
                                      "nvmlDeviceGetPciInfo_v3",
                                      "nvmlDeviceGetComputeRunningProcesses_v3"};
#define QUERIED_COUNT (sizeof(QUERIED) / sizeof(QUERIED[0]))

/* Open a context, take `snapshots` host-only snapshots, close it; then the session's call counts
 * (the simulator writes them at the last nvmlShutdown; closing the context unloads it, so each
 * session counts from zero). */
static void session(struct fixture *f, const char *calls, int snapshots,
                    unsigned long counts[QUERIED_COUNT]) {
    f->ctx = tu_open(f->path);
    for (int i = 0; i < snapshots; i++) {
        struct nvt_snapshot *snap = take(f->ctx, NVT_SAMPLE_HOST | NVT_SAMPLE_HOST_PROCESSES);
        assert_int_equal(snap->device_count, 0);
        assert_int_equal(snap->process_count, 0);
        assert_true(snap->host.cpu_count > 0);
        nvt_snapshot_free(snap);
    }
    nvt_close(f->ctx);
    f->ctx = NULL;
    char *text = tu_read_file(calls);
    for (size_t i = 0; i < QUERIED_COUNT; i++) {
        counts[i] = tu_calls_of(text, QUERIED[i]);
    }
    free(text);
}

/* Host-only snapshots list no device and make no NVML call: a session with three of them calls
 * the driver exactly as often as a session with none. */
static void test_host_only_snapshot_asks_nothing(void **state) {
    struct fixture *f = *state;
    char calls[4200];
    snprintf(calls, sizeof(calls), "%s/calls.txt", f->dir);
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    unsigned long plain[QUERIED_COUNT];
    unsigned long host[QUERIED_COUNT];
    session(f, calls, 0, plain);
    session(f, calls, 3, host);
    unsetenv("NVML_SIM_CALLS_FILE");
    assert_int_equal(plain[0], 1); /* the file is this session's */
    for (size_t i = 0; i < QUERIED_COUNT; i++) {
        if (host[i] != plain[i]) {
            fail_msg("%s: %lu calls in the session with host-only snapshots, %lu without",
                     QUERIED[i], host[i], plain[i]);
        }
    }
}

/* A missing or non-NVML library is named, with where its name came from. */
static void test_library_error_names_the_path(void **state) {
    (void)state;
    char buf[512];
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    size_t len = nvt_nvml_library_error(&opts, buf, sizeof(buf));
    assert_int_equal(len, strlen(buf));
    if (strstr(buf, "nvml_library_path=/nonexistent/libnvidia-ml.so.1: ") != buf ||
        strstr(buf, "No such file or directory") == NULL) {
        fail_msg("unexpected message \"%s\"", buf);
    }
    /* The environment variable, read when the options name no library. */
    setenv("NVITOP_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    nvt_nvml_library_error(NULL, buf, sizeof(buf));
    if (strstr(buf, "NVITOP_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1: ") != buf) {
        fail_msg("unexpected message \"%s\"", buf);
    }
    /* A shared object that is not NVML. */
    char fake[4096];
    const char *binary = getenv("NVT_BINARY_DIR");
    snprintf(fake, sizeof(fake), "%s/tests/lib/libfakecuda.so", binary != NULL ? binary : "build");
    setenv("NVITOP_NVML_LIBRARY", fake, 1);
    assert_int_equal(nvt_open(NULL, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    char expected[4200];
    snprintf(expected, sizeof(expected),
             "NVITOP_NVML_LIBRARY=%s: not an NVML library (it has no nvmlInit)", fake);
    assert_int_equal(nvt_nvml_library_error(NULL, buf, sizeof(buf)), strlen(expected));
    assert_string_equal(buf, expected);
    /* Cut to the buffer like snprintf. */
    assert_int_equal(nvt_nvml_library_error(NULL, buf, 8), strlen(expected));
    assert_string_equal(buf, "NVITOP_");
    unsetenv("NVITOP_NVML_LIBRARY");
    /* The simulator is NVML: nothing to say. */
    assert_int_equal(nvt_nvml_library_error(NULL, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_handle_error_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_version_mismatch_falls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_during_process_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nvlink_baseline_skips_failed_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_only_snapshot_asks_nothing, setup, teardown),
        cmocka_unit_test(test_library_error_names_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
