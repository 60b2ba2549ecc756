/*
 * Live changes and call counting: a rewritten scenario file shows up in a running client (a
 * process appears, a GPU is lost), a malformed rewrite keeps the previous model, and the call
 * counts land in NVML_SIM_CALLS_FILE at the last shutdown.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvt_cmocka.h"
#include "sim_support.h"
#include "test_clock.h"

static struct sim_api api;

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    setenv("NVML_SIM_TIME", "0", 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_api_unload(&api);
    return 0;
}

static void write_machine(const char *path, int processes, bool lost, bool broken) {
    char procs[512] = "";
    for (int i = 0; i < processes; i++) {
        size_t used = strlen(procs);
        snprintf(procs + used, sizeof(procs) - used,
                 "%s{\"pid\": %d, \"type\": \"compute\", \"used_mib\": 100}", i > 0 ? ", " : "",
                 1000 + i);
    }
    char text[1024];
    snprintf(text, sizeof(text),
             "{\"driver\": {\"version\": \"550.54.15\", \"cuda_version\": 12040},\n"
             " \"devices\": [{\"name\": \"NVIDIA L4\", \"uuid\": \"GPU-1\", \"lost\": %s,\n"
             "   \"pci\": {\"bus_id\": \"00000000:01:00.0\"}, \"fan\": %s,\n"
             "   \"processes\": [%s]}]}\n",
             lost ? "true" : "false", broken ? "\"fast\"" : "40", procs);
    sim_write_file(path, text);
}

/* Polls the process count until it equals `want` or a generous deadline passes (the driver
 * promises 0.25 s; a loaded machine may take longer to schedule us). */
static nvmlReturn_t wait_for_count(nvmlDevice_t dev, unsigned int want) {
    double deadline = test_now_s() + 10.0;
    nvmlReturn_t ret = NVML_SUCCESS;
    do {
        unsigned int count = 0;
        ret = api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, NULL);
        if (ret == NVML_ERROR_GPU_IS_LOST || (want == 0 && ret == NVML_SUCCESS) ||
            (ret == NVML_ERROR_INSUFFICIENT_SIZE && count == want)) {
            return ret;
        }
        struct timespec pause = {.tv_nsec = 10000000};
        nanosleep(&pause, NULL);
    } while (test_now_s() < deadline);
    return ret;
}

static void test_live_changes(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof(path), "%s/live.json", sim_temp_dir());
    write_machine(path, 2, false, false);
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_int_equal(wait_for_count(dev, 2), NVML_ERROR_INSUFFICIENT_SIZE);

    write_machine(path, 3, false, false);
    assert_int_equal(wait_for_count(dev, 3), NVML_ERROR_INSUFFICIENT_SIZE);

    /* A malformed rewrite is reported once and the previous model stays. */
    write_machine(path, 1, false, true);
    struct timespec pause = {.tv_nsec = 400000000};
    nanosleep(&pause, NULL);
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, NULL),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(count, 3);

    write_machine(path, 0, false, false);
    assert_int_equal(wait_for_count(dev, 0), NVML_SUCCESS);

    write_machine(path, 1, true, false);
    assert_int_equal(wait_for_count(dev, 99), NVML_ERROR_GPU_IS_LOST);
    unsigned int fan = 0;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &fan), NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_call_counts_file(void **state) {
    (void)state;
    char calls[512];
    snprintf(calls, sizeof(calls), "%s/calls.txt", sim_temp_dir());
    remove(calls);
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    setenv("NVML_SIM_SCENARIO", sim_scenario_path("workstation-2gpu.json"), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    unsigned int fan = 0;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &dev), NVML_SUCCESS);
        assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &fan), NVML_SUCCESS);
    }
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    FILE *f = fopen(calls, "r");
    assert_null(f); /* only the last shutdown writes the file */
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    f = fopen(calls, "r");
    assert_non_null(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    fclose(f);
    unsetenv("NVML_SIM_CALLS_FILE");
    /* Counts are per process: earlier tests in this binary called nothing counted here but
     * init and shutdown. */
    assert_non_null(strstr(text, "nvmlDeviceGetHandleByIndex_v2 3\n"));
    assert_non_null(strstr(text, "nvmlDeviceGetFanSpeed 3\n"));
    assert_null(strstr(text, "nvmlDeviceGetName "));
}

static atomic_bool stop_hammering;

/* Queries in a loop, as a monitor's sampling thread does, while the main thread reloads. */
static void *hammer(void *arg) {
    nvmlDevice_t dev = arg;
    unsigned long rounds = 0;
    while (!atomic_load(&stop_hammering)) {
        nvmlProcessInfo_v2_t procs[8];
        unsigned int count = 8;
        unsigned int fan = 0;
        char name[96];
        nvmlReturn_t ret = api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, procs);
        if (ret != NVML_SUCCESS && ret != NVML_ERROR_GPU_IS_LOST) {
            return (void *)1;
        }
        ret = api.nvmlDeviceGetFanSpeed(dev, &fan);
        if (ret != NVML_SUCCESS && ret != NVML_ERROR_GPU_IS_LOST) {
            return (void *)1;
        }
        api.nvmlDeviceGetName(dev, name, sizeof(name));
        rounds++;
    }
    return rounds > 0 ? NULL : (void *)1;
}

static void test_concurrent_queries_during_reloads(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof(path), "%s/threads.json", sim_temp_dir());
    write_machine(path, 1, false, false);
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    atomic_store(&stop_hammering, false);
    pthread_t threads[2];
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(pthread_create(&threads[i], NULL, hammer, dev), 0);
    }
    for (unsigned int n = 2; n <= 6; n++) {
        write_machine(path, (int)n, false, false);
        assert_int_equal(wait_for_count(dev, n), NVML_ERROR_INSUFFICIENT_SIZE);
    }
    atomic_store(&stop_hammering, true);
    for (size_t i = 0; i < 2; i++) {
        void *result = NULL;
        assert_int_equal(pthread_join(threads[i], &result), 0);
        assert_null(result);
    }
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call_counts_file),
        cmocka_unit_test(test_live_changes),
        cmocka_unit_test(test_concurrent_queries_during_reloads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
