/*
 * Every bundled scenario loads through the real dlopen path, and the values of the
 * docs/nvitop-behaviour.md §2.11 workstation come back exactly as the scenario gives them.
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

static unsigned int init_with(const char *scenario) {
    setenv("NVML_SIM_SCENARIO", sim_scenario_path(scenario), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    unsigned int count = 99;
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_SUCCESS);
    return count;
}

static void test_every_bundled_scenario_loads(void **state) {
    static const struct {
        const char *file;
        unsigned int devices;
    } bundled[] = {
        {"workstation-2gpu.json", 2}, {"h100-8gpu.json", 8},      {"a100-mig.json", 2},
        {"faulty.json", 4},           {"unified-memory.json", 1}, {"empty.json", 0},
        {"legacy-driver.json", 2},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bundled) / sizeof(bundled[0]); i++) {
        assert_int_equal(init_with(bundled[i].file), bundled[i].devices);
        assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    }
}

static void test_workstation_values(void **state) {
    (void)state;
    assert_int_equal(init_with("workstation-2gpu.json"), 2);
    char text[96];
    assert_int_equal(api.nvmlSystemGetDriverVersion(text, sizeof(text)), NVML_SUCCESS);
    assert_string_equal(text, "525.85.12");
    assert_int_equal(api.nvmlSystemGetNVMLVersion(text, sizeof(text)), NVML_SUCCESS);
    assert_string_equal(text, "12.525.85.12");
    int cuda = 0;
    assert_int_equal(api.nvmlSystemGetCudaDriverVersion_v2(&cuda), NVML_SUCCESS);
    assert_int_equal(cuda, 12000);

    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetName(dev, text, sizeof(text)), NVML_SUCCESS);
    assert_string_equal(text, "NVIDIA GeForce RTX 3090");
    nvmlMemory_v2_t mem = {.version = nvmlMemory_v2};
    assert_int_equal(api.nvmlDeviceGetMemoryInfo_v2(dev, &mem), NVML_SUCCESS);
    assert_int_equal(mem.total, 24576ULL << 20);
    assert_int_equal(mem.used, 20110ULL << 20);
    unsigned int v = 0;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &v), NVML_SUCCESS);
    assert_int_equal(v, 72);
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &v), NVML_SUCCESS);
    assert_int_equal(v, 71);
    assert_int_equal(api.nvmlDeviceGetPowerUsage(dev, &v), NVML_SUCCESS);
    assert_int_equal(v, 312000);
    assert_int_equal(api.nvmlDeviceGetPowerManagementLimit(dev, &v), NVML_SUCCESS);
    assert_int_equal(v, 350000);
    nvmlPstates_t ps = NVML_PSTATE_UNKNOWN;
    assert_int_equal(api.nvmlDeviceGetPerformanceState(dev, &ps), NVML_SUCCESS);
    assert_int_equal(ps, 2);
    nvmlUtilization_t util = {0};
    assert_int_equal(api.nvmlDeviceGetUtilizationRates(dev, &util), NVML_SUCCESS);
    assert_int_equal(util.gpu, 87);
    nvmlPciInfo_t pci;
    assert_int_equal(api.nvmlDeviceGetPciInfo_v3(dev, &pci), NVML_SUCCESS);
    assert_string_equal(pci.busId, "00000000:1A:00.0");
    assert_string_equal(pci.busIdLegacy, "0000:1A:00.0");
    assert_int_equal(pci.pciDeviceId, 0x220410DE);
    assert_int_equal(api.nvmlDeviceGetSerial(dev, text, sizeof(text)), NVML_ERROR_NOT_SUPPORTED);
    unsigned long long ecc = 0;
    assert_int_equal(api.nvmlDeviceGetTotalEccErrors(dev, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                                                     NVML_VOLATILE_ECC, &ecc),
                     NVML_ERROR_NOT_SUPPORTED);
    int major = 0;
    int minor = 0;
    assert_int_equal(api.nvmlDeviceGetCudaComputeCapability(dev, &major, &minor), NVML_SUCCESS);
    assert_int_equal(major * 10 + minor, 86);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_processes_merge_compute_and_graphics(void **state) {
    (void)state;
    setenv("NVT_STANDIN_3", "4242", 1);
    init_with("workstation-2gpu.json");
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &dev), NVML_SUCCESS);
    nvmlProcessInfo_v2_t procs[4];
    unsigned int count = 4;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, procs), NVML_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_equal(procs[0].pid, 4242); /* the placeholder took the environment's pid */
    assert_int_equal(procs[0].usedGpuMemory, 3400ULL << 20);
    assert_int_equal(procs[0].gpuInstanceId, 0xFFFFFFFFU);
    count = 4;
    assert_int_equal(api.nvmlDeviceGetGraphicsRunningProcesses_v3(dev, &count, procs),
                     NVML_SUCCESS);
    assert_int_equal(count, 1);
    assert_int_equal(procs[0].pid, 4242);
    unsetenv("NVT_STANDIN_3");
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static void test_time_functions_and_frozen_clock(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof(path), "%s/lively.json", sim_temp_dir());
    sim_write_file(path, "{\"driver\": {\"version\": \"550.54.15\", \"cuda_version\": 12040},\n"
                         " \"clock\": {\"frozen_at\": 15},\n"
                         " \"devices\": [{\"name\": \"G\", \"uuid\": \"GPU-1\",\n"
                         "   \"pci\": {\"bus_id\": \"0000:01:00.0\"},\n"
                         "   \"fan\": {\"base\": 50, \"amplitude\": 20, \"period\": 60},\n"
                         "   \"temperature\": {\"schedule\": [[0, 30], [10, 50], [20, 90]]}}]}\n");
    unsetenv("NVML_SIM_TIME");
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    unsigned int v = 0;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &v), NVML_SUCCESS);
    assert_int_equal(v, 70); /* 50 + 20 sin(2 pi 15 / 60) */
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &v), NVML_SUCCESS);
    assert_int_equal(v, 70); /* halfway from 50 to 90 */
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    /* NVML_SIM_TIME wins over the scenario's clock. */
    setenv("NVML_SIM_TIME", "5", 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &v), NVML_SUCCESS);
    assert_int_equal(v, 40);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    setenv("NVML_SIM_TIME", "0", 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bundled_scenario_loads),
        cmocka_unit_test(test_workstation_values),
        cmocka_unit_test(test_processes_merge_compute_and_graphics),
        cmocka_unit_test(test_time_functions_and_frozen_clock),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
