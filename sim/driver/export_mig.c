/*
 * Exports: MIG mode and MIG device handles.  A MIG handle is distinct from its parent's; the
 * two are related only through these calls.
 */
#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "driver/sim_handle.h"
#include "model/sim_value.h"

nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int *isMigDevice) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_device(&q, SIM_CALL_nvmlDeviceIsMigDeviceHandle, device, isMigDevice != NULL);
    if (ret == NVML_SUCCESS) {
        *isMigDevice = q.mig != NULL ? 1U : 0U;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode,
                                  unsigned int *pendingMode) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetMigMode, device,
                                     currentMode != NULL && pendingMode != NULL);
    unsigned int current = 0;
    unsigned int pending = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->mig_mode, q.t_s, &current);
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->mig_pending, q.t_s, &pending);
    }
    if (ret == NVML_SUCCESS) {
        *currentMode = current;
        *pendingMode = pending;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMaxMigDeviceCount, device,
                           offsetof(struct sim_device, mig_max_count), count);
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                 nvmlDevice_t *migDevice) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetMigDeviceHandleByIndex, device, migDevice != NULL);
    unsigned int mode = 0;
    unsigned int max_count = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->mig_mode, q.t_s, &mode);
    }
    if (ret == NVML_SUCCESS && mode == 0) {
        ret = NVML_ERROR_NOT_SUPPORTED;
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->mig_max_count, q.t_s, &max_count);
    }
    if (ret == NVML_SUCCESS && index >= max_count) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS && !q.device->mig[index].present) {
        ret = NVML_ERROR_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS) {
        *migDevice = sim_handle_of(q.index, index + 1);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice,
                                                          nvmlDevice_t *device) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, SIM_CALL_nvmlDeviceGetDeviceHandleFromMigDeviceHandle,
                                        migDevice, device != NULL);
    if (ret == NVML_SUCCESS && q.mig == NULL) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        *device = sim_handle_of(q.index, 0);
    }
    return sim_end(&q, ret);
}

static nvmlReturn_t instance_id(enum sim_call_id id, nvmlDevice_t device, bool compute,
                                unsigned int *out) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, id, device, out != NULL);
    /* Physical GPUs have no instance ids. */
    if (ret == NVML_SUCCESS && q.mig == NULL) {
        ret = NVML_ERROR_NOT_SUPPORTED;
    }
    if (ret == NVML_SUCCESS) {
        *out = compute ? q.mig->compute_instance_id : q.mig->gpu_instance_id;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id) {
    return instance_id(SIM_CALL_nvmlDeviceGetGpuInstanceId, device, false, id);
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id) {
    return instance_id(SIM_CALL_nvmlDeviceGetComputeInstanceId, device, true, id);
}
