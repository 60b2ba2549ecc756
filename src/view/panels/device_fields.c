/*
 * Device texts.  Every N/A value prints as "N/A"; the transformations follow nvitop's device
 * panel (strip a leading "NVIDIA ", cut long names from the left, "Exclusive" -> "E.").
 */
#include "view/panels/device_fields.h"

#include <stdio.h>
#include <string.h>

#include <nvitop/format.h>

#include "util/text/str.h"

#define NA_TEXT "N/A"

static void feature_text(char *buf, size_t size, enum nvt_feature value) {
    const char *text = NA_TEXT;
    if (value == NVT_FEATURE_ENABLED) {
        text = "On";
    } else if (value == NVT_FEATURE_DISABLED) {
        text = "Off";
    }
    str_copy(buf, size, text);
}

static void u32_text(char *buf, size_t size, uint32_t value, const char *suffix) {
    if (nvt_is_na_u32(value)) {
        str_copy(buf, size, NA_TEXT);
    } else {
        /* "%u%s" without printf: a few per device per frame. */
        size_t len = str_u64(buf, size, value);
        if (len < size) {
            str_copy(buf + len, size - len, suffix);
        }
    }
}

/* prefix, value in decimal, then suffix: "%s%u%s" without printf (several per device a frame). */
static void number_text(char *buf, size_t size, const char *prefix, uint64_t value,
                        const char *suffix) {
    size_t len = str_copy(buf, size, prefix);
    if (len < size) {
        len += str_u64(buf + len, size - len, value);
    }
    if (len < size) {
        str_copy(buf + len, size - len, suffix);
    }
}

/* "%s / %s" without printf. */
static void pair_text(char *buf, size_t size, const char *left, const char *right) {
    str_copy(buf, size, left);
    str_append(buf, size, " / ");
    str_append(buf, size, right);
}

static void bytes_text(char *buf, size_t size, uint64_t bytes) {
    if (nvt_is_na_u64(bytes)) {
        str_copy(buf, size, NA_TEXT);
    } else {
        nvt_format_bytes(buf, size, bytes, 1);
    }
}

static void watts_text(char *buf, size_t size, uint32_t milliwatts) {
    if (nvt_is_na_u32(milliwatts)) {
        str_copy(buf, size, NA_TEXT);
    } else {
        size_t len =
            nvt_format_fixed(buf, size, nvt_round_half_even((double)milliwatts / 1000.0), 0);
        if (len + 1 < size) {
            buf[len] = 'W';
            buf[len + 1] = '\0';
        }
    }
}

/* nvitop's cut_string(name, maxlen=19, padstr='..', align='right'): keep the tail. */
static void device_name(char *buf, size_t size, const struct nvt_device_snapshot *device) {
    if (device->info.handle_status == NVT_ERR_GPU_IS_LOST) {
        str_copy(buf, size, "ERROR: GPU is Lost");
        return;
    }
    if (device->info.handle_status != NVT_OK) {
        str_copy(buf, size, "ERROR: Unknown");
        return;
    }
    const char *name = device->info.name[0] == '\0' ? NA_TEXT : device->info.name;
    if (str_starts_with(name, "NVIDIA ")) {
        name += strlen("NVIDIA ");
    }
    if (device->info.is_mig) {
        const char *space = strrchr(name, ' ');
        str_copy(buf, size, space == NULL ? name : space + 1);
        return;
    }
    size_t cells = nvt_text_width(name);
    if (cells <= 19) {
        str_copy(buf, size, name);
        return;
    }
    /* Drop leading characters until the rest fits into 17 cells. */
    const char *tail = name;
    while (*tail != '\0' && nvt_text_width(tail) > 17) {
        tail++;
        while ((*tail & 0xC0) == 0x80) {
            tail++;
        }
    }
    snprintf(buf, size, "..%s", tail);
}

static const char *compute_mode_text(enum nvt_compute_mode mode) {
    switch (mode) {
    case NVT_COMPUTE_MODE_DEFAULT:
        return "Default";
    case NVT_COMPUTE_MODE_EXCLUSIVE_THREAD:
        return "E. Thread";
    case NVT_COMPUTE_MODE_PROHIBITED:
        return "Prohibited";
    case NVT_COMPUTE_MODE_EXCLUSIVE_PROCESS:
        return "E. Process";
    case NVT_COMPUTE_MODE_NA:
        break;
    }
    return NA_TEXT;
}

static void mig_fields(const struct nvt_device_snapshot *device, struct view_device_fields *out) {
    const struct nvt_device_info *info = &device->info;
    u32_text(out->mig_index, sizeof(out->mig_index), info->mig_index, "");
    u32_text(out->gpu_instance, sizeof(out->gpu_instance), info->gpu_instance_id, "");
    u32_text(out->compute_instance, sizeof(out->compute_instance), info->compute_instance_id, "");
    bytes_text(out->bar1_used, sizeof(out->bar1_used), device->state.bar1_used_bytes);
    uint64_t used = device->state.bar1_used_bytes;
    uint64_t total = device->state.bar1_total_bytes;
    if (nvt_is_na_u64(used) || nvt_is_na_u64(total) || total == 0) {
        str_copy(out->bar1_percent, sizeof(out->bar1_percent), NA_TEXT);
    } else {
        double percent = nvt_round_half_even_digits(100.0 * (double)used / (double)total, 1);
        double rounded = nvt_round_half_even(percent);
        if (rounded >= 100.0) {
            str_copy(out->bar1_percent, sizeof(out->bar1_percent), "MAX");
        } else {
            snprintf(out->bar1_percent, sizeof(out->bar1_percent), "%.0f%%", rounded);
        }
    }
}

static void memory_fields(const struct nvt_device_snapshot *device,
                          struct view_device_fields *out) {
    char total[24];
    bytes_text(out->memory_used, sizeof(out->memory_used), device->state.memory_used_bytes);
    bytes_text(total, sizeof(total), device->state.memory_total_bytes);
    if (device->info.is_mig) {
        str_format_s(out->memory_usage, sizeof(out->memory_usage), "%s / %8s", out->memory_used,
                     total);
    } else {
        pair_text(out->memory_usage, sizeof(out->memory_usage), out->memory_used, total);
    }
}

static void clock_text(char *buf, size_t size, uint32_t mhz) {
    if (nvt_is_na_u32(mhz)) {
        buf[0] = '\0';
    } else {
        number_text(buf, size, "@ ", mhz, "MHz");
    }
}

void view_device_fields_fill(const struct nvt_device_snapshot *device,
                             struct view_device_fields *out) {
    const struct nvt_device_info *info = &device->info;
    const struct nvt_device_state *state = &device->state;
    memset(out, 0, sizeof(*out));
    str_u64(out->index, sizeof(out->index), info->index);
    device_name(out->name, sizeof(out->name), device);
    feature_text(out->persistence, sizeof(out->persistence), state->persistence_mode);
    str_copy(out->bus_id, sizeof(out->bus_id), info->bus_id[0] == '\0' ? NA_TEXT : info->bus_id);
    feature_text(out->display_active, sizeof(out->display_active), state->display_active);
    if (nvt_is_na_u64(state->ecc_uncorrected_volatile)) {
        str_copy(out->ecc, sizeof(out->ecc), NA_TEXT);
    } else {
        str_u64(out->ecc, sizeof(out->ecc), state->ecc_uncorrected_volatile);
    }
    if (state->mig_mode == NVT_FEATURE_ENABLED) {
        str_copy(out->mig_mode, sizeof(out->mig_mode), "Enabled");
    } else if (state->mig_mode == NVT_FEATURE_DISABLED) {
        str_copy(out->mig_mode, sizeof(out->mig_mode), "Disabled");
    } else {
        str_copy(out->mig_mode, sizeof(out->mig_mode), "N/A ");
    }
    if (!nvt_is_na_u32(state->fan_speed_pct) && state->fan_speed_pct >= 100) {
        str_copy(out->fan, sizeof(out->fan), "MAX");
    } else {
        u32_text(out->fan, sizeof(out->fan), state->fan_speed_pct, "%");
    }
    u32_text(out->temperature, sizeof(out->temperature), state->temperature_c, "C");
    if (nvt_is_na_u32(state->performance_state)) {
        str_copy(out->performance, sizeof(out->performance), NA_TEXT);
    } else {
        number_text(out->performance, sizeof(out->performance), "P", state->performance_state, "");
    }
    char limit[16];
    watts_text(out->power_usage, sizeof(out->power_usage), state->power_usage_mw);
    watts_text(limit, sizeof(limit), state->power_limit_mw);
    pair_text(out->power_status, sizeof(out->power_status), out->power_usage, limit);
    memory_fields(device, out);
    u32_text(out->gpu_util, sizeof(out->gpu_util), state->gpu_util_pct, "%");
    str_copy(out->compute_mode, sizeof(out->compute_mode), compute_mode_text(state->compute_mode));
    clock_text(out->clock_sm, sizeof(out->clock_sm), state->clock_sm_mhz);
    clock_text(out->clock_memory, sizeof(out->clock_memory), state->clock_memory_mhz);
    if (info->is_mig) {
        mig_fields(device, out);
    }
}
