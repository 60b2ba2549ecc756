/*
 * NVML return codes: NVIDIA's exact description strings (nvmlErrorString) and the names that
 * scenario files use to inject them.
 */
#define NVML_ABI_PROTOTYPES
#include "model/sim_errors.h"

#include <stddef.h>
#include <string.h>

#include "model/sim_calls.h"

struct sim_error_info {
    nvmlReturn_t code;
    const char *name;
    const char *text;
};

static const struct sim_error_info sim_errors[] = {
    {NVML_SUCCESS, "SUCCESS", "Success"},
    {NVML_ERROR_UNINITIALIZED, "UNINITIALIZED", "Uninitialized"},
    {NVML_ERROR_INVALID_ARGUMENT, "INVALID_ARGUMENT", "Invalid Argument"},
    {NVML_ERROR_NOT_SUPPORTED, "NOT_SUPPORTED", "Not Supported"},
    {NVML_ERROR_NO_PERMISSION, "NO_PERMISSION", "Insufficient Permissions"},
    {NVML_ERROR_ALREADY_INITIALIZED, "ALREADY_INITIALIZED", "Already Initialized"},
    {NVML_ERROR_NOT_FOUND, "NOT_FOUND", "Not Found"},
    {NVML_ERROR_INSUFFICIENT_SIZE, "INSUFFICIENT_SIZE", "Insufficient Size"},
    {NVML_ERROR_INSUFFICIENT_POWER, "INSUFFICIENT_POWER", "Insufficient External Power"},
    {NVML_ERROR_DRIVER_NOT_LOADED, "DRIVER_NOT_LOADED", "Driver Not Loaded"},
    {NVML_ERROR_TIMEOUT, "TIMEOUT", "Timeout"},
    {NVML_ERROR_IRQ_ISSUE, "IRQ_ISSUE", "Interrupt request issue"},
    {NVML_ERROR_LIBRARY_NOT_FOUND, "LIBRARY_NOT_FOUND", "NVML Shared Library Not Found"},
    {NVML_ERROR_FUNCTION_NOT_FOUND, "FUNCTION_NOT_FOUND", "Function Not Found"},
    {NVML_ERROR_CORRUPTED_INFOROM, "CORRUPTED_INFOROM", "Corrupted infoROM"},
    {NVML_ERROR_GPU_IS_LOST, "GPU_IS_LOST", "GPU is lost"},
    {NVML_ERROR_RESET_REQUIRED, "RESET_REQUIRED", "GPU requires restart"},
    {NVML_ERROR_OPERATING_SYSTEM, "OPERATING_SYSTEM",
     "The operating system has blocked the request."},
    {NVML_ERROR_LIB_RM_VERSION_MISMATCH, "LIB_RM_VERSION_MISMATCH",
     "RM has detected an NVML/RM version mismatch."},
    {NVML_ERROR_IN_USE, "IN_USE", "In use by another client"},
    {NVML_ERROR_MEMORY, "MEMORY", "Insufficient Memory"},
    {NVML_ERROR_NO_DATA, "NO_DATA", "No data"},
    {NVML_ERROR_VGPU_ECC_NOT_SUPPORTED, "VGPU_ECC_NOT_SUPPORTED",
     "The requested vgpu operation is not available on target device, because ECC is enabled"},
    {NVML_ERROR_INSUFFICIENT_RESOURCES, "INSUFFICIENT_RESOURCES",
     "Ran out of critical resources, other than memory"},
    {NVML_ERROR_FREQ_NOT_SUPPORTED, "FREQ_NOT_SUPPORTED", "Frequency not supported"},
    {NVML_ERROR_ARGUMENT_VERSION_MISMATCH, "ARGUMENT_VERSION_MISMATCH",
     "Argument version mismatch"},
    {NVML_ERROR_UNKNOWN, "UNKNOWN", "Unknown Error"},
};

#define SIM_ERROR_COUNT (sizeof(sim_errors) / sizeof(sim_errors[0]))

bool sim_error_from_name(const char *name, nvmlReturn_t *error) {
    /* SUCCESS is not an error a scenario can inject. */
    for (size_t i = 1; i < SIM_ERROR_COUNT; i++) {
        if (strcmp(sim_errors[i].name, name) == 0) {
            *error = sim_errors[i].code;
            return true;
        }
    }
    return false;
}

/* Like NVIDIA's, this needs no initialisation and is safe from any thread; the strings are
 * static. */
const char *nvmlErrorString(nvmlReturn_t result) {
    sim_calls_count(SIM_CALL_nvmlErrorString);
    for (size_t i = 0; i < SIM_ERROR_COUNT; i++) {
        if (sim_errors[i].code == result) {
            return sim_errors[i].text;
        }
    }
    return "Unknown Error";
}
