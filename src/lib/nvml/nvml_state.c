/*
 * Live device values: one NVML query per field and sample, errors to N/A, and a GPU that falls
 * off the bus while being read reported once in state.status (the remaining queries are skipped,
 * since every one of them would fail the same way).
 */
#include <math.h>
#include <string.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/array.h"
#include "util/sys/clock.h"

struct reader {
    struct nvml_backend *backend;
    nvmlDevice_t handle;
    struct nvt_device_state *out;
};

/* True on success.  A lost GPU is remembered in the state and stops further reading. */
static bool ok(struct reader *r, nvmlReturn_t result) {
    if (result == NVML_ERROR_GPU_IS_LOST) {
        r->out->status = NVT_ERR_GPU_IS_LOST;
    }
    return result == NVML_SUCCESS;
}

static bool lost(const struct reader *r) {
    return r->out->status != NVT_OK;
}

static enum nvt_feature feature(bool success, nvmlEnableState_t state) {
    if (!success) {
        return NVT_FEATURE_NA;
    }
    return state == NVML_FEATURE_ENABLED ? NVT_FEATURE_ENABLED : NVT_FEATURE_DISABLED;
}

void nvml_state_set_na(struct nvt_device_state *out) {
    memset(out, 0xFF, sizeof(*out));
    out->struct_size = sizeof(*out);
    out->status = NVT_OK;
    out->memory_is_host = false;
    out->persistence_mode = NVT_FEATURE_NA;
    out->display_active = NVT_FEATURE_NA;
    out->display_mode = NVT_FEATURE_NA;
    out->power_management = NVT_FEATURE_NA;
    out->compute_mode = NVT_COMPUTE_MODE_NA;
    out->mig_mode = NVT_FEATURE_NA;
    for (size_t i = 0; i < NVT_NVLINK_MAX_LINKS; i++) {
        out->nvlink_tx_kibps[i] = NAN;
        out->nvlink_rx_kibps[i] = NAN;
    }
}

static void read_memory(struct reader *r, bool *unsupported) {
    struct nvml_backend *backend = r->backend;
    nvmlReturn_t result = NVML_ERROR_FUNCTION_NOT_FOUND;
    if (!backend->memory_v2_disabled && backend->lib.api.nvmlDeviceGetMemoryInfo_v2 != NULL) {
        nvmlMemory_v2_t memory;
        memset(&memory, 0, sizeof(memory));
        memory.version = nvmlMemory_v2;
        result = backend->lib.api.nvmlDeviceGetMemoryInfo_v2(r->handle, &memory);
        if (result == NVML_ERROR_FUNCTION_NOT_FOUND || result == NVML_ERROR_UNKNOWN ||
            result == NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
            /* Not implemented, failing as nvitop saw on some drivers, or built for another
             * version of the struct: use v1 from now on. */
            backend->memory_v2_disabled = true;
        } else {
            if (ok(r, result)) {
                r->out->memory_total_bytes = memory.total;
                r->out->memory_used_bytes = memory.used;
                r->out->memory_free_bytes = memory.free;
                r->out->memory_reserved_bytes = memory.reserved;
            }
            *unsupported =
                result == NVML_ERROR_NOT_SUPPORTED || (result == NVML_SUCCESS && memory.total == 0);
            return;
        }
    }
    nvmlMemory_t memory;
    memset(&memory, 0, sizeof(memory));
    result = NVML_QUERY(backend, nvmlDeviceGetMemoryInfo, r->handle, &memory);
    if (ok(r, result)) {
        r->out->memory_total_bytes = memory.total;
        r->out->memory_used_bytes = memory.used;
        r->out->memory_free_bytes = memory.free;
    }
    *unsupported =
        result == NVML_ERROR_NOT_SUPPORTED || (result == NVML_SUCCESS && memory.total == 0);
}

static void read_bar1(struct reader *r) {
    nvmlBAR1Memory_t bar1;
    memset(&bar1, 0, sizeof(bar1));
    if (ok(r, NVML_QUERY(r->backend, nvmlDeviceGetBAR1MemoryInfo, r->handle, &bar1))) {
        r->out->bar1_total_bytes = bar1.bar1Total;
        r->out->bar1_used_bytes = bar1.bar1Used;
        r->out->bar1_free_bytes = bar1.bar1Free;
    }
}

static uint32_t read_temperature(struct reader *r) {
    struct nvml_backend *backend = r->backend;
    unsigned int value = 0;
    if (!backend->temperature_v_disabled && backend->lib.api.nvmlDeviceGetTemperatureV != NULL) {
        nvmlTemperature_v1_t temperature;
        memset(&temperature, 0, sizeof(temperature));
        temperature.version = nvmlTemperature_v1;
        temperature.sensorType = NVML_TEMPERATURE_GPU;
        nvmlReturn_t result = backend->lib.api.nvmlDeviceGetTemperatureV(r->handle, &temperature);
        /* Not implemented, or a driver built for another version of the struct: the older call
         * from now on. */
        if (result != NVML_ERROR_FUNCTION_NOT_FOUND &&
            result != NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
            return ok(r, result) && temperature.temperature >= 0 ? (uint32_t)temperature.temperature
                                                                 : NVT_NA_U32;
        }
        backend->temperature_v_disabled = true;
    }
    nvmlReturn_t result =
        NVML_QUERY(backend, nvmlDeviceGetTemperature, r->handle, NVML_TEMPERATURE_GPU, &value);
    return ok(r, result) ? value : NVT_NA_U32;
}

static void read_utilization(struct reader *r) {
    nvmlUtilization_t util;
    memset(&util, 0, sizeof(util));
    if (!lost(r) &&
        ok(r, NVML_QUERY(r->backend, nvmlDeviceGetUtilizationRates, r->handle, &util))) {
        r->out->gpu_util_pct = util.gpu;
        r->out->memory_bandwidth_util_pct = util.memory;
    }
}

/* The facts among the slow fields: set by an administrator (nvidia-smi -pl, -pm, -c), or a fan
 * the board does not have.  nvitop asks for them at every reading; they are read again every
 * NVML_FACTS_PERIOD_S here, the readings between repeat the last answers (4 or 5 NVML calls a GPU
 * fewer each time). */
static void read_facts(struct reader *r, struct nvml_device *device) {
    struct nvml_backend *b = r->backend;
    struct nvt_device_state *out = r->out;
    nvmlDevice_t h = r->handle;
    double now = clock_monotonic_s();
    if (device->slow_known && now - device->facts_read_s < NVML_FACTS_PERIOD_S) {
        out->power_limit_mw = device->slow.power_limit_mw;
        out->persistence_mode = device->slow.persistence_mode;
        out->display_active = device->slow.display_active;
        out->compute_mode = device->slow.compute_mode;
        return;
    }
    device->facts_read_s = now;
    unsigned int value = 0;
    nvmlEnableState_t state = NVML_FEATURE_DISABLED;
    if (!lost(r) && ok(r, NVML_QUERY(b, nvmlDeviceGetPowerManagementLimit, h, &value))) {
        out->power_limit_mw = value;
    }
    if (!lost(r)) {
        bool success = ok(r, NVML_QUERY(b, nvmlDeviceGetPersistenceMode, h, &state));
        out->persistence_mode = feature(success, state);
    }
    if (!lost(r)) {
        bool success = ok(r, NVML_QUERY(b, nvmlDeviceGetDisplayActive, h, &state));
        out->display_active = feature(success, state);
    }
    nvmlComputeMode_t mode = NVML_COMPUTEMODE_DEFAULT;
    if (!lost(r) && ok(r, NVML_QUERY(b, nvmlDeviceGetComputeMode, h, &mode)) &&
        mode < NVML_COMPUTEMODE_COUNT) {
        out->compute_mode = (enum nvt_compute_mode)mode;
    }
    device->fan_unsupported = false; /* asked again below */
}

/* The fields nvitop's monitor refreshes only every 5 s (docs/nvitop-behaviour.md §3.16). */
static void read_slow(struct reader *r, struct nvml_device *device) {
    struct nvml_backend *b = r->backend;
    struct nvt_device_state *out = r->out;
    nvmlDevice_t h = r->handle;
    unsigned int value = 0;

    read_facts(r, device);
    if (!lost(r) && !device->fan_unsupported) {
        nvmlReturn_t result = NVML_QUERY(b, nvmlDeviceGetFanSpeed, h, &value);
        if (ok(r, result)) {
            out->fan_speed_pct = value;
        }
        device->fan_unsupported = result == NVML_ERROR_NOT_SUPPORTED;
    }
    if (!lost(r)) {
        out->temperature_c = read_temperature(r);
    }
    if (!lost(r) && ok(r, NVML_QUERY(b, nvmlDeviceGetPowerUsage, h, &value))) {
        out->power_usage_mw = value;
    }
    nvmlPstates_t pstate = NVML_PSTATE_UNKNOWN;
    if (!lost(r) && ok(r, NVML_QUERY(b, nvmlDeviceGetPerformanceState, h, &pstate)) &&
        pstate <= NVML_PSTATE_15) {
        out->performance_state = (uint32_t)pstate;
    }
    unsigned long long ecc = 0;
    if (!lost(r) &&
        ok(r, NVML_QUERY(b, nvmlDeviceGetTotalEccErrors, h, NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                         NVML_VOLATILE_ECC, &ecc))) {
        out->ecc_uncorrected_volatile = ecc;
    }
}

static void read_modes(struct reader *r) {
    nvmlEnableState_t state = NVML_FEATURE_DISABLED;
    if (!lost(r)) {
        bool success = ok(r, NVML_QUERY(r->backend, nvmlDeviceGetDisplayMode, r->handle, &state));
        r->out->display_mode = feature(success, state);
    }
    if (!lost(r)) {
        bool success =
            ok(r, NVML_QUERY(r->backend, nvmlDeviceGetPowerManagementMode, r->handle, &state));
        r->out->power_management = feature(success, state);
    }
}

/* All four clocks, or (all false) the SM and memory clocks of NVT_SAMPLE_CLOCKS_SM_MEM. */
static void read_clocks(struct reader *r, bool all) {
    static const nvmlClockType_t types[] = {NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_CLOCK_GRAPHICS,
                                            NVML_CLOCK_VIDEO};
    uint32_t *targets[] = {&r->out->clock_sm_mhz, &r->out->clock_memory_mhz,
                           &r->out->clock_graphics_mhz, &r->out->clock_video_mhz};
    size_t count = all ? ARRAY_SIZE(types) : 2;
    for (size_t i = 0; i < count && !lost(r); i++) {
        unsigned int value = 0;
        if (ok(r, NVML_QUERY(r->backend, nvmlDeviceGetClockInfo, r->handle, types[i], &value))) {
            *targets[i] = value;
        }
    }
}

static void read_codec(struct reader *r) {
    unsigned int value = 0;
    unsigned int period = 0;
    if (!lost(r) && ok(r, NVML_QUERY(r->backend, nvmlDeviceGetEncoderUtilization, r->handle, &value,
                                     &period))) {
        r->out->encoder_util_pct = value;
    }
    if (!lost(r) && ok(r, NVML_QUERY(r->backend, nvmlDeviceGetDecoderUtilization, r->handle, &value,
                                     &period))) {
        r->out->decoder_util_pct = value;
    }
}

static void read_pcie_link(struct reader *r, unsigned flags) {
    unsigned int value = 0;
    if ((flags & NVT_SAMPLE_PCIE_LINK) != 0) {
        if (!lost(r) &&
            ok(r, NVML_QUERY(r->backend, nvmlDeviceGetCurrPcieLinkGeneration, r->handle, &value))) {
            r->out->pcie_link_gen = value;
        }
        if (!lost(r) &&
            ok(r, NVML_QUERY(r->backend, nvmlDeviceGetCurrPcieLinkWidth, r->handle, &value))) {
            r->out->pcie_link_width = value;
        }
    }
}

static void read_mig_mode(struct reader *r) {
    unsigned int current = 0;
    unsigned int pending = 0;
    nvmlReturn_t result =
        NVML_QUERY_QUIET(r->backend, nvmlDeviceGetMigMode, r->handle, &current, &pending);
    if (ok(r, result)) {
        r->out->mig_mode =
            current == NVML_DEVICE_MIG_ENABLE ? NVT_FEATURE_ENABLED : NVT_FEATURE_DISABLED;
    }
}

/* Keep the slow fields of a full reading for later fast ones. */
static void remember_slow(struct nvml_device *device, const struct nvt_device_state *in) {
    device->slow_known = true;
    device->slow.fan_speed_pct = in->fan_speed_pct;
    device->slow.temperature_c = in->temperature_c;
    device->slow.power_usage_mw = in->power_usage_mw;
    device->slow.power_limit_mw = in->power_limit_mw;
    device->slow.performance_state = in->performance_state;
    device->slow.persistence_mode = in->persistence_mode;
    device->slow.display_active = in->display_active;
    device->slow.ecc_uncorrected_volatile = in->ecc_uncorrected_volatile;
    device->slow.compute_mode = in->compute_mode;
    device->slow.mig_mode = in->mig_mode;
}

static void recall_slow(const struct nvml_device *device, struct nvt_device_state *out) {
    out->fan_speed_pct = device->slow.fan_speed_pct;
    out->temperature_c = device->slow.temperature_c;
    out->power_usage_mw = device->slow.power_usage_mw;
    out->power_limit_mw = device->slow.power_limit_mw;
    out->performance_state = device->slow.performance_state;
    out->persistence_mode = device->slow.persistence_mode;
    out->display_active = device->slow.display_active;
    out->ecc_uncorrected_volatile = device->slow.ecc_uncorrected_volatile;
    out->compute_mode = device->slow.compute_mode;
}

void nvml_device_state(struct nvml_backend *backend, struct nvml_device *device, unsigned flags,
                       const struct nvt_device_info *info, struct nvt_device_state *out,
                       bool *memory_unsupported) {
    nvml_state_set_na(out);
    *memory_unsupported = false;
    if (device->handle == NULL) {
        out->status = device->handle_status;
        return;
    }
    struct reader r = {backend, device->handle, out};
    /* A fast reading repeats the slow fields of the last full one; without one it is full. */
    bool full = (flags & NVT_SAMPLE_DEVICES) != 0 ||
                ((flags & NVT_SAMPLE_DEVICES_FAST) != 0 && !device->slow_known);
    bool fast = !full && (flags & NVT_SAMPLE_DEVICES_FAST) != 0;
    if (!device->is_mig && fast) {
        out->mig_mode = device->slow.mig_mode;
    } else if (!device->is_mig) {
        read_mig_mode(&r);
    }
    if ((full || fast) && !lost(&r)) {
        read_memory(&r, memory_unsupported);
        if (device->is_mig && !lost(&r)) {
            read_bar1(&r);
        }
        if (!device->is_mig) {
            read_utilization(&r);
        }
        if (!device->is_mig && full) {
            read_slow(&r, device);
            if (!lost(&r)) {
                remember_slow(device, out);
            }
        } else if (!device->is_mig && !lost(&r)) {
            recall_slow(device, out);
        }
    }
    if (device->is_mig) {
        /* MIG devices have memory and BAR1 only; the other queries would all be N/A. */
        return;
    }
    if ((flags & NVT_SAMPLE_BAR1) != 0 && !lost(&r)) {
        read_bar1(&r);
    }
    if ((flags & NVT_SAMPLE_MODES) != 0) {
        read_modes(&r);
    }
    if ((flags & (NVT_SAMPLE_CLOCKS | NVT_SAMPLE_CLOCKS_SM_MEM)) != 0) {
        read_clocks(&r, (flags & NVT_SAMPLE_CLOCKS) != 0);
    }
    if ((flags & NVT_SAMPLE_CODEC) != 0) {
        read_codec(&r);
    }
    read_pcie_link(&r, flags);
    if ((flags & NVT_SAMPLE_PCIE_THROUGHPUT) != 0 && !lost(&r)) {
        ok(&r, nvml_read_pcie(backend, device, r.handle, out));
    }
    if ((flags & NVT_SAMPLE_NVLINK) != 0 && !lost(&r)) {
        ok(&r, nvml_read_nvlink(backend, device, r.handle, info->nvlink_count, out));
    }
}
