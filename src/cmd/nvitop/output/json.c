/*
 * The JSON report (docs/json.md, schema docs/nvitop-json.schema.json).  Raw numbers with units in
 * the key names, null for N/A; the same device and process filters as the text report.
 */
#include "cmd/nvitop/output/json.h"

#include <math.h>

#include <nvitop/version.h>

#include "cmd/nvitop/output/json_writer.h"
#include "util/text/strbuf.h"
#include "view/draw/intensity.h"
#include "view/processes/filter.h"

static void u64_or_null(struct json_writer *w, const char *key, uint64_t value) {
    json_key(w, key);
    if (nvt_is_na_u64(value)) {
        json_null(w);
    } else {
        json_u64(w, value);
    }
}

static void u32_or_null(struct json_writer *w, const char *key, uint32_t value) {
    json_key(w, key);
    if (nvt_is_na_u32(value)) {
        json_null(w);
    } else {
        json_u64(w, value);
    }
}

static void double_or_null(struct json_writer *w, const char *key, double value) {
    json_key(w, key);
    json_double(w, value);
}

static void string_or_null(struct json_writer *w, const char *key, const char *value) {
    json_key(w, key);
    json_string(w, value == NULL || value[0] == '\0' ? NULL : value);
}

static void feature(struct json_writer *w, const char *key, enum nvt_feature value) {
    json_key(w, key);
    if (value == NVT_FEATURE_NA) {
        json_null(w);
    } else {
        json_bool(w, value == NVT_FEATURE_ENABLED);
    }
}

static const char *compute_mode_name(enum nvt_compute_mode mode) {
    switch (mode) {
    case NVT_COMPUTE_MODE_DEFAULT:
        return "Default";
    case NVT_COMPUTE_MODE_EXCLUSIVE_THREAD:
        return "Exclusive Thread";
    case NVT_COMPUTE_MODE_PROHIBITED:
        return "Prohibited";
    case NVT_COMPUTE_MODE_EXCLUSIVE_PROCESS:
        return "Exclusive Process";
    case NVT_COMPUTE_MODE_NA:
        break;
    }
    return NULL;
}

static const char *device_status(const struct nvt_device_snapshot *device) {
    nvt_status status =
        device->info.handle_status != NVT_OK ? device->info.handle_status : device->state.status;
    switch (status) {
    case NVT_OK:
        return "ok";
    case NVT_ERR_GPU_IS_LOST:
        return "gpu_is_lost";
    default:
        break;
    }
    return "unknown_error";
}

static void system_object(struct json_writer *w, const struct nvt_snapshot *snap) {
    json_key(w, "driver");
    json_begin_object(w);
    string_or_null(w, "driver_version", snap->system.driver_version);
    string_or_null(w, "nvml_version", snap->system.nvml_version);
    json_key(w, "cuda_driver_version");
    if (nvt_is_na_i32(snap->system.cuda_driver_version)) {
        json_null(w);
    } else {
        json_i64(w, snap->system.cuda_driver_version);
    }
    json_end_object(w);
}

static void host_object(struct json_writer *w, const struct nvt_host_state *host) {
    json_key(w, "host");
    json_begin_object(w);
    string_or_null(w, "hostname", host->hostname);
    double_or_null(w, "cpu_percent", host->cpu_percent);
    json_key(w, "cpu_count");
    json_u64(w, host->cpu_count);
    json_key(w, "load_average");
    json_begin_array(w);
    json_double(w, host->load_1m);
    json_double(w, host->load_5m);
    json_double(w, host->load_15m);
    json_end_array(w);
    u64_or_null(w, "memory_total_bytes", host->memory_total_bytes);
    u64_or_null(w, "memory_used_bytes", host->memory_used_bytes);
    u64_or_null(w, "memory_available_bytes", host->memory_available_bytes);
    double_or_null(w, "memory_percent", host->memory_percent);
    u64_or_null(w, "swap_total_bytes", host->swap_total_bytes);
    u64_or_null(w, "swap_used_bytes", host->swap_used_bytes);
    double_or_null(w, "swap_percent", host->swap_percent);
    double_or_null(w, "uptime_s", host->uptime_s);
    json_end_object(w);
}

static void device_identity(struct json_writer *w, const struct nvt_device_snapshot *device) {
    json_key(w, "index");
    json_u64(w, device->info.index);
    json_key(w, "mig_index");
    if (device->info.is_mig) {
        json_u64(w, device->info.mig_index);
    } else {
        json_null(w);
    }
}

static void device_object(struct json_writer *w, const struct nvt_device_snapshot *device) {
    const struct nvt_device_info *info = &device->info;
    const struct nvt_device_state *state = &device->state;
    json_begin_object(w);
    device_identity(w, device);
    json_key(w, "status");
    json_string(w, device_status(device));
    string_or_null(w, "name", info->name);
    string_or_null(w, "uuid", info->uuid);
    string_or_null(w, "bus_id", info->bus_id);
    u64_or_null(w, "memory_total_bytes", state->memory_total_bytes);
    u64_or_null(w, "memory_used_bytes", state->memory_used_bytes);
    u64_or_null(w, "memory_free_bytes", state->memory_free_bytes);
    double_or_null(w, "memory_percent", view_device_memory_percent(device));
    json_key(w, "memory_is_host");
    json_bool(w, state->memory_is_host);
    u64_or_null(w, "bar1_total_bytes", state->bar1_total_bytes);
    u64_or_null(w, "bar1_used_bytes", state->bar1_used_bytes);
    u32_or_null(w, "gpu_util_percent", state->gpu_util_pct);
    u32_or_null(w, "memory_bandwidth_util_percent", state->memory_bandwidth_util_pct);
    u32_or_null(w, "encoder_util_percent", state->encoder_util_pct);
    u32_or_null(w, "decoder_util_percent", state->decoder_util_pct);
    u32_or_null(w, "fan_speed_percent", state->fan_speed_pct);
    u32_or_null(w, "temperature_c", state->temperature_c);
    u32_or_null(w, "power_usage_mw", state->power_usage_mw);
    u32_or_null(w, "power_limit_mw", state->power_limit_mw);
    u32_or_null(w, "performance_state", state->performance_state);
    feature(w, "persistence_mode", state->persistence_mode);
    feature(w, "display_active", state->display_active);
    json_key(w, "compute_mode");
    json_string(w, compute_mode_name(state->compute_mode));
    feature(w, "mig_mode", info->is_mig ? NVT_FEATURE_NA : state->mig_mode);
    u64_or_null(w, "ecc_uncorrected_volatile", state->ecc_uncorrected_volatile);
    u32_or_null(w, "clock_graphics_mhz", state->clock_graphics_mhz);
    u32_or_null(w, "clock_sm_mhz", state->clock_sm_mhz);
    u32_or_null(w, "clock_memory_mhz", state->clock_memory_mhz);
    u32_or_null(w, "gpu_instance_id", info->is_mig ? info->gpu_instance_id : NVT_NA_U32);
    u32_or_null(w, "compute_instance_id", info->is_mig ? info->compute_instance_id : NVT_NA_U32);
    json_end_object(w);
}

static const char *host_status(enum nvt_host_status status) {
    switch (status) {
    case NVT_HOST_OK:
        return "ok";
    case NVT_HOST_GONE:
        return "gone";
    case NVT_HOST_ZOMBIE:
        return "zombie";
    case NVT_HOST_NO_PERMISSION:
        return "no_permission";
    case NVT_HOST_NOT_IN_NAMESPACE:
        break;
    }
    return "not_in_namespace";
}

static const char *process_type(unsigned type) {
    const char *letter = view_process_type(type);
    if (letter[0] == 'X') {
        return "C+G";
    }
    return letter[0] == 'N' ? NULL : letter;
}

static void process_object(struct json_writer *w, const struct nvt_snapshot *snap,
                           const struct nvt_gpu_process *process) {
    const struct nvt_host_process *host = &process->host;
    bool known = host->status == NVT_HOST_OK || host->status == NVT_HOST_ZOMBIE ||
                 host->status == NVT_HOST_NO_PERMISSION;
    json_begin_object(w);
    json_key(w, "pid");
    json_u64(w, process->pid);
    json_key(w, "device");
    json_begin_object(w);
    device_identity(w, &snap->devices[process->device]);
    json_end_object(w);
    json_key(w, "type");
    json_string(w, process_type(process->type));
    u64_or_null(w, "gpu_memory_bytes", process->gpu_memory_bytes);
    u32_or_null(w, "sm_util_percent", process->sm_util_pct);
    u32_or_null(w, "memory_bandwidth_util_percent", process->memory_util_pct);
    u32_or_null(w, "encoder_util_percent", process->encoder_util_pct);
    u32_or_null(w, "decoder_util_percent", process->decoder_util_pct);
    json_key(w, "host_status");
    json_string(w, host_status(host->status));
    string_or_null(w, "user", known ? host->user : NULL);
    string_or_null(w, "name", known ? host->name : NULL);
    string_or_null(w, "command", known ? host->command : NULL);
    u32_or_null(w, "ppid", known && host->ppid != 0 ? host->ppid : NVT_NA_U32);
    double_or_null(w, "cpu_percent", known ? host->cpu_percent : NAN);
    double_or_null(w, "memory_percent", known ? host->memory_percent : NAN);
    u64_or_null(w, "rss_bytes", known ? host->rss_bytes : NVT_NA_U64);
    double_or_null(w, "create_time", known ? host->create_time : NAN);
    double_or_null(w, "running_time_s", known ? host->running_time_s : NAN);
    json_end_object(w);
}

static bool print_document(FILE *out, const struct nvt_snapshot *snap,
                           const struct view_config *config, bool compact) {
    struct strbuf text = STRBUF_INIT;
    struct json_writer w;
    json_init(&w, &text);
    w.compact = compact;
    json_begin_object(&w);
    json_key(&w, "schema_version");
    json_u64(&w, JSON_SCHEMA_VERSION);
    json_key(&w, "generator");
    json_string(&w, "nvitop " NVT_VERSION_STRING);
    double_or_null(&w, "timestamp", snap->timestamp);
    system_object(&w, snap);
    host_object(&w, &snap->host);
    json_key(&w, "devices");
    json_begin_array(&w);
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (view_device_is_shown(snap, config, slot)) {
            device_object(&w, &snap->devices[slot]);
        }
    }
    json_end_array(&w);
    json_key(&w, "processes");
    json_begin_array(&w);
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *process = &snap->processes[i];
        if (process->device < snap->device_count &&
            view_device_is_shown(snap, config, process->device) &&
            view_process_is_shown(process, config)) {
            process_object(&w, snap, process);
        }
    }
    json_end_array(&w);
    json_end_object(&w);
    bool ok = w.ok && fwrite(strbuf_cstr(&text), 1, text.len, out) == text.len;
    ok = fflush(out) == 0 && ok;
    strbuf_fini(&text);
    return ok;
}

bool json_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config) {
    return print_document(out, snap, config, false);
}

bool json_print_line(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config) {
    return print_document(out, snap, config, true);
}
