/* The device and process families of the exposition (render.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

enum gpu_metric {
    GPU_UTIL,
    GPU_MEMORY_UTIL,
    GPU_ENCODER_UTIL,
    GPU_DECODER_UTIL,
    GPU_MEMORY_TOTAL,
    GPU_MEMORY_USED,
    GPU_MEMORY_FREE,
    GPU_MEMORY_PERCENT,
    GPU_CLOCK_SM,
    GPU_CLOCK_MEMORY,
    GPU_CLOCK_GRAPHICS,
    GPU_CLOCK_VIDEO,
    GPU_POWER_USAGE,
    GPU_POWER_LIMIT,
    GPU_TEMPERATURE,
    GPU_FAN_SPEED,
    GPU_PCIE_TX,
    GPU_PCIE_RX,
    GPU_NVLINK_TOTAL_TX,
    GPU_NVLINK_TOTAL_RX,
    GPU_NVLINK_MEAN_TX,
    GPU_NVLINK_MEAN_RX,
    GPU_METRIC_COUNT
};

struct family {
    const char *name;
    const char *help;
};

static const struct family gpu_families[GPU_METRIC_COUNT] = {
    [GPU_UTIL] = {"gpu_utilization_Percentage", "GPU utilization (%)."},
    [GPU_MEMORY_UTIL] = {"gpu_memory_utilization_Percentage", "GPU memory utilization (%)."},
    [GPU_ENCODER_UTIL] = {"gpu_encoder_utilization_Percentage", "GPU encoder utilization (%)."},
    [GPU_DECODER_UTIL] = {"gpu_decoder_utilization_Percentage", "GPU decoder utilization (%)."},
    [GPU_MEMORY_TOTAL] = {"gpu_memory_total_MiB", "GPU memory total (MiB)."},
    [GPU_MEMORY_USED] = {"gpu_memory_used_MiB", "GPU memory used (MiB)."},
    [GPU_MEMORY_FREE] = {"gpu_memory_free_MiB", "GPU memory free (MiB)."},
    [GPU_MEMORY_PERCENT] = {"gpu_memory_percent_Percentage", "GPU memory percent (%)."},
    [GPU_CLOCK_SM] = {"gpu_clock_sm_MHz", "GPU SM clock (MHz)."},
    [GPU_CLOCK_MEMORY] = {"gpu_clock_memory_MHz", "GPU memory clock (MHz)."},
    [GPU_CLOCK_GRAPHICS] = {"gpu_clock_graphics_MHz", "GPU graphics clock (MHz)."},
    [GPU_CLOCK_VIDEO] = {"gpu_clock_video_MHz", "GPU video clock (MHz)."},
    [GPU_POWER_USAGE] = {"gpu_power_usage_W", "GPU power usage (W)."},
    [GPU_POWER_LIMIT] = {"gpu_power_limit_W", "GPU power limit (W)."},
    [GPU_TEMPERATURE] = {"gpu_temperature_C", "GPU temperature (C)."},
    [GPU_FAN_SPEED] = {"gpu_fan_speed_Percentage", "GPU fan speed (%)."},
    [GPU_PCIE_TX] = {"gpu_pcie_tx_throughput_MiBps", "GPU PCIe transmit throughput (MiB/s)."},
    [GPU_PCIE_RX] = {"gpu_pcie_rx_throughput_MiBps", "GPU PCIe receive throughput (MiB/s)."},
    [GPU_NVLINK_TOTAL_TX] = {"gpu_nvlink_total_tx_throughput_MiBps",
                             "GPU total NVLink transmit throughput (MiB/s)."},
    [GPU_NVLINK_TOTAL_RX] = {"gpu_nvlink_total_rx_throughput_MiBps",
                             "GPU total NVLink receive throughput (MiB/s)."},
    [GPU_NVLINK_MEAN_TX] = {"gpu_nvlink_mean_tx_throughput_MiBps",
                            "GPU mean NVLink transmit throughput (MiB/s)."},
    [GPU_NVLINK_MEAN_RX] = {"gpu_nvlink_mean_rx_throughput_MiBps",
                            "GPU mean NVLink receive throughput (MiB/s)."},
};

/* nvitop's NVLink reductions: the sum (or mean) of the links that have a value; NaN if none. */
static double nvlink_reduce(const double *kibps, uint32_t links, bool mean) {
    double sum = 0.0;
    uint32_t valid = 0;
    for (uint32_t i = 0; i < links && i < NVT_NVLINK_MAX_LINKS; i++) {
        if (!isnan(kibps[i])) {
            sum += kibps[i];
            valid++;
        }
    }
    if (valid == 0) {
        return NAN;
    }
    return (mean ? sum / valid : sum) / 1024.0;
}

static double milli(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value / 1000.0;
}

static double per_kib(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value / 1024.0;
}

/* nvitop's memory_percent(): round(100 * used / total, 1). */
static double memory_percent(const struct nvt_device_state *s) {
    if (nvt_is_na_u64(s->memory_total_bytes) || nvt_is_na_u64(s->memory_used_bytes) ||
        s->memory_total_bytes == 0) {
        return NAN;
    }
    return round(1000.0 * (double)s->memory_used_bytes / (double)s->memory_total_bytes) / 10.0;
}

static double gpu_value(const struct nvt_device_snapshot *d, enum gpu_metric metric) {
    const struct nvt_device_state *s = &d->state;
    uint32_t links = d->info.nvlink_count;
    switch (metric) {
    case GPU_UTIL:
        return render_u32(s->gpu_util_pct);
    case GPU_MEMORY_UTIL:
        return render_u32(s->memory_bandwidth_util_pct);
    case GPU_ENCODER_UTIL:
        return render_u32(s->encoder_util_pct);
    case GPU_DECODER_UTIL:
        return render_u32(s->decoder_util_pct);
    case GPU_MEMORY_TOTAL:
        return render_u64_mib(s->memory_total_bytes);
    case GPU_MEMORY_USED:
        return render_u64_mib(s->memory_used_bytes);
    case GPU_MEMORY_FREE:
        return render_u64_mib(s->memory_free_bytes);
    case GPU_MEMORY_PERCENT:
        return memory_percent(s);
    case GPU_CLOCK_SM:
        return render_u32(s->clock_sm_mhz);
    case GPU_CLOCK_MEMORY:
        return render_u32(s->clock_memory_mhz);
    case GPU_CLOCK_GRAPHICS:
        return render_u32(s->clock_graphics_mhz);
    case GPU_CLOCK_VIDEO:
        return render_u32(s->clock_video_mhz);
    case GPU_POWER_USAGE:
        return milli(s->power_usage_mw);
    case GPU_POWER_LIMIT:
        return milli(s->power_limit_mw);
    case GPU_TEMPERATURE:
        return render_u32(s->temperature_c);
    case GPU_FAN_SPEED:
        return render_u32(s->fan_speed_pct);
    case GPU_PCIE_TX:
        return per_kib(s->pcie_tx_kibps);
    case GPU_PCIE_RX:
        return per_kib(s->pcie_rx_kibps);
    case GPU_NVLINK_TOTAL_TX:
        return nvlink_reduce(s->nvlink_tx_kibps, links, false);
    case GPU_NVLINK_TOTAL_RX:
        return nvlink_reduce(s->nvlink_rx_kibps, links, false);
    case GPU_NVLINK_MEAN_TX:
        return nvlink_reduce(s->nvlink_tx_kibps, links, true);
    case GPU_NVLINK_MEAN_RX:
        return nvlink_reduce(s->nvlink_rx_kibps, links, true);
    case GPU_METRIC_COUNT:
        break;
    }
    return NAN;
}

const char *render_device_name(const struct nvt_device_info *info) {
    if (info->handle_status == NVT_ERR_GPU_IS_LOST) {
        return "ERROR: GPU is Lost";
    }
    if (info->handle_status != NVT_OK) {
        return "ERROR: Unknown";
    }
    return info->name[0] != '\0' ? info->name : "N/A";
}

const char *render_device_uuid(const struct nvt_device_info *info) {
    return info->handle_status == NVT_OK && info->uuid[0] != '\0' ? info->uuid : "N/A";
}

/* hostname, index ("<gpu>" or "<gpu>:<mig>"), devicename and uuid of a device. */
static void device_labels(struct render_out *out, const struct render_input *in,
                          const struct nvt_device_snapshot *d, struct strbuf *labels) {
    char index[48];
    size_t len = render_uint(index, d->info.index);
    if (d->info.is_mig) {
        index[len++] = ':';
        render_uint(index + len, d->info.mig_index);
    }
    strbuf_clear(labels);
    render_label(out, labels, "hostname", in->hostname, true);
    render_label(out, labels, "index", index, false);
    render_label(out, labels, "devicename", render_device_name(&d->info), false);
    render_label(out, labels, "uuid", render_device_uuid(&d->info), false);
}

struct strbuf *render_device_labels(struct render_out *out, const struct render_input *in) {
    size_t n = in->snapshot->device_count;
    struct strbuf *labels = calloc(n != 0 ? n : 1, sizeof(*labels));
    if (labels == NULL) {
        out->ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        device_labels(out, in, &in->snapshot->devices[i], &labels[i]);
    }
    return labels;
}

void render_free_device_labels(struct strbuf *labels, size_t n) {
    for (size_t i = 0; labels != NULL && i < n; i++) {
        strbuf_fini(&labels[i]);
    }
    free(labels);
}

/* One sample per link of every device: the device's label text and ",link=\"<n>\"" written
 * straight into the output (building a label text per link was a fifth of rendering). */
static void render_links(struct render_out *out, const struct render_input *in,
                         const struct strbuf *labels, bool tx) {
    const char *name = tx ? "gpu_nvlink_tx_throughput_MiBps" : "gpu_nvlink_rx_throughput_MiBps";
    render_family(out, name,
                  tx ? "GPU NVLink transmit throughput (MiB/s)."
                     : "GPU NVLink receive throughput (MiB/s).");
    struct render_text family = {name, strlen(name)};
    for (size_t i = 0; i < in->snapshot->device_count; i++) {
        const struct nvt_device_snapshot *d = &in->snapshot->devices[i];
        struct render_text device = {strbuf_cstr(&labels[i]), labels[i].len};
        for (uint32_t link = 0; link < d->info.nvlink_count && link < NVT_NVLINK_MAX_LINKS;
             link++) {
            /* link < NVT_NVLINK_MAX_LINKS: at most two digits, written without printf */
            char extra[16] = ",link=\"";
            size_t len = 7;
            if (link >= 10) {
                extra[len++] = (char)('0' + link / 10);
            }
            extra[len++] = (char)('0' + link % 10);
            extra[len++] = '"';
            double kibps = tx ? d->state.nvlink_tx_kibps[link] : d->state.nvlink_rx_kibps[link];
            render_sample_text(out, family, device, extra, len, kibps / 1024.0);
        }
    }
}

void render_devices(struct render_out *out, const struct render_input *in,
                    const struct strbuf *labels) {
    size_t n = in->snapshot->device_count;
    for (int metric = 0; metric < GPU_METRIC_COUNT; metric++) {
        const char *name = gpu_families[metric].name;
        render_family(out, name, gpu_families[metric].help);
        struct render_text family = {name, strlen(name)};
        for (size_t i = 0; i < n; i++) {
            struct render_text device = {strbuf_cstr(&labels[i]), labels[i].len};
            render_sample_text(out, family, device, "", 0,
                               gpu_value(&in->snapshot->devices[i], (enum gpu_metric)metric));
        }
    }
    render_links(out, in, labels, true);
    render_links(out, in, labels, false);
}
