/*
 * A GPU reset at the driver ("resets" in a live rewrite of the scenario): the handle a client
 * holds from before the reset answers GPU_IS_LOST for good, while the lookups by index, UUID
 * and PCI bus id hand out a new, different handle that answers the GPU's new values.  The other
 * GPU keeps its handle throughout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nvt_cmocka.h"
#include "sim_support.h"
#include "test_clock.h"

static struct sim_api api;
static char path[512];

#define UUID_1   "GPU-5e7a1c2d-0b3f-4d6e-8a9b-1c2d3e4f5a02"
#define BUS_ID_1 "00000000:0F:00.0"

/* Two GPUs; GPU 1 is lost or not, after `resets` resets, with `used_mib` of memory in use. */
static void write_machine(bool lost, int resets, int used_mib) {
    char text[1024];
    snprintf(
        text, sizeof(text),
        "{\"driver\": {\"version\": \"550.127.05\", \"cuda_version\": 12040},\n"
        " \"devices\": [\n"
        "  {\"name\": \"NVIDIA A100\", \"uuid\": \"GPU-5e7a1c2d-0b3f-4d6e-8a9b-1c2d3e4f5a01\",\n"
        "   \"pci\": {\"bus_id\": \"00000000:07:00.0\"}, \"temperature\": 60},\n"
        "  {\"name\": \"NVIDIA A100\", \"uuid\": \"" UUID_1 "\",\n"
        "   \"pci\": {\"bus_id\": \"" BUS_ID_1 "\"}, \"lost\": %s, \"resets\": %d,\n"
        "   \"memory\": {\"total_mib\": 81920, \"used_mib\": %d}}]}\n",
        lost ? "true" : "false", resets, used_mib);
    sim_write_file(path, text);
}

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    setenv("NVML_SIM_TIME", "0", 1);
    snprintf(path, sizeof(path), "%s/reset.json", sim_temp_dir());
    write_machine(false, 0, 1000);
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    sim_api_unload(&api);
    return 0;
}

/* Looks GPU 1 up by index until the lookup answers `want` or a generous deadline passes (the
 * driver sees a rewrite within 0.25 s; a loaded machine may take longer). */
static nvmlReturn_t wait_for_lookup(nvmlReturn_t want, nvmlDevice_t *out) {
    double deadline = test_now_s() + 10.0;
    nvmlReturn_t ret;
    do {
        ret = api.nvmlDeviceGetHandleByIndex_v2(1, out);
        if (ret == want) {
            return ret;
        }
        struct timespec pause = {.tv_nsec = 10000000};
        nanosleep(&pause, NULL);
    } while (test_now_s() < deadline);
    return ret;
}

static unsigned long long used_mib(nvmlDevice_t dev, nvmlReturn_t *ret) {
    nvmlMemory_t memory = {0, 0, 0};
    *ret = api.nvmlDeviceGetMemoryInfo(dev, &memory);
    return memory.used / (1024ULL * 1024ULL);
}

/* Every way to find GPU 1 gives `want`. */
static void assert_lookups_give(nvmlDevice_t want) {
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &dev), NVML_SUCCESS);
    assert_ptr_equal(dev, want);
    assert_int_equal(api.nvmlDeviceGetHandleByUUID(UUID_1, &dev), NVML_SUCCESS);
    assert_ptr_equal(dev, want);
    assert_int_equal(api.nvmlDeviceGetHandleByPciBusId_v2(BUS_ID_1, &dev), NVML_SUCCESS);
    assert_ptr_equal(dev, want);
}

static void test_reset_gives_new_handle(void **state) {
    (void)state;
    nvmlDevice_t other = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &other), NVML_SUCCESS);
    nvmlDevice_t old = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &old), NVML_SUCCESS);
    assert_lookups_give(old);
    nvmlReturn_t ret;
    assert_int_equal(used_mib(old, &ret), 1000);
    assert_int_equal(ret, NVML_SUCCESS);

    /* Off the bus: the old handle and every lookup answer GPU_IS_LOST. */
    write_machine(true, 0, 1000);
    nvmlDevice_t dev = NULL;
    assert_int_equal(wait_for_lookup(NVML_ERROR_GPU_IS_LOST, &dev), NVML_ERROR_GPU_IS_LOST);
    used_mib(old, &ret);
    assert_int_equal(ret, NVML_ERROR_GPU_IS_LOST);
    assert_int_equal(api.nvmlDeviceGetHandleByUUID(UUID_1, &dev), NVML_ERROR_GPU_IS_LOST);

    /* Reset: back with a new handle and new values; the old handle stays lost. */
    write_machine(false, 1, 2000);
    nvmlDevice_t fresh = NULL;
    assert_int_equal(wait_for_lookup(NVML_SUCCESS, &fresh), NVML_SUCCESS);
    assert_ptr_not_equal(fresh, old);
    assert_lookups_give(fresh);
    assert_int_equal(used_mib(fresh, &ret), 2000);
    assert_int_equal(ret, NVML_SUCCESS);
    used_mib(old, &ret);
    assert_int_equal(ret, NVML_ERROR_GPU_IS_LOST);
    char name[96];
    assert_int_equal(api.nvmlDeviceGetName(old, name, sizeof(name)), NVML_ERROR_GPU_IS_LOST);
    unsigned int index = 0;
    assert_int_equal(api.nvmlDeviceGetIndex(fresh, &index), NVML_SUCCESS);
    assert_int_equal(index, 1);

    /* The other GPU kept its handle. */
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_ptr_equal(dev, other);
    unsigned int temp = 0;
    assert_int_equal(api.nvmlDeviceGetTemperature(other, NVML_TEMPERATURE_GPU, &temp),
                     NVML_SUCCESS);
    assert_int_equal(temp, 60);
}

/* A reset without a lost phase in between (the rewrite goes straight to the next generation), and
 * a second reset: each generation's handle is distinct and only the newest answers. */
static void test_second_reset(void **state) {
    (void)state;
    nvmlDevice_t first = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &first), NVML_SUCCESS);
    write_machine(false, 1, 3000);
    nvmlDevice_t second = NULL;
    double deadline = test_now_s() + 10.0;
    do {
        assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &second), NVML_SUCCESS);
    } while (second == first && test_now_s() < deadline);
    assert_ptr_not_equal(second, first);
    write_machine(false, 2, 4000);
    nvmlDevice_t third = NULL;
    deadline = test_now_s() + 10.0;
    do {
        assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &third), NVML_SUCCESS);
    } while (third == second && test_now_s() < deadline);
    assert_ptr_not_equal(third, second);
    assert_ptr_not_equal(third, first);
    nvmlReturn_t ret;
    assert_int_equal(used_mib(third, &ret), 4000);
    assert_int_equal(ret, NVML_SUCCESS);
    used_mib(second, &ret);
    assert_int_equal(ret, NVML_ERROR_GPU_IS_LOST);
    used_mib(first, &ret);
    assert_int_equal(ret, NVML_ERROR_GPU_IS_LOST);
}

/* The bundled scenario's GPU 1 was reset once: a client starting now gets a working handle. */
static void test_bundled_scenario(void **state) {
    (void)state;
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    setenv("NVML_SIM_SCENARIO", sim_scenario_path("gpu-reset.json"), 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(1, &dev), NVML_SUCCESS);
    unsigned int temp = 0;
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temp), NVML_SUCCESS);
    assert_int_equal(temp, 31);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_gives_new_handle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_second_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bundled_scenario, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
