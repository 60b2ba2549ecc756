/*
 * Exports: initialisation, system queries and device enumeration.  Argument checks and return
 * codes only; the work is in sim_state.c.
 */
#include <string.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_handle.h"
#include "driver/sim_state.h"
#include "model/sim_value.h"

nvmlReturn_t nvmlInit(void) {
    return sim_init(SIM_CALL_nvmlInit);
}

nvmlReturn_t nvmlInit_v2(void) {
    return sim_init(SIM_CALL_nvmlInit_v2);
}

nvmlReturn_t nvmlInitWithFlags(unsigned int flags) {
    /* NO_GPUS and NO_ATTACH change nothing for a driver without hardware. */
    (void)flags;
    return sim_init(SIM_CALL_nvmlInitWithFlags);
}

nvmlReturn_t nvmlShutdown(void) {
    return sim_shutdown();
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlSystemGetDriverVersion);
    if (ret == NVML_SUCCESS) {
        ret = sim_copy_text(&q.model->driver_version, version, length);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlSystemGetNVMLVersion);
    if (ret == NVML_SUCCESS) {
        ret = sim_copy_text(&q.model->nvml_version, version, length);
    }
    return sim_end(&q, ret);
}

static nvmlReturn_t cuda_version(enum sim_call_id id, int *out) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, id);
    if (ret == NVML_SUCCESS && out == NULL) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    unsigned int v = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.model->cuda_version, q.t_s, &v);
    }
    if (ret == NVML_SUCCESS) {
        *out = (int)v;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion) {
    return cuda_version(SIM_CALL_nvmlSystemGetCudaDriverVersion, cudaDriverVersion);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion) {
    return cuda_version(SIM_CALL_nvmlSystemGetCudaDriverVersion_v2, cudaDriverVersion);
}

static nvmlReturn_t device_count(enum sim_call_id id, unsigned int *count) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, id);
    if (ret == NVML_SUCCESS && count == NULL) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        *count = (unsigned int)q.model->device_count;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount) {
    return device_count(SIM_CALL_nvmlDeviceGetCount, deviceCount);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) {
    return device_count(SIM_CALL_nvmlDeviceGetCount_v2, deviceCount);
}

static nvmlReturn_t handle_by_index(enum sim_call_id id, unsigned int index, nvmlDevice_t *device) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, id);
    if (ret == NVML_SUCCESS && (device == NULL || index >= q.model->device_count)) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS && sim_device_gone(&q, index)) {
        ret = NVML_ERROR_GPU_IS_LOST;
    }
    if (ret == NVML_SUCCESS) {
        *device = sim_handle_of(index, 0);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device) {
    return handle_by_index(SIM_CALL_nvmlDeviceGetHandleByIndex, index, device);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    return handle_by_index(SIM_CALL_nvmlDeviceGetHandleByIndex_v2, index, device);
}

/* Finds a GPU or MIG device by UUID; returns the handle or NULL. */
static nvmlDevice_t find_uuid(const struct sim_query *q, const char *uuid, bool *lost) {
    const struct sim_model *model = q->model;
    for (size_t i = 0; i < model->device_count; i++) {
        const struct sim_device *dev = &model->devices[i];
        *lost = sim_device_gone(q, (unsigned int)i);
        if (dev->uuid.value != NULL && strcmp(dev->uuid.value, uuid) == 0) {
            return sim_handle_of((unsigned int)i, 0);
        }
        for (unsigned int k = 0; k < SIM_MAX_MIG_SLOTS; k++) {
            const struct sim_mig *mig = &dev->mig[k];
            if (mig->present && strcmp(mig->uuid.value, uuid) == 0) {
                return sim_handle_of((unsigned int)i, k + 1);
            }
        }
    }
    return NULL;
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlDeviceGetHandleByUUID);
    if (ret == NVML_SUCCESS && (uuid == NULL || device == NULL)) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        bool lost = false;
        nvmlDevice_t found = find_uuid(&q, uuid, &lost);
        if (found == NULL) {
            ret = NVML_ERROR_NOT_FOUND;
        } else if (lost) {
            ret = NVML_ERROR_GPU_IS_LOST;
        } else {
            *device = found;
        }
    }
    return sim_end(&q, ret);
}

/* Bus ids match case-insensitively, with the domain in its short (4-digit) or full form. */
static bool same_bus_id(const char *full, const char *given) {
    size_t skip = strlen(given) + 4 == strlen(full) ? 4 : 0;
    if (skip > 0 && strncmp(full, "0000", 4) != 0) {
        return false;
    }
    return strcasecmp(full + skip, given) == 0;
}

static nvmlReturn_t handle_by_bus_id(enum sim_call_id id, const char *bus_id,
                                     nvmlDevice_t *device) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, id);
    if (ret == NVML_SUCCESS && (bus_id == NULL || device == NULL)) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret != NVML_SUCCESS) {
        return sim_end(&q, ret);
    }
    ret = NVML_ERROR_NOT_FOUND;
    for (size_t i = 0; i < q.model->device_count; i++) {
        if (same_bus_id(q.model->devices[i].pci.bus_id, bus_id)) {
            ret = sim_device_gone(&q, (unsigned int)i) ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
            break;
        }
    }
    if (ret == NVML_SUCCESS) {
        for (size_t i = 0; i < q.model->device_count; i++) {
            if (same_bus_id(q.model->devices[i].pci.bus_id, bus_id)) {
                *device = sim_handle_of((unsigned int)i, 0);
                break;
            }
        }
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId, nvmlDevice_t *device) {
    return handle_by_bus_id(SIM_CALL_nvmlDeviceGetHandleByPciBusId, pciBusId, device);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device) {
    return handle_by_bus_id(SIM_CALL_nvmlDeviceGetHandleByPciBusId_v2, pciBusId, device);
}
