/*
 * Fault realism (sim/scenarios/fault-realism.json) at the driver: a process list that grows
 * between the size and the fill call, per-field errors, an entry point exported but answering
 * FUNCTION_NOT_FOUND or ARGUMENT_VERSION_MISMATCH on one GPU only, a stall on one GPU that
 * the others do not share, and a GPU lost in the middle of a snapshot.
 */
#include <stdlib.h>

#include "nvt_cmocka.h"
#include "sim_support.h"

static struct sim_api api;

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    setenv("NVML_SIM_TIME", "0", 1);
    setenv("NVML_SIM_SCENARIO", sim_scenario_path("fault-realism.json"), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    sim_api_unload(&api);
    return 0;
}

static nvmlDevice_t device(unsigned int index) {
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(index, &dev), NVML_SUCCESS);
    return dev;
}

/* The size call sees 2 processes, the fill call for 2 finds 4 and asks again. */
static void test_process_race(void **state) {
    (void)state;
    nvmlDevice_t dev = device(0);
    nvmlProcessInfo_v2_t infos[8];
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, NULL),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(count, 2);
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, infos),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(count, 4);
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, infos), NVML_SUCCESS);
    assert_int_equal(count, 4);
    assert_int_equal(infos[3].pid, 4216004);
    /* A client that asks with room to spare sees all four at once. */
    count = 8;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, infos), NVML_SUCCESS);
    assert_int_equal(count, 4);
}

/* The call succeeds; the failing fields carry their own error, the others their values. */
static void test_field_errors(void **state) {
    (void)state;
    nvmlFieldValue_t values[3] = {{.fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT},
                                  {.fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX},
                                  {.fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX}};
    assert_int_equal(api.nvmlDeviceGetFieldValues(device(2), 3, values), NVML_SUCCESS);
    assert_int_equal(values[0].nvmlReturn, NVML_SUCCESS);
    assert_int_equal(values[0].value.uiVal, 12);
    assert_int_equal(values[1].nvmlReturn, NVML_ERROR_NO_PERMISSION);
    assert_int_equal(values[2].nvmlReturn, NVML_ERROR_UNKNOWN);
    /* Another GPU's fields are untouched by GPU 2's faults. */
    nvmlFieldValue_t other = {.fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT};
    assert_int_equal(api.nvmlDeviceGetFieldValues(device(0), 1, &other), NVML_SUCCESS);
    assert_int_equal(other.nvmlReturn, NVML_ERROR_NOT_SUPPORTED);
}

/* Exported everywhere, unsupported on one board: the v1 query still answers there. */
static void test_per_board_errors(void **state) {
    (void)state;
    nvmlMemory_v2_t m2 = {.version = nvmlMemory_v2};
    assert_int_equal(api.nvmlDeviceGetMemoryInfo_v2(device(2), &m2), NVML_ERROR_FUNCTION_NOT_FOUND);
    assert_int_equal(api.nvmlDeviceGetMemoryInfo_v2(device(0), &m2), NVML_SUCCESS);
    nvmlMemory_t m1;
    assert_int_equal(api.nvmlDeviceGetMemoryInfo(device(2), &m1), NVML_SUCCESS);
    assert_int_equal(m1.used, (20000ULL + 600ULL) * 1048576ULL);
    nvmlTemperature_v1_t t = {.version = nvmlTemperature_v1, .sensorType = NVML_TEMPERATURE_GPU};
    assert_int_equal(api.nvmlDeviceGetTemperatureV(device(2), &t),
                     NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
    assert_int_equal(api.nvmlDeviceGetTemperatureV(device(1), &t), NVML_SUCCESS);
    assert_int_equal(t.temperature, 35);
}

/* The stalled query on GPU 1 answers its value when it returns; GPU 0 answers its own. */
static void test_stall_one_gpu(void **state) {
    (void)state;
    nvmlUtilization_t u = {0, 0};
    assert_int_equal(api.nvmlDeviceGetUtilizationRates(device(1), &u), NVML_SUCCESS);
    assert_int_equal(u.gpu, 3);
    assert_int_equal(api.nvmlDeviceGetUtilizationRates(device(0), &u), NVML_SUCCESS);
    assert_int_equal(u.gpu, 90);
}

/* GPU 3 answers 8 queries, then is lost for good, handle lookups (by index, UUID and bus id)
 * included; the others go on. */
static void test_lost_mid_snapshot(void **state) {
    (void)state;
    nvmlDevice_t dev = device(3);
    unsigned int temp = 0;
    for (int i = 0; i < 8; i++) {
        assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temp),
                         NVML_SUCCESS);
        assert_int_equal(temp, 55);
    }
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temp),
                     NVML_ERROR_GPU_IS_LOST);
    char name[96];
    assert_int_equal(api.nvmlDeviceGetName(dev, name, sizeof(name)), NVML_ERROR_GPU_IS_LOST);
    nvmlDevice_t again = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(3, &again), NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(
        api.nvmlDeviceGetHandleByUUID("GPU-7c1d0b7e-52a4-4a43-9b1e-6e2f1c0a5d04", &again),
        NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlDeviceGetHandleByPciBusId_v2("00000000:4E:00.0", &again),
                     NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlDeviceGetTemperature(device(2), NVML_TEMPERATURE_GPU, &temp),
                     NVML_SUCCESS);
    assert_int_equal(temp, 50);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_process_race, setup, teardown),
        cmocka_unit_test_setup_teardown(test_field_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_per_board_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stall_one_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_mid_snapshot, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
