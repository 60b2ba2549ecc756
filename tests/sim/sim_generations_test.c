/*
 * Driver generations: which process-list entry points exist and which element layout `_v3`
 * fills, in the main library (FUNCTION_NOT_FOUND for what a generation lacks) and in the variants
 * that really lack the symbols.  The test binary takes the variant to load as its argument.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "sim_support.h"

static struct sim_api api;
static const char *variant; /* NULL: the main library by its real name */

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, variant);
    setenv("NVML_SIM_TIME", "0", 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_api_unload(&api);
    return 0;
}

/* Writes and loads a one-GPU scenario of `generation` with two compute processes. */
static nvmlDevice_t init_generation(const char *generation) {
    char path[512];
    char text[1024];
    snprintf(path, sizeof(path), "%s/%s.json", sim_temp_dir(), generation);
    snprintf(text, sizeof(text),
             "{\"driver\": {\"version\": \"535.104.05\", \"cuda_version\": 12020,\n"
             "  \"generation\": \"%s\"},\n"
             " \"devices\": [{\"name\": \"NVIDIA A100-SXM4-80GB\", \"uuid\": \"GPU-1\",\n"
             "   \"pci\": {\"bus_id\": \"00000000:07:00.0\"},\n"
             "   \"conf_compute\": {\"protected_mib\": 0, \"unprotected_mib\": 81920},\n"
             "   \"processes\": [{\"pid\": 1111, \"type\": \"compute\", \"used_mib\": 100},\n"
             "                   {\"pid\": 2222, \"type\": \"compute\", \"used_mib\": 200}]}]}\n",
             generation);
    sim_write_file(path, text);
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    return dev;
}

/* Calls `_v3` (when the library has it) and returns the bytes per element it filled, judged by
 * where the second pid landed. */
static size_t v3_stride(nvmlDevice_t dev, nvmlReturn_t *ret) {
    unsigned char buf[4 * sizeof(nvmlProcessInfo_v3_t)];
    memset(buf, 0, sizeof(buf));
    unsigned int count = 4;
    *ret = api.nvmlDeviceGetComputeRunningProcesses_v3(dev, &count, buf);
    if (*ret != NVML_SUCCESS) {
        return 0;
    }
    assert_int_equal(count, 2);
    unsigned int pid = 0;
    memcpy(&pid, buf + sizeof(nvmlProcessInfo_v2_t), sizeof(pid));
    if (pid == 2222) {
        return sizeof(nvmlProcessInfo_v2_t);
    }
    memcpy(&pid, buf + sizeof(nvmlProcessInfo_v3_t), sizeof(pid));
    assert_int_equal(pid, 2222);
    return sizeof(nvmlProcessInfo_v3_t);
}

static void test_main_library_generations(void **state) {
    (void)state;
    if (variant != NULL) {
        skip();
    }
    nvmlReturn_t ret = NVML_SUCCESS;
    nvmlConfComputeMemSizeInfo_t cc;
    nvmlProcessDetailList_v1_t list = {.version = nvmlProcessDetailList_v1};

    nvmlDevice_t dev = init_generation("pre-r535");
    assert_int_equal(v3_stride(dev, &ret), 0);
    assert_int_equal(ret, NVML_ERROR_FUNCTION_NOT_FOUND);
    assert_int_equal(api.nvmlDeviceGetConfComputeMemSizeInfo(dev, &cc),
                     NVML_ERROR_FUNCTION_NOT_FOUND);
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list),
                     NVML_ERROR_FUNCTION_NOT_FOUND);
    nvmlProcessInfo_v2_t v2[4];
    unsigned int count = 4;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses_v2(dev, &count, v2), NVML_SUCCESS);
    assert_int_equal(v2[1].pid, 2222);
    nvmlProcessInfo_v1_t v1[4];
    count = 4;
    assert_int_equal(api.nvmlDeviceGetComputeRunningProcesses(dev, &count, v1), NVML_SUCCESS);
    assert_int_equal(v1[1].pid, 2222);
    assert_int_equal(v1[1].usedGpuMemory, 200ULL << 20);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    dev = init_generation("r510");
    assert_int_equal(v3_stride(dev, &ret), sizeof(nvmlProcessInfo_v2_t));
    assert_int_equal(api.nvmlDeviceGetConfComputeMemSizeInfo(dev, &cc),
                     NVML_ERROR_FUNCTION_NOT_FOUND);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    dev = init_generation("r535");
    assert_int_equal(v3_stride(dev, &ret), sizeof(nvmlProcessInfo_v3_t));
    assert_int_equal(api.nvmlDeviceGetConfComputeMemSizeInfo(dev, &cc), NVML_SUCCESS);
    assert_int_equal(cc.unprotectedMemSizeKib, 81920ULL * 1024);
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list),
                     NVML_ERROR_FUNCTION_NOT_FOUND);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    dev = init_generation("r550");
    assert_int_equal(v3_stride(dev, &ret), sizeof(nvmlProcessInfo_v2_t));
    assert_int_equal(api.nvmlDeviceGetConfComputeMemSizeInfo(dev, &cc), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetRunningProcessDetailList(dev, &list),
                     NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

/* nvitop's rule (docs/nvitop-behaviour.md §9.1), applied to the symbols the library exports. */
static size_t probed_stride(void) {
    if (api.nvmlDeviceGetComputeRunningProcesses_v3 == NULL) {
        return api.nvmlDeviceGetComputeRunningProcesses_v2 != NULL ? sizeof(nvmlProcessInfo_v2_t)
                                                                   : sizeof(nvmlProcessInfo_v1_t);
    }
    bool r535 = api.nvmlDeviceGetConfComputeMemSizeInfo != NULL &&
                api.nvmlDeviceGetRunningProcessDetailList == NULL;
    return r535 ? sizeof(nvmlProcessInfo_v3_t) : sizeof(nvmlProcessInfo_v2_t);
}

static void test_variant_symbols_match_their_generation(void **state) {
    (void)state;
    if (variant == NULL) {
        assert_non_null(api.nvmlDeviceGetRunningProcessDetailList);
        assert_int_equal(probed_stride(), sizeof(nvmlProcessInfo_v2_t));
    } else if (strcmp(variant, "sim-driver-r535") == 0) {
        assert_null(api.nvmlDeviceGetRunningProcessDetailList);
        assert_null(api.nvmlDeviceGetTemperatureV); /* R555 */
        assert_int_equal(probed_stride(), sizeof(nvmlProcessInfo_v3_t));
        nvmlReturn_t ret = NVML_SUCCESS;
        nvmlDevice_t dev = init_generation("r535");
        assert_int_equal(v3_stride(dev, &ret), probed_stride());
        assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    } else if (strcmp(variant, "sim-driver-pre-r535") == 0) {
        /* It models R470: the R510 names are absent, a 535 driver's scenario is refused. */
        assert_null(api.nvmlDeviceGetMemoryInfo_v2);
        assert_null(api.nvmlDeviceGetTemperatureV);
        setenv("NVML_SIM_SCENARIO", sim_scenario_path("workstation-2gpu.json"), 1);
        assert_int_equal(api.nvmlInit_v2(), NVML_ERROR_LIB_RM_VERSION_MISMATCH);
        setenv("NVML_SIM_SCENARIO", sim_scenario_path("legacy-driver.json"), 1);
        assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
        assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
        assert_null(api.nvmlDeviceGetComputeRunningProcesses_v3);
        assert_null(api.nvmlDeviceGetGraphicsRunningProcesses_v3);
        assert_null(api.nvmlDeviceGetConfComputeMemSizeInfo);
        assert_non_null(api.nvmlDeviceGetComputeRunningProcesses_v2);
        assert_int_equal(probed_stride(), sizeof(nvmlProcessInfo_v2_t));
    } else {
        /* The legacy variant models R418 (sim/exports.txt): the enumeration entry points had
         * their _v2 long before, the process lists and memory did not. */
        assert_non_null(api.nvmlInit_v2);
        assert_non_null(api.nvmlDeviceGetCount_v2);
        assert_non_null(api.nvmlSystemGetCudaDriverVersion_v2);
        assert_non_null(api.nvmlDeviceGetHandleByIndex_v2);
        assert_non_null(api.nvmlDeviceGetPciInfo_v3);
        assert_null(api.nvmlDeviceGetComputeRunningProcesses_v2);
        assert_null(api.nvmlDeviceGetComputeRunningProcesses_v3);
        assert_null(api.nvmlDeviceGetMemoryInfo_v2);
        assert_null(api.nvmlDeviceGetNumFans);
        assert_null(api.nvmlDeviceGetTemperatureV);
        /* Old drivers already had the thresholds (nvtop requires the symbol). */
        assert_non_null(api.nvmlDeviceGetTemperatureThreshold);
        assert_null(api.nvmlDeviceGetRunningProcessDetailList);
        assert_non_null(api.nvmlInit);
        assert_non_null(api.nvmlDeviceGetPciInfo);
        assert_int_equal(probed_stride(), sizeof(nvmlProcessInfo_v1_t));
        /* It models R418: a scenario of another branch (legacy-driver.json is a 470 driver) is
         * refused as a real library refuses a kernel module of another version. */
        setenv("NVML_SIM_SCENARIO", sim_scenario_path("legacy-driver.json"), 1);
        assert_int_equal(api.nvmlInit(), NVML_ERROR_LIB_RM_VERSION_MISMATCH);
        setenv("NVML_SIM_SCENARIO", sim_scenario_path("r418-driver.json"), 1);
        assert_int_equal(api.nvmlInit(), NVML_SUCCESS);
        nvmlDevice_t dev = NULL;
        assert_int_equal(api.nvmlDeviceGetHandleByIndex(0, &dev), NVML_SUCCESS);
        nvmlPciInfo_v1_t pci;
        assert_int_equal(api.nvmlDeviceGetPciInfo(dev, &pci), NVML_SUCCESS);
        assert_string_equal(pci.busId, "0000:04:00.0");
        assert_int_equal(pci.pciDeviceId, 0x1DB410DE);
        assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    }
    /* Nothing but NVML entry points leaks out of any variant. */
    assert_null(dlsym(api.handle, "sim_value_at"));
    assert_null(dlsym(api.handle, "scenario_parse"));
}

int main(int argc, char **argv) {
    variant = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_main_library_generations),
        cmocka_unit_test(test_variant_symbols_match_their_generation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
