/*
 * nvmlDeviceGetTemperatureThreshold through the real dlopen path: values from the bundled
 * scenarios, thresholds a scenario leaves out, argument checks, the uninitialised driver, lost
 * GPUs, MIG handles, injected errors and call counting.  nvtop needs this entry point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "sim_support.h"

static struct sim_api api;

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    setenv("NVML_SIM_TIME", "0", 1);
    unsetenv("NVML_SIM_CALLS_FILE");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_api_unload(&api);
    return 0;
}

static nvmlDevice_t init_device(const char *scenario, unsigned int index) {
    setenv("NVML_SIM_SCENARIO", sim_scenario_path(scenario), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(index, &dev), NVML_SUCCESS);
    return dev;
}

static void expect_threshold(nvmlDevice_t dev, nvmlTemperatureThresholds_t type,
                             unsigned int expected) {
    unsigned int v = 0;
    assert_int_equal(api.nvmlDeviceGetTemperatureThreshold(dev, type, &v), NVML_SUCCESS);
    assert_int_equal(v, expected);
}

static void test_values_from_scenarios(void **state) {
    (void)state;
    assert_non_null(api.nvmlDeviceGetTemperatureThreshold);
    nvmlDevice_t dev = init_device("h100-8gpu.json", 7);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, 92);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, 89);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_GPU_MAX, 87);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_MEM_MAX, 95);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    dev = init_device("workstation-2gpu.json", 1);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, 98);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, 95);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_GPU_MAX, 93);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_missing_thresholds_are_not_supported(void **state) {
    (void)state;
    unsigned int v = 1234;
    /* A GeForce board without memory sensors: no mem_max, no acoustic or GPS thresholds. */
    nvmlDevice_t dev = init_device("workstation-2gpu.json", 0);
    static const nvmlTemperatureThresholds_t absent[] = {
        NVML_TEMPERATURE_THRESHOLD_MEM_MAX,       NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MIN,
        NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_CURR, NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MAX,
        NVML_TEMPERATURE_THRESHOLD_GPS_CURR,
    };
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
        assert_int_equal(api.nvmlDeviceGetTemperatureThreshold(dev, absent[i], &v),
                         NVML_ERROR_NOT_SUPPORTED);
    }
    assert_int_equal(v, 1234); /* left alone on failure */
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    /* A device that gives no "temperature_thresholds" at all. */
    dev = init_device("unified-memory.json", 0);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_NOT_SUPPORTED);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_invalid_arguments(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("h100-8gpu.json", 0);
    unsigned int v = 0;
    int garbage = 0;
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, NULL),
        NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, NVML_TEMPERATURE_THRESHOLD_COUNT, &v),
        NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, (nvmlTemperatureThresholds_t)0xFFFFFFFFU, &v),
        NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(NULL, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetTemperatureThreshold((nvmlDevice_t)(void *)&garbage,
                                                           NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
                     NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_uninitialized(void **state) {
    (void)state;
    unsigned int v = 0;
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(NULL, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_UNINITIALIZED);
    nvmlDevice_t dev = init_device("h100-8gpu.json", 0);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    /* A handle from an earlier init answers UNINITIALIZED once the driver is shut down. */
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_UNINITIALIZED);
}

static void test_lost_gpu_mig_and_injected_errors(void **state) {
    (void)state;
    unsigned int v = 0;
    /* Handles are slots of a fixed table, so slot 0 taken from one machine is faulty.json's
     * lost V100 once that scenario is loaded. */
    nvmlDevice_t first = init_device("workstation-2gpu.json", 0);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    nvmlDevice_t t4 = init_device("faulty.json", 1);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(first, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_GPU_IS_LOST);
    expect_threshold(t4, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, 96);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(t4, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &v),
        NVML_ERROR_UNKNOWN);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    /* MIG device handles do not answer sensor queries; their parent does. */
    nvmlDevice_t gpu = init_device("a100-mig.json", 0);
    nvmlDevice_t mig = NULL;
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(gpu, 0, &mig), NVML_SUCCESS);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(mig, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, &v),
        NVML_ERROR_NOT_SUPPORTED);
    expect_threshold(gpu, NVML_TEMPERATURE_THRESHOLD_GPU_MAX, 85);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

/* The count of `name` in the calls file, 0 when the entry point has no line. */
static unsigned long read_count(const char *path, const char *name) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char entry[128];
    unsigned long count = 0;
    unsigned long found = 0;
    while (fscanf(f, "%127s %lu", entry, &count) == 2) {
        if (strcmp(entry, name) == 0) {
            found = count;
        }
    }
    fclose(f);
    return found;
}

static void test_calls_are_counted(void **state) {
    (void)state;
    char calls[512];
    snprintf(calls, sizeof(calls), "%s/calls.txt", sim_temp_dir());
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    /* Counts are per process and never reset: compare two dumps. */
    nvmlDevice_t dev = init_device("h100-8gpu.json", 0);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    unsigned long before = read_count(calls, "nvmlDeviceGetTemperatureThreshold");
    dev = init_device("h100-8gpu.json", 0);
    unsigned int v = 0;
    /* nvtop's start: shutdown and slowdown per GPU.  A failing call counts as well. */
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, 92);
    expect_threshold(dev, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, 89);
    assert_int_equal(
        api.nvmlDeviceGetTemperatureThreshold(dev, NVML_TEMPERATURE_THRESHOLD_COUNT, &v),
        NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    unsetenv("NVML_SIM_CALLS_FILE");
    assert_int_equal(read_count(calls, "nvmlDeviceGetTemperatureThreshold") - before, 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_from_scenarios),
        cmocka_unit_test(test_missing_thresholds_are_not_supported),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_uninitialized),
        cmocka_unit_test(test_lost_gpu_mig_and_injected_errors),
        cmocka_unit_test(test_calls_are_counted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
