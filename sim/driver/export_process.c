/*
 * Exports: running-process lists in every version, the detail list, and per-process
 * utilisation.  Which entry points exist and which layout `_v3` fills depend on the scenario's
 * driver generation (sim_model.h); a missing entry point answers FUNCTION_NOT_FOUND, the closest
 * a single shared object can come to lacking the symbol.
 */
#define NVML_ABI_PROTOTYPES
#include "driver/sim_procs.h"

static nvmlReturn_t list(enum sim_call_id id, nvmlDevice_t device, unsigned int types, int version,
                         unsigned int *count, void *infos) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, id, device, count != NULL);
    if (q.model != NULL && version == 3 && q.model->generation == SIM_GEN_PRE_R535) {
        ret = NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS) {
        enum sim_layout layout = SIM_LAYOUT_V2;
        if (version == 1) {
            layout = SIM_LAYOUT_V1;
        } else if (version == 3 && q.model->generation == SIM_GEN_R535) {
            layout = SIM_LAYOUT_V3;
        }
        ret = sim_procs_list(&q, types, layout, count, infos);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device, unsigned int *infoCount,
                                                  nvmlProcessInfo_v1_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetComputeRunningProcesses, device, SIM_PROCESS_COMPUTE, 1,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int *infoCount,
                                                     nvmlProcessInfo_v2_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetComputeRunningProcesses_v2, device, SIM_PROCESS_COMPUTE, 2,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
                                                     void *infos) {
    return list(SIM_CALL_nvmlDeviceGetComputeRunningProcesses_v3, device, SIM_PROCESS_COMPUTE, 3,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device, unsigned int *infoCount,
                                                   nvmlProcessInfo_v1_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetGraphicsRunningProcesses, device, SIM_PROCESS_GRAPHICS, 1,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t device, unsigned int *infoCount,
                                                      nvmlProcessInfo_v2_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetGraphicsRunningProcesses_v2, device, SIM_PROCESS_GRAPHICS, 2,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
                                                      void *infos) {
    return list(SIM_CALL_nvmlDeviceGetGraphicsRunningProcesses_v3, device, SIM_PROCESS_GRAPHICS, 3,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses(nvmlDevice_t device, unsigned int *infoCount,
                                                     nvmlProcessInfo_v1_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetMPSComputeRunningProcesses, device, SIM_PROCESS_MPS, 1,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v2(nvmlDevice_t device,
                                                        unsigned int *infoCount,
                                                        nvmlProcessInfo_v2_t *infos) {
    return list(SIM_CALL_nvmlDeviceGetMPSComputeRunningProcesses_v2, device, SIM_PROCESS_MPS, 2,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t device,
                                                        unsigned int *infoCount, void *infos) {
    return list(SIM_CALL_nvmlDeviceGetMPSComputeRunningProcesses_v3, device, SIM_PROCESS_MPS, 3,
                infoCount, infos);
}

nvmlReturn_t nvmlDeviceGetRunningProcessDetailList(nvmlDevice_t device,
                                                   nvmlProcessDetailList_v1_t *plist) {
    static const unsigned int modes[] = {SIM_PROCESS_COMPUTE, SIM_PROCESS_GRAPHICS,
                                         SIM_PROCESS_MPS};
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_device(&q, SIM_CALL_nvmlDeviceGetRunningProcessDetailList, device, plist != NULL);
    if (q.model != NULL && q.model->generation != SIM_GEN_R550) {
        ret = NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS && plist->version != nvmlProcessDetailList_v1) {
        ret = NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    }
    if (ret == NVML_SUCCESS && plist->mode > NVML_PROCESS_MODE_MPS) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_procs_list(&q, modes[plist->mode], SIM_LAYOUT_DETAIL, &plist->numProcArrayEntries,
                             plist->procArray);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
                                             nvmlProcessUtilizationSample_t *utilization,
                                             unsigned int *processSamplesCount,
                                             unsigned long long lastSeenTimeStamp) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, SIM_CALL_nvmlDeviceGetProcessUtilization, device,
                                        processSamplesCount != NULL);
    if (ret == NVML_SUCCESS) {
        ret = sim_procs_utilization(&q, utilization, processSamplesCount, lastSeenTimeStamp);
    }
    return sim_end(&q, ret);
}
