/*
 * Export: nvmlDeviceGetFieldValues, for the NVLink link count and throughput counters and the
 * PCIe byte counters.
 *
 * NVLink throughput fields are cumulative KiB counters per link (scopeId = link); the PCIe ones
 * count bytes, and only drivers from R555 on have them (older ones answer NOT_SUPPORTED for the
 * field).  While the clock runs, a counter is the integral of the scenario's rate over simulated
 * time; with a frozen clock it advances at the frozen rate over real time, so that clients that
 * divide counter deltas by timestamp deltas still see the scenario's rate.
 */
#include <math.h>
#include <time.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_state.h"
#include "model/sim_value.h"

static long long realtime_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (long long)now.tv_sec * 1000000LL + now.tv_nsec / 1000LL;
}

static double counter_kib(const struct sim_query *q, const struct sim_num *rate) {
    if (q->frozen) {
        return sim_value_at(rate, q->t_s) * q->elapsed_s;
    }
    return sim_value_integral(rate, q->t_s);
}

/* The PCIe byte counters: the integral of the scenario's KiB/s rate, in bytes. */
static void pcie_field(const struct sim_query *q, nvmlFieldValue_t *v) {
    const struct sim_device *d = q->device;
    const struct sim_num *rate =
        v->fieldId == NVML_FI_DEV_PCIE_COUNT_TX_BYTES ? &d->pci.tx_kibps : &d->pci.rx_kibps;
    nvmlReturn_t ret = q->model->pcie_byte_counters ? rate->error : NVML_ERROR_NOT_SUPPORTED;
    v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
    v->value.ullVal =
        ret == NVML_SUCCESS ? (unsigned long long)llround(counter_kib(q, rate) * 1024.0) : 0;
    v->nvmlReturn = ret;
}

static void field_value(const struct sim_query *q, nvmlFieldValue_t *v, long long stamp_us) {
    const struct sim_device *d = q->device;
    unsigned int links = 0;
    nvmlReturn_t ret = sim_value_uint(&d->nvlink_links, q->t_s, &links);
    v->timestamp = stamp_us;
    v->latencyUsec = 0;
    if (v->fieldId == NVML_FI_DEV_NVLINK_LINK_COUNT) {
        v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
        v->value.uiVal = links;
        v->nvmlReturn = ret;
        return;
    }
    if (v->fieldId == NVML_FI_DEV_PCIE_COUNT_TX_BYTES ||
        v->fieldId == NVML_FI_DEV_PCIE_COUNT_RX_BYTES) {
        pcie_field(q, v);
        return;
    }
    if (v->fieldId != NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX &&
        v->fieldId != NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX) {
        v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
        return;
    }
    const struct sim_num *rate = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX
                                     ? &d->nvlink_tx_kibps
                                     : &d->nvlink_rx_kibps;
    if (ret == NVML_SUCCESS) {
        ret = rate->error;
    }
    if (ret == NVML_SUCCESS && v->scopeId >= links) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
    v->value.ullVal = ret == NVML_SUCCESS ? (unsigned long long)llround(counter_kib(q, rate)) : 0;
    v->nvmlReturn = ret;
}

/* The scenario's "field_errors": the field fails while the call and the other fields succeed. */
static void field_fault(const struct sim_device *d, nvmlFieldValue_t *v) {
    for (size_t i = 0; i < d->field_error_count; i++) {
        if (d->field_errors[i].field_id == v->fieldId) {
            v->nvmlReturn = d->field_errors[i].error;
            v->value.ullVal = 0;
        }
    }
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount,
                                      nvmlFieldValue_t *values) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetFieldValues, device,
                                     values != NULL && valuesCount > 0);
    if (ret == NVML_SUCCESS) {
        long long stamp = realtime_us();
        for (int i = 0; i < valuesCount; i++) {
            field_value(&q, &values[i], stamp);
            field_fault(q.device, &values[i]);
        }
    }
    return sim_end(&q, ret);
}
