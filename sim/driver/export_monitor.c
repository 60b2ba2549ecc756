/*
 * Exports: fans by index, ECC mode, NVLink state and version, the default power limit, the
 * energy counter, throttle reasons, clocks by type and id, the GPU operation mode, auto boost
 * and pending page retirement.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "model/sim_value.h"

#define DEV(member) offsetof(struct sim_device, member)

/* A board with "fans" has that many; otherwise one, unless "fan" says it has none (passively
 * cooled data-centre boards).  Those have zero fans, not an unsupported count: a real H100 on
 * driver 580 answers 0, and INVALID_ARGUMENT for fan 0 (docs/hardware.md). */
static nvmlReturn_t fan_count(const struct sim_device *d, unsigned int *count) {
    if (d->fan_count > 0) {
        *count = (unsigned int)d->fan_count;
        return NVML_SUCCESS;
    }
    *count = d->fan.error == NVML_ERROR_NOT_SUPPORTED ? 0 : 1;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNumFans(nvmlDevice_t device, unsigned int *numFans) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetNumFans, device, numFans != NULL);
    unsigned int n = 0;
    if (ret == NVML_SUCCESS) {
        ret = fan_count(q.device, &n);
    }
    if (ret == NVML_SUCCESS) {
        *numFans = n;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetFanSpeed_v2(nvmlDevice_t device, unsigned int fan, unsigned int *speed) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetFanSpeed_v2, device, speed != NULL);
    unsigned int n = 0;
    if (ret == NVML_SUCCESS) {
        ret = fan_count(q.device, &n);
    }
    if (ret == NVML_SUCCESS && fan >= n) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        const struct sim_device *d = q.device;
        ret = sim_value_uint(d->fan_count > 0 ? &d->fans[fan] : &d->fan, q.t_s, speed);
    }
    return sim_end(&q, ret);
}

/* Two flags read together: both must have values. */
static nvmlReturn_t flag_pair(enum sim_call_id id, nvmlDevice_t device, size_t first, size_t second,
                              nvmlEnableState_t *a, nvmlEnableState_t *b) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, a != NULL && b != NULL);
    unsigned int va = 0;
    unsigned int vb = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint((const struct sim_num *)((const char *)q.device + first), q.t_s, &va);
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint((const struct sim_num *)((const char *)q.device + second), q.t_s, &vb);
    }
    if (ret == NVML_SUCCESS) {
        *a = va != 0 ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
        *b = vb != 0 ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t device, nvmlEnableState_t *current,
                                  nvmlEnableState_t *pending) {
    return flag_pair(SIM_CALL_nvmlDeviceGetEccMode, device, DEV(ecc_mode), DEV(ecc_mode_pending),
                     current, pending);
}

nvmlReturn_t nvmlDeviceGetAutoBoostedClocksEnabled(nvmlDevice_t device,
                                                   nvmlEnableState_t *isEnabled,
                                                   nvmlEnableState_t *defaultIsEnabled) {
    return flag_pair(SIM_CALL_nvmlDeviceGetAutoBoostedClocksEnabled, device, DEV(auto_boost),
                     DEV(auto_boost_default), isEnabled, defaultIsEnabled);
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device,
                                                    nvmlEnableState_t *isPending) {
    return sim_export_flag(SIM_CALL_nvmlDeviceGetRetiredPagesPendingStatus, device,
                           DEV(retired_pages_pending), isPending);
}

/* Links below the scenario's count are up; those past it do not exist on the board. */
static nvmlReturn_t nvlink(enum sim_call_id id, nvmlDevice_t device, unsigned int link,
                           bool args_ok, struct sim_query *q) {
    nvmlReturn_t ret = sim_begin_gpu(q, id, device, args_ok && link < NVML_NVLINK_MAX_LINKS);
    unsigned int links = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q->device->nvlink_links, q->t_s, &links);
    }
    if (ret == NVML_SUCCESS && link >= links) {
        ret = NVML_ERROR_NOT_SUPPORTED;
    }
    return ret;
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link,
                                      nvmlEnableState_t *isActive) {
    struct sim_query q;
    nvmlReturn_t ret =
        nvlink(SIM_CALL_nvmlDeviceGetNvLinkState, device, link, isActive != NULL, &q);
    if (ret == NVML_SUCCESS) {
        *isActive = NVML_FEATURE_ENABLED;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t device, unsigned int link,
                                        unsigned int *version) {
    struct sim_query q;
    nvmlReturn_t ret =
        nvlink(SIM_CALL_nvmlDeviceGetNvLinkVersion, device, link, version != NULL, &q);
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->nvlink_version, q.t_s, version);
    }
    return sim_end(&q, ret);
}

/* The device at the other end of a link: the scenario's bus id (NOT_SUPPORTED without one). */
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link,
                                                 nvmlPciInfo_t *pci) {
    struct sim_query q;
    nvmlReturn_t ret =
        nvlink(SIM_CALL_nvmlDeviceGetNvLinkRemotePciInfo_v2, device, link, pci != NULL, &q);
    if (ret == NVML_SUCCESS && link >= q.device->nvlink_remote_count) {
        ret = NVML_ERROR_NOT_SUPPORTED;
    }
    unsigned int domain = 0;
    unsigned int bus = 0;
    unsigned int dev = 0;
    unsigned int function = 0;
    if (ret == NVML_SUCCESS) {
        const char *id = q.device->nvlink_remote[link];
        memset(pci, 0, sizeof(*pci));
        snprintf(pci->busId, sizeof(pci->busId), "%s", id);
        /* Validated by the loader, so the parse cannot fail. */
        (void)sscanf(id, "%8x:%2x:%2x.%1x", &domain, &bus, &dev, &function);
        snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04X:%02X:%02X.%X", domain & 0xFFFFU,
                 bus, dev, function);
        pci->domain = domain;
        pci->bus = bus;
        pci->device = dev;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t device,
                                                      unsigned int *defaultLimit) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetPowerManagementDefaultLimit, device,
                                     defaultLimit != NULL);
    if (ret == NVML_SUCCESS) {
        ret = q.device->power_default_limit_w.error;
    }
    if (ret == NVML_SUCCESS) {
        double w = sim_value_at(&q.device->power_default_limit_w, q.t_s);
        *defaultLimit = (unsigned int)llround(w * 1000.0);
    }
    return sim_end(&q, ret);
}

/* Millijoules since the driver loaded: the scenario's starting count plus the integral of the
 * power draw (with a frozen clock, the frozen draw over real time, like the NVLink counters). */
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetTotalEnergyConsumption, device, energy != NULL);
    const struct sim_device *d = q.device;
    if (ret == NVML_SUCCESS) {
        ret = d->energy_j.error;
    }
    if (ret == NVML_SUCCESS) {
        ret = d->power_usage_w.error;
    }
    if (ret == NVML_SUCCESS) {
        double joules = q.frozen ? sim_value_at(&d->power_usage_w, q.t_s) * q.elapsed_s
                                 : sim_value_integral(&d->power_usage_w, q.t_s);
        joules += sim_value_at(&d->energy_j, 0.0);
        *energy = (unsigned long long)llround(joules * 1000.0);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                       unsigned long long *clocksThrottleReasons) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetCurrentClocksThrottleReasons, device,
                                     clocksThrottleReasons != NULL);
    if (ret == NVML_SUCCESS) {
        ret = q.device->throttle_reasons.error;
    }
    if (ret == NVML_SUCCESS) {
        *clocksThrottleReasons =
            (unsigned long long)llround(sim_value_at(&q.device->throttle_reasons, q.t_s));
    }
    return sim_end(&q, ret);
}

/* The clock table of each nvmlClockId_t. */
static const struct sim_num *clock_table(const struct sim_device *d, nvmlClockId_t id) {
    switch (id) {
    case NVML_CLOCK_ID_CURRENT:
        return d->clock;
    case NVML_CLOCK_ID_APP_CLOCK_TARGET:
        return d->clock_app;
    case NVML_CLOCK_ID_APP_CLOCK_DEFAULT:
        return d->clock_app_default;
    case NVML_CLOCK_ID_CUSTOMER_BOOST_MAX:
        return d->clock_boost;
    default:
        return NULL;
    }
}

static nvmlReturn_t clock_of(enum sim_call_id call, nvmlDevice_t device, nvmlClockType_t type,
                             nvmlClockId_t id, unsigned int *clock) {
    struct sim_query q;
    bool valid = (unsigned int)type < SIM_CLOCK_COUNT && (unsigned int)id < NVML_CLOCK_ID_COUNT;
    nvmlReturn_t ret = sim_begin_gpu(&q, call, device, valid && clock != NULL);
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&clock_table(q.device, id)[type], q.t_s, clock);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetClock(nvmlDevice_t device, nvmlClockType_t clockType,
                                nvmlClockId_t clockId, unsigned int *clockMHz) {
    return clock_of(SIM_CALL_nvmlDeviceGetClock, device, clockType, clockId, clockMHz);
}

nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t device, nvmlClockType_t clockType,
                                            unsigned int *clockMHz) {
    return clock_of(SIM_CALL_nvmlDeviceGetApplicationsClock, device, clockType,
                    NVML_CLOCK_ID_APP_CLOCK_TARGET, clockMHz);
}

nvmlReturn_t nvmlDeviceGetMaxCustomerBoostClock(nvmlDevice_t device, nvmlClockType_t clockType,
                                                unsigned int *clockMHz) {
    return clock_of(SIM_CALL_nvmlDeviceGetMaxCustomerBoostClock, device, clockType,
                    NVML_CLOCK_ID_CUSTOMER_BOOST_MAX, clockMHz);
}

nvmlReturn_t nvmlDeviceGetGpuOperationMode(nvmlDevice_t device, nvmlGpuOperationMode_t *current,
                                           nvmlGpuOperationMode_t *pending) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetGpuOperationMode, device,
                                     current != NULL && pending != NULL);
    unsigned int now = 0;
    unsigned int next = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->gom, q.t_s, &now);
    }
    if (ret == NVML_SUCCESS) {
        const struct sim_num *p = &q.device->gom_pending;
        ret =
            sim_value_uint(p->error == NVML_ERROR_NOT_SUPPORTED ? &q.device->gom : p, q.t_s, &next);
    }
    if (ret == NVML_SUCCESS) {
        *current = (nvmlGpuOperationMode_t)now;
        *pending = (nvmlGpuOperationMode_t)next;
    }
    return sim_end(&q, ret);
}
