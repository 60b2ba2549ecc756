/*
 * PCIe throughput (see nvml_read_pcie in nvml_private.h).  nvmlDeviceGetPcieThroughput samples
 * the link for about 20 ms per direction before it answers, so on 8 GPUs a reading sleeps 320 ms
 * and wakes the thread 16 times; R555 added byte counters that answer at once.  They are asked
 * for once per device: a driver without them says so in each field's nvmlReturn (or lacks
 * nvmlDeviceGetFieldValues), and that device keeps the blocking query from then on.
 */
#include <string.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/sys/clock.h"

static nvmlReturn_t read_blocking(struct nvml_backend *backend, nvmlDevice_t handle,
                                  struct nvt_device_state *out) {
    unsigned int value = 0;
    nvmlReturn_t result =
        NVML_QUERY(backend, nvmlDeviceGetPcieThroughput, handle, NVML_PCIE_UTIL_TX_BYTES, &value);
    if (result == NVML_SUCCESS) {
        out->pcie_tx_kibps = value;
    }
    if (result == NVML_ERROR_GPU_IS_LOST) {
        return result;
    }
    nvmlReturn_t rx =
        NVML_QUERY(backend, nvmlDeviceGetPcieThroughput, handle, NVML_PCIE_UTIL_RX_BYTES, &value);
    if (rx == NVML_SUCCESS) {
        out->pcie_rx_kibps = value;
    }
    return rx == NVML_ERROR_GPU_IS_LOST ? rx : result;
}

static uint32_t kibps(unsigned long long bytes, double elapsed_s) {
    double rate = (double)bytes / 1024.0 / elapsed_s;
    /* The public field is 32 bits wide, as nvmlDeviceGetPcieThroughput's answer. */
    return rate >= (double)(NVT_NA_U32 - 1) ? NVT_NA_U32 - 1 : (uint32_t)(rate + 0.5);
}

/* The counters' rates since the baseline into out; false when there is no usable delta (no
 * baseline, a counter that went back, no time between the two readings). */
static bool rates_since(const struct nvml_device *device, unsigned long long tx,
                        unsigned long long rx, long long now_us, bool driver_time,
                        struct nvt_device_state *out) {
    if (!device->pcie_known || driver_time != device->pcie_driver_time ||
        tx < device->pcie_tx_bytes || rx < device->pcie_rx_bytes ||
        now_us <= device->pcie_time_us) {
        return false;
    }
    double elapsed_s = (double)(now_us - device->pcie_time_us) / 1e6;
    out->pcie_tx_kibps = kibps(tx - device->pcie_tx_bytes, elapsed_s);
    out->pcie_rx_kibps = kibps(rx - device->pcie_rx_bytes, elapsed_s);
    return true;
}

nvmlReturn_t nvml_read_pcie(struct nvml_backend *backend, struct nvml_device *device,
                            nvmlDevice_t handle, struct nvt_device_state *out) {
    if (device->pcie_counters == NVML_PCIE_COUNTERS_NO) {
        return read_blocking(backend, handle, out);
    }
    nvmlFieldValue_t fields[2];
    memset(fields, 0, sizeof(fields));
    fields[0].fieldId = NVML_FI_DEV_PCIE_COUNT_TX_BYTES;
    fields[1].fieldId = NVML_FI_DEV_PCIE_COUNT_RX_BYTES;
    /* Quiet: a driver without the entry point still has the blocking query. */
    nvmlReturn_t result = NVML_QUERY_QUIET(backend, nvmlDeviceGetFieldValues, handle, 2, fields);
    if (result == NVML_ERROR_GPU_IS_LOST) {
        return result;
    }
    bool counted = result == NVML_SUCCESS && fields[0].nvmlReturn == NVML_SUCCESS &&
                   fields[1].nvmlReturn == NVML_SUCCESS;
    if (!counted) {
        device->pcie_known = false;
        /* Only a driver that answered for the fields has told whether it counts: a transient
         * failure of the call leaves the question open. */
        bool answered = result == NVML_SUCCESS || result == NVML_ERROR_FUNCTION_NOT_FOUND ||
                        result == NVML_ERROR_NOT_SUPPORTED;
        if (answered && device->pcie_counters == NVML_PCIE_COUNTERS_UNKNOWN) {
            device->pcie_counters = NVML_PCIE_COUNTERS_NO;
        }
        return read_blocking(backend, handle, out);
    }
    device->pcie_counters = NVML_PCIE_COUNTERS_YES;
    unsigned long long tx = nvml_field_u64(&fields[0]);
    unsigned long long rx = nvml_field_u64(&fields[1]);
    /* The driver's timestamp of the counters when it gives one, as for NVLink. */
    long long stamp = fields[0].timestamp > 0 ? fields[0].timestamp : fields[1].timestamp;
    bool driver_time = stamp > 0;
    long long now_us = driver_time ? stamp : (long long)(clock_monotonic_s() * 1e6);
    result = NVML_SUCCESS;
    if (!rates_since(device, tx, rx, now_us, driver_time, out)) {
        /* No delta yet (or the counters were reset): this once, the driver's own window. */
        result = read_blocking(backend, handle, out);
    }
    device->pcie_known = true;
    device->pcie_tx_bytes = tx;
    device->pcie_rx_bytes = rx;
    device->pcie_time_us = now_us;
    device->pcie_driver_time = driver_time;
    return result;
}
