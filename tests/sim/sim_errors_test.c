/*
 * The driver's error behaviour: initialisation rules, handle checks, buffer protocols, injected
 * errors, lost GPUs, MIG handles, version words and NVIDIA's error strings.
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

static void test_uninitialized_and_refcount(void **state) {
    (void)state;
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_ERROR_UNINITIALIZED);
    assert_int_equal(api.nvmlShutdown(), NVML_ERROR_UNINITIALIZED);
    setenv("NVML_SIM_SCENARIO", sim_scenario_path("workstation-2gpu.json"), 1);
    assert_int_equal(api.nvmlInit(), NVML_SUCCESS);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_int_equal(api.nvmlInitWithFlags(0), NVML_SUCCESS);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_SUCCESS);
    assert_int_equal(count, 2);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    assert_int_equal(api.nvmlShutdown(), NVML_ERROR_UNINITIALIZED);
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_ERROR_UNINITIALIZED);
}

static void test_init_errors(void **state) {
    (void)state;
    char err[512];
    unsetenv("NVML_SIM_SCENARIO");
    assert_int_equal(sim_init_capturing(&api, err, sizeof(err)), NVML_ERROR_DRIVER_NOT_LOADED);
    assert_non_null(strstr(err, "NVML_SIM_SCENARIO"));
    char path[512];
    snprintf(path, sizeof(path), "%s/init-error.json", sim_temp_dir());
    sim_write_file(path, "{\"driver\": {\"version\": \"535.54.03\", \"cuda_version\": 12020,\n"
                         "  \"init_error\": \"LIB_RM_VERSION_MISMATCH\"}, \"devices\": []}\n");
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_ERROR_LIB_RM_VERSION_MISMATCH);
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_ERROR_UNINITIALIZED);
    snprintf(path, sizeof(path), "%s/missing.json", sim_temp_dir());
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(sim_init_capturing(&api, err, sizeof(err)), NVML_ERROR_UNKNOWN);
    char expected[600];
    snprintf(expected, sizeof(expected), "%s: No such file or directory\n", path);
    assert_string_equal(err, expected);
}

static void test_invalid_handles_and_arguments(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("workstation-2gpu.json", 0);
    unsigned int v = 0;
    nvmlDevice_t other = NULL;
    int garbage = 0;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(NULL, &v), NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetFanSpeed((nvmlDevice_t)(void *)&garbage, &v),
                     NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, NULL), NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(2, &other), NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, NULL), NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetClockInfo(dev, NVML_CLOCK_COUNT, &v),
                     NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetHandleByUUID("GPU-nope", &other), NVML_ERROR_NOT_FOUND);
    assert_int_equal(
        api.nvmlDeviceGetHandleByUUID("GPU-a2c47f09-61d3-4b8e-b5f0-7e9d4c1a8b63", &other),
        NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetIndex(other, &v), NVML_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(api.nvmlDeviceGetHandleByPciBusId_v2("0000:1b:00.0", &other), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetIndex(other, &v), NVML_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    /* Handles outlive a shutdown but answer UNINITIALIZED. */
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &v), NVML_ERROR_UNINITIALIZED);
}

static void test_insufficient_size(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("workstation-2gpu.json", 0);
    char small[8];
    assert_int_equal(api.nvmlDeviceGetName(dev, small, sizeof(small)),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    char exact[24];
    assert_int_equal(api.nvmlDeviceGetName(dev, exact, 24), NVML_SUCCESS); /* 23 chars + NUL */
    assert_int_equal(api.nvmlDeviceGetName(dev, exact, 23), NVML_ERROR_INSUFFICIENT_SIZE);
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, NULL),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(count, 1);
    nvmlProcessInfo_v2_t procs[2];
    count = 2;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, procs), NVML_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_equal(api.nvmlDeviceGetMPSComputeRunningProcesses_v2(dev, &count, NULL),
                     NVML_SUCCESS); /* an empty list */
    assert_int_equal(count, 0);
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, NULL, procs),
                     NVML_ERROR_INVALID_ARGUMENT);
    nvmlProcessUtilizationSample_t samples[4];
    count = 0;
    assert_int_equal(api.nvmlDeviceGetProcessUtilization(dev, NULL, &count, 0),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(count, 2);
    assert_int_equal(api.nvmlDeviceGetProcessUtilization(dev, samples, &count, 0), NVML_SUCCESS);
    assert_int_equal(samples[1].smUtil, 85);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_injected_errors_and_lost_gpu(void **state) {
    (void)state;
    setenv("NVML_SIM_SCENARIO", sim_scenario_path("faulty.json"), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(
        api.nvmlDeviceGetHandleByUUID("GPU-0d7e3b9a-2c51-4f68-9a04-8e6b1d5c3f27", &dev),
        NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlDeviceGetHandleByPciBusId_v2("00000000:3B:00.0", &dev),
                     NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &dev), NVML_SUCCESS);
    unsigned int v = 0;
    char text[64];
    nvmlUtilization_t util;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &v), NVML_ERROR_NOT_SUPPORTED);
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &v),
                     NVML_ERROR_UNKNOWN);
    assert_int_equal(api.nvmlDeviceGetUtilizationRates(dev, &util), NVML_ERROR_UNKNOWN);
    assert_int_equal(api.nvmlDeviceGetVbiosVersion(dev, text, sizeof(text)),
                     NVML_ERROR_CORRUPTED_INFOROM);
    nvmlBAR1Memory_t bar1;
    assert_int_equal(api.nvmlDeviceGetBAR1MemoryInfo(dev, &bar1), NVML_ERROR_NO_PERMISSION);
    nvmlProcessInfo_v2_t procs[4];
    unsigned int count = 4;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, procs), NVML_SUCCESS);
    assert_int_equal(procs[0].usedGpuMemory, NVML_VALUE_NOT_AVAILABLE_ULL);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(2, &dev), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &v), NVML_SUCCESS);
    assert_int_equal(v, 100);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(3, &dev), NVML_SUCCESS);
    count = 4;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, procs),
                     NVML_ERROR_NO_PERMISSION);
    unsigned long long ecc = 0;
    assert_int_equal(api.nvmlDeviceGetTotalEccErrors(dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                                     NVML_VOLATILE_ECC, &ecc),
                     NVML_SUCCESS);
    assert_int_equal(ecc, 3);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_unified_memory(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("unified-memory.json", 0);
    nvmlMemory_t mem;
    nvmlMemory_v2_t mem2 = {.version = nvmlMemory_v2};
    assert_int_equal(api.nvmlDeviceGetMemoryInfo(dev, &mem), NVML_ERROR_NOT_SUPPORTED);
    assert_int_equal(api.nvmlDeviceGetMemoryInfo_v2(dev, &mem2), NVML_ERROR_NOT_SUPPORTED);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_mig_handles(void **state) {
    (void)state;
    nvmlDevice_t gpu = init_device("a100-mig.json", 0);
    unsigned int current = 0;
    unsigned int pending = 0;
    unsigned int v = 0;
    assert_int_equal(api.nvmlDeviceGetMigMode(gpu, &current, &pending), NVML_SUCCESS);
    assert_int_equal(current, NVML_DEVICE_MIG_ENABLE);
    assert_int_equal(api.nvmlDeviceGetMaxMigDeviceCount(gpu, &v), NVML_SUCCESS);
    assert_int_equal(v, 7);
    nvmlDevice_t mig = NULL;
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(gpu, 1, &mig), NVML_SUCCESS);
    assert_ptr_not_equal(mig, gpu);
    assert_int_equal(api.nvmlDeviceIsMigDeviceHandle(mig, &v), NVML_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(api.nvmlDeviceIsMigDeviceHandle(gpu, &v), NVML_SUCCESS);
    assert_int_equal(v, 0);
    nvmlDevice_t parent = NULL;
    assert_int_equal(api.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(mig, &parent), NVML_SUCCESS);
    assert_ptr_equal(parent, gpu);
    assert_int_equal(api.nvmlDeviceGetDeviceHandleFromMigDeviceHandle(gpu, &parent),
                     NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlDeviceGetGpuInstanceId(mig, &v), NVML_SUCCESS);
    assert_int_equal(v, 5);
    assert_int_equal(api.nvmlDeviceGetComputeInstanceId(mig, &v), NVML_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(api.nvmlDeviceGetGpuInstanceId(gpu, &v), NVML_ERROR_NOT_SUPPORTED);
    char uuid[96];
    assert_int_equal(api.nvmlDeviceGetUUID(mig, uuid, sizeof(uuid)), NVML_SUCCESS);
    assert_int_equal(strncmp(uuid, "MIG-", 4), 0);
    nvmlDevice_t by_uuid = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByUUID(uuid, &by_uuid), NVML_SUCCESS);
    assert_ptr_equal(by_uuid, mig);
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(gpu, 3, &mig), NVML_ERROR_NOT_FOUND);
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(gpu, 7, &mig),
                     NVML_ERROR_INVALID_ARGUMENT);
    /* A GPU lists the processes of its MIG devices, with their instance ids. */
    nvmlProcessInfo_v2_t procs[8];
    unsigned int count = 8;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(gpu, &count, procs), NVML_SUCCESS);
    assert_int_equal(count, 3);
    assert_int_equal(procs[1].gpuInstanceId, 5);
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(gpu, 1, &mig), NVML_SUCCESS);
    count = 8;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(mig, &count, procs), NVML_SUCCESS);
    assert_int_equal(count, 2);
    nvmlDevice_t plain = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &plain), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetMigDeviceHandleByIndex(plain, 0, &mig),
                     NVML_ERROR_NOT_SUPPORTED);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_version_words(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("h100-8gpu.json", 0);
    nvmlMemory_v2_t mem = {.version = 0};
    assert_int_equal(api.nvmlDeviceGetMemoryInfo_v2(dev, &mem),
                     NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
    nvmlTemperature_v1_t temp = {.version = nvmlTemperature_v1 + 1};
    assert_int_equal(api.nvmlDeviceGetTemperatureV(dev, &temp),
                     NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
    temp.version = nvmlTemperature_v1;
    temp.sensorType = NVML_TEMPERATURE_GPU;
    assert_int_equal(api.nvmlDeviceGetTemperatureV(dev, &temp), NVML_SUCCESS);
    assert_in_range(temp.temperature, 30, 100);
    nvmlProcessDetailList_v1_t list = {.version = 7};
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list),
                     NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
    list.version = nvmlProcessDetailList_v1;
    list.mode = NVML_PROCESS_MODE_COMPUTE;
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(list.numProcArrayEntries, 2);
    nvmlProcessDetail_v1_t details[2];
    list.procArray = details;
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list), NVML_SUCCESS);
    assert_int_equal(details[1].usedGpuMemory, 1432ULL << 20);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_nvlink_field_values(void **state) {
    (void)state;
    nvmlDevice_t dev = init_device("h100-8gpu.json", 0);
    nvmlFieldValue_t values[3] = {
        {.fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT},
        {.fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, .scopeId = 17},
        {.fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, .scopeId = 18},
    };
    assert_int_equal(api.nvmlDeviceGetFieldValues(dev, 3, values), NVML_SUCCESS);
    assert_int_equal(values[0].nvmlReturn, NVML_SUCCESS);
    assert_int_equal(values[0].value.uiVal, 18);
    assert_int_equal(values[1].nvmlReturn, NVML_SUCCESS);
    assert_int_equal(values[2].nvmlReturn, NVML_ERROR_INVALID_ARGUMENT);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_error_strings(void **state) {
    (void)state;
    assert_string_equal(api.nvmlErrorString(NVML_SUCCESS), "Success");
    assert_string_equal(api.nvmlErrorString(NVML_ERROR_NO_PERMISSION), "Insufficient Permissions");
    assert_string_equal(api.nvmlErrorString(NVML_ERROR_GPU_IS_LOST), "GPU is lost");
    assert_string_equal(api.nvmlErrorString(NVML_ERROR_LIB_RM_VERSION_MISMATCH),
                        "RM has detected an NVML/RM version mismatch.");
    assert_string_equal(api.nvmlErrorString(NVML_ERROR_ARGUMENT_VERSION_MISMATCH),
                        "Argument version mismatch");
    assert_string_equal(api.nvmlErrorString(NVML_ERROR_UNKNOWN), "Unknown Error");
    assert_string_equal(api.nvmlErrorString((nvmlReturn_t)12345), "Unknown Error");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uninitialized_and_refcount),
        cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_invalid_handles_and_arguments),
        cmocka_unit_test(test_insufficient_size),
        cmocka_unit_test(test_injected_errors_and_lost_gpu),
        cmocka_unit_test(test_unified_memory),
        cmocka_unit_test(test_mig_handles),
        cmocka_unit_test(test_version_words),
        cmocka_unit_test(test_nvlink_field_values),
        cmocka_unit_test(test_error_strings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
