/*
 * NVLink throughput: per-link TX and RX rates from the driver's cumulative counters, as deltas
 * since this context's previous reading (docs/nvitop-behaviour.md §9.5), with one
 * nvmlDeviceGetFieldValues call per device and never a blocking wait.
 */
#include <string.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/sys/clock.h"

unsigned long long nvml_field_u64(const nvmlFieldValue_t *field) {
    switch (field->valueType) {
    case NVML_VALUE_TYPE_UNSIGNED_INT:
        return field->value.uiVal;
    case NVML_VALUE_TYPE_UNSIGNED_LONG:
        return field->value.ulVal;
    case NVML_VALUE_TYPE_SIGNED_LONG_LONG:
        return field->value.sllVal < 0 ? 0 : (unsigned long long)field->value.sllVal;
    default:
        return field->value.ullVal;
    }
}

static void forget_nvlink(struct nvml_device *device) {
    memset(device->nvlink_tx_known, 0, sizeof(device->nvlink_tx_known));
    memset(device->nvlink_rx_known, 0, sizeof(device->nvlink_rx_known));
}

/* One counter: the rate since its baseline, when it has one, and the new baseline.  A field the
 * driver failed to read is no baseline (its value is not a counter). */
static void nvlink_counter(const nvmlFieldValue_t *field, double elapsed_s,
                           unsigned long long *previous, bool *known, double *rate) {
    if (field->nvmlReturn != NVML_SUCCESS) {
        *known = false;
        return;
    }
    unsigned long long kib = nvml_field_u64(field);
    if (*known && elapsed_s > 0 && kib >= *previous) {
        *rate = (double)(kib - *previous) / elapsed_s;
    }
    *previous = kib;
    *known = true;
}

nvmlReturn_t nvml_read_nvlink(struct nvml_backend *backend, struct nvml_device *device,
                              nvmlDevice_t handle, uint32_t links, struct nvt_device_state *out) {
    if (links == 0 || links == NVT_NA_U32) {
        return NVML_SUCCESS;
    }
    if (links > NVML_NVLINK_MAX_LINKS) {
        links = NVML_NVLINK_MAX_LINKS;
    }
    nvmlFieldValue_t fields[2 * NVML_NVLINK_MAX_LINKS];
    memset(fields, 0, sizeof(fields));
    for (size_t i = 0; i < links; i++) {
        fields[2 * i].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
        fields[2 * i].scopeId = (unsigned int)i;
        fields[2 * i + 1].fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
        fields[2 * i + 1].scopeId = (unsigned int)i;
    }
    nvmlReturn_t result =
        NVML_QUERY(backend, nvmlDeviceGetFieldValues, handle, (int)(2 * links), fields);
    if (result != NVML_SUCCESS) {
        forget_nvlink(device);
        return result;
    }
    /* Prefer the driver's own timestamp of the counters (as nvitop does), from a field it read;
     * the monotonic clock stands in for drivers that leave it zero. */
    long long driver_us = 0;
    for (size_t i = 0; i < 2 * links && driver_us == 0; i++) {
        if (fields[i].nvmlReturn == NVML_SUCCESS && fields[i].timestamp > 0) {
            driver_us = fields[i].timestamp;
        }
    }
    bool driver_time = driver_us > 0;
    long long now = driver_time ? driver_us : (long long)(clock_monotonic_s() * 1e6);
    if (driver_time != device->nvlink_driver_time) {
        forget_nvlink(device); /* the two times are on different clocks */
    }
    double elapsed_s = (double)(now - device->nvlink_time_us) / 1e6;
    for (size_t i = 0; i < links; i++) {
        nvlink_counter(&fields[2 * i], elapsed_s, &device->nvlink_tx_kib[i],
                       &device->nvlink_tx_known[i], &out->nvlink_tx_kibps[i]);
        nvlink_counter(&fields[2 * i + 1], elapsed_s, &device->nvlink_rx_kib[i],
                       &device->nvlink_rx_known[i], &out->nvlink_rx_kibps[i]);
    }
    device->nvlink_time_us = now;
    device->nvlink_driver_time = driver_time;
    return NVML_SUCCESS;
}
