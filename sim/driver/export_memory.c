/*
 * Exports: memory (framebuffer, BAR1, confidential-compute split) and utilisation rates.
 */

#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "model/sim_value.h"

#define DEV(member) offsetof(struct sim_device, member)

/* Encoder and decoder report the window they average over; NVIDIA's is about 167 ms. */
#define SIM_CODEC_SAMPLING_US 167000U

struct memory_values {
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long used; /* excluding reserved */
    unsigned long long free;
};

/* Evaluates the memory of a GPU or MIG device.  Used and reserved never exceed the total. */
static nvmlReturn_t memory_values(const struct sim_query *q, struct memory_values *out) {
    const struct sim_memory *m = q->mig != NULL ? &q->mig->memory : &q->device->memory;
    if (m->error != NVML_SUCCESS) {
        return m->error;
    }
    unsigned long long total = 0;
    unsigned long long used = 0;
    unsigned long long reserved = 0;
    nvmlReturn_t ret = sim_value_mib_bytes(&m->total_mib, q->t_s, &total);
    if (ret != NVML_SUCCESS) {
        return ret;
    }
    /* Absent used / reserved memory reads as zero: the total alone is a valid machine. */
    sim_value_mib_bytes(&m->used_mib, q->t_s, &used);
    sim_value_mib_bytes(&m->reserved_mib, q->t_s, &reserved);
    reserved = reserved < total ? reserved : total;
    used = used < total - reserved ? used : total - reserved;
    *out = (struct memory_values){
        .total = total, .reserved = reserved, .used = used, .free = total - reserved - used};
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_device(&q, SIM_CALL_nvmlDeviceGetMemoryInfo, device, memory != NULL);
    struct memory_values v;
    if (ret == NVML_SUCCESS) {
        ret = memory_values(&q, &v);
    }
    if (ret == NVML_SUCCESS) {
        /* Version 1 counts reserved memory as used. */
        memory->total = v.total;
        memory->used = v.used + v.reserved;
        memory->free = v.free;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_device(&q, SIM_CALL_nvmlDeviceGetMemoryInfo_v2, device, memory != NULL);
    if (ret == NVML_SUCCESS && memory->version != nvmlMemory_v2) {
        ret = NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    }
    struct memory_values v;
    if (ret == NVML_SUCCESS) {
        ret = memory_values(&q, &v);
    }
    if (ret == NVML_SUCCESS) {
        memory->total = v.total;
        memory->reserved = v.reserved;
        memory->used = v.used;
        memory->free = v.free;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetBAR1MemoryInfo(nvmlDevice_t device, nvmlBAR1Memory_t *bar1Memory) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_device(&q, SIM_CALL_nvmlDeviceGetBAR1MemoryInfo, device, bar1Memory != NULL);
    const struct sim_bar1 *b = NULL;
    if (ret == NVML_SUCCESS) {
        b = q.mig != NULL ? &q.mig->bar1 : &q.device->bar1;
        ret = b->error;
    }
    unsigned long long total = 0;
    unsigned long long used = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_mib_bytes(&b->total_mib, q.t_s, &total);
    }
    if (ret == NVML_SUCCESS) {
        sim_value_mib_bytes(&b->used_mib, q.t_s, &used);
        used = used < total ? used : total;
        bar1Memory->bar1Total = total;
        bar1Memory->bar1Used = used;
        bar1Memory->bar1Free = total - used;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetUtilizationRates, device, utilization != NULL);
    unsigned int gpu = 0;
    unsigned int mem = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->util_gpu, q.t_s, &gpu);
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->util_memory, q.t_s, &mem);
    }
    if (ret == NVML_SUCCESS) {
        utilization->gpu = gpu;
        utilization->memory = mem;
    }
    return sim_end(&q, ret);
}

static nvmlReturn_t codec(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                          unsigned int *utilization, unsigned int *period_us) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, utilization != NULL && period_us != NULL);
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint((const struct sim_num *)((const char *)q.device + offset), q.t_s,
                             utilization);
    }
    if (ret == NVML_SUCCESS) {
        *period_us = SIM_CODEC_SAMPLING_US;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t device, unsigned int *utilization,
                                             unsigned int *samplingPeriodUs) {
    return codec(SIM_CALL_nvmlDeviceGetEncoderUtilization, device, DEV(util_encoder), utilization,
                 samplingPeriodUs);
}

nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t device, unsigned int *utilization,
                                             unsigned int *samplingPeriodUs) {
    return codec(SIM_CALL_nvmlDeviceGetDecoderUtilization, device, DEV(util_decoder), utilization,
                 samplingPeriodUs);
}

nvmlReturn_t nvmlDeviceGetConfComputeMemSizeInfo(nvmlDevice_t device,
                                                 nvmlConfComputeMemSizeInfo_t *memInfo) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetConfComputeMemSizeInfo, device, memInfo != NULL);
    if (q.model != NULL && q.model->generation < SIM_GEN_R535) {
        ret = NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    unsigned long long protected_bytes = 0;
    unsigned long long unprotected_bytes = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_mib_bytes(&q.device->cc_protected_mib, q.t_s, &protected_bytes);
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_mib_bytes(&q.device->cc_unprotected_mib, q.t_s, &unprotected_bytes);
    }
    if (ret == NVML_SUCCESS) {
        memInfo->protectedMemSizeKib = protected_bytes / 1024;
        memInfo->unprotectedMemSizeKib = unprotected_bytes / 1024;
    }
    return sim_end(&q, ret);
}
