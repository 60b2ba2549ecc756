/*
 * Exports: clocks, fan, temperature, power, performance state, modes, ECC counters and the
 * CUDA compute capability.
 */
#include <math.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "model/sim_value.h"

#define DEV(member) offsetof(struct sim_device, member)

static nvmlReturn_t clock_info(enum sim_call_id id, nvmlDevice_t device, nvmlClockType_t type,
                               bool max, unsigned int *clock) {
    struct sim_query q;
    bool valid = (unsigned int)type < SIM_CLOCK_COUNT;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, clock != NULL && valid);
    if (ret == NVML_SUCCESS) {
        const struct sim_num *num = max ? &q.device->clock_max[type] : &q.device->clock[type];
        ret = sim_value_uint(num, q.t_s, clock);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                    unsigned int *clock) {
    return clock_info(SIM_CALL_nvmlDeviceGetClockInfo, device, type, false, clock);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type,
                                       unsigned int *clock) {
    return clock_info(SIM_CALL_nvmlDeviceGetMaxClockInfo, device, type, true, clock);
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned int *speed) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetFanSpeed, device, DEV(fan), speed);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType,
                                      unsigned int *temp) {
    bool valid = sensorType == NVML_TEMPERATURE_GPU;
    return sim_export_uint(SIM_CALL_nvmlDeviceGetTemperature, device, DEV(temperature),
                           valid ? temp : NULL);
}

nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t device, nvmlTemperature_v1_t *temperature) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetTemperatureV, device, temperature != NULL);
    if (ret == NVML_SUCCESS && temperature->version != nvmlTemperature_v1) {
        ret = NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    }
    if (ret == NVML_SUCCESS && temperature->sensorType != NVML_TEMPERATURE_GPU) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    unsigned int v = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->temperature, q.t_s, &v);
    }
    if (ret == NVML_SUCCESS) {
        temperature->temperature = (int)v;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t device,
                                               nvmlTemperatureThresholds_t thresholdType,
                                               unsigned int *temp) {
    struct sim_query q;
    bool valid = (unsigned int)thresholdType < NVML_TEMPERATURE_THRESHOLD_COUNT;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetTemperatureThreshold, device,
                                     temp != NULL && valid);
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->temperature_threshold[thresholdType], q.t_s, temp);
    }
    return sim_end(&q, ret);
}

/* Scenarios give watts; NVML reports milliwatts. */
static nvmlReturn_t milliwatts(const struct sim_num *num, double t_s, unsigned int *out) {
    if (num->error != NVML_SUCCESS) {
        return num->error;
    }
    *out = (unsigned int)llround(sim_value_at(num, t_s) * 1000.0);
    return NVML_SUCCESS;
}

static nvmlReturn_t power(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                          unsigned int *out) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, out != NULL);
    if (ret == NVML_SUCCESS) {
        ret = milliwatts((const struct sim_num *)((const char *)q.device + offset), q.t_s, out);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power_mw) {
    return power(SIM_CALL_nvmlDeviceGetPowerUsage, device, DEV(power_usage_w), power_mw);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t device, unsigned int *limit) {
    return power(SIM_CALL_nvmlDeviceGetPowerManagementLimit, device, DEV(power_limit_w), limit);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit) {
    return power(SIM_CALL_nvmlDeviceGetEnforcedPowerLimit, device, DEV(power_limit_w), limit);
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimitConstraints(nvmlDevice_t device,
                                                          unsigned int *minLimit,
                                                          unsigned int *maxLimit) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetPowerManagementLimitConstraints,
                                     device, minLimit != NULL && maxLimit != NULL);
    unsigned int lo = 0;
    unsigned int hi = 0;
    if (ret == NVML_SUCCESS) {
        ret = milliwatts(&q.device->power_min_w, q.t_s, &lo);
    }
    if (ret == NVML_SUCCESS) {
        ret = milliwatts(&q.device->power_max_w, q.t_s, &hi);
    }
    if (ret == NVML_SUCCESS) {
        *minLimit = lo;
        *maxLimit = hi;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetPowerManagementMode(nvmlDevice_t device, nvmlEnableState_t *mode) {
    return sim_export_flag(SIM_CALL_nvmlDeviceGetPowerManagementMode, device, DEV(power_management),
                           mode);
}

nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t device, nvmlEnableState_t *isActive) {
    return sim_export_flag(SIM_CALL_nvmlDeviceGetDisplayActive, device, DEV(display_active),
                           isActive);
}

nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t device, nvmlEnableState_t *display) {
    return sim_export_flag(SIM_CALL_nvmlDeviceGetDisplayMode, device, DEV(display_mode), display);
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, nvmlEnableState_t *mode) {
    return sim_export_flag(SIM_CALL_nvmlDeviceGetPersistenceMode, device, DEV(persistence_mode),
                           mode);
}

static nvmlReturn_t pstate(enum sim_call_id id, nvmlDevice_t device, nvmlPstates_t *out) {
    unsigned int v = 0;
    nvmlReturn_t ret = sim_export_uint(id, device, DEV(pstate), out != NULL ? &v : NULL);
    if (ret == NVML_SUCCESS) {
        *out = (nvmlPstates_t)v;
    }
    return ret;
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t device, nvmlPstates_t *pState) {
    return pstate(SIM_CALL_nvmlDeviceGetPerformanceState, device, pState);
}

nvmlReturn_t nvmlDeviceGetPowerState(nvmlDevice_t device, nvmlPstates_t *pState) {
    return pstate(SIM_CALL_nvmlDeviceGetPowerState, device, pState);
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, nvmlMemoryErrorType_t errorType,
                                         nvmlEccCounterType_t counterType,
                                         unsigned long long *eccCounts) {
    struct sim_query q;
    bool valid = (unsigned int)errorType < NVML_MEMORY_ERROR_TYPE_COUNT &&
                 (unsigned int)counterType < NVML_ECC_COUNTER_TYPE_COUNT;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetTotalEccErrors, device, valid && eccCounts != NULL);
    if (ret == NVML_SUCCESS) {
        bool volatile_counter = counterType == NVML_VOLATILE_ECC;
        bool corrected = errorType == NVML_MEMORY_ERROR_TYPE_CORRECTED;
        const struct sim_device *d = q.device;
        const struct sim_num *num =
            volatile_counter
                ? (corrected ? &d->ecc_volatile_corrected : &d->ecc_volatile_uncorrected)
                : (corrected ? &d->ecc_aggregate_corrected : &d->ecc_aggregate_uncorrected);
        ret = num->error;
        if (ret == NVML_SUCCESS) {
            *eccCounts = (unsigned long long)llround(sim_value_at(num, q.t_s));
        }
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t device, nvmlComputeMode_t *mode) {
    unsigned int v = 0;
    nvmlReturn_t ret = sim_export_uint(SIM_CALL_nvmlDeviceGetComputeMode, device, DEV(compute_mode),
                                       mode != NULL ? &v : NULL);
    if (ret == NVML_SUCCESS) {
        *mode = (nvmlComputeMode_t)v;
    }
    return ret;
}

/* Driver models (WDDM/WDM) exist on Windows only; Linux drivers answer NOT_SUPPORTED.  (NVML has
 * no "current driver model" entry point: NVIDIA's Python bindings build theirs on this one.) */
nvmlReturn_t nvmlDeviceGetDriverModel(nvmlDevice_t device, nvmlDriverModel_t *current,
                                      nvmlDriverModel_t *pending) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetDriverModel, device,
                                     current != NULL && pending != NULL);
    return sim_end(&q, ret == NVML_SUCCESS ? NVML_ERROR_NOT_SUPPORTED : ret);
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, SIM_CALL_nvmlDeviceGetCudaComputeCapability, device,
                                        major != NULL && minor != NULL);
    unsigned int hi = 0;
    unsigned int lo = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->cuda_major, q.t_s, &hi);
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->cuda_minor, q.t_s, &lo);
    }
    if (ret == NVML_SUCCESS) {
        *major = (int)hi;
        *minor = (int)lo;
    }
    return sim_end(&q, ret);
}
