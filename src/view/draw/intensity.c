/*
 * Loading intensity (nvitop's LoadingIntensity) and the derived percentages it is computed from.
 */
#include "view/draw/intensity.h"

#include <math.h>

#include <nvitop/format.h>

enum view_intensity view_intensity_of(double percent, uint32_t low, uint32_t high) {
    if (isnan(percent)) {
        return VIEW_INTENSITY_MODERATE;
    }
    if (percent >= (double)high) {
        return VIEW_INTENSITY_HEAVY;
    }
    if (percent >= (double)low) {
        return VIEW_INTENSITY_MODERATE;
    }
    return VIEW_INTENSITY_LIGHT;
}

enum view_color view_intensity_color(enum view_intensity intensity) {
    switch (intensity) {
    case VIEW_INTENSITY_LIGHT:
        return VIEW_COLOR_GREEN;
    case VIEW_INTENSITY_MODERATE:
        return VIEW_COLOR_YELLOW;
    case VIEW_INTENSITY_HEAVY:
        break;
    }
    return VIEW_COLOR_RED;
}

bool view_device_is_error(const struct nvt_device_snapshot *device) {
    return device->info.handle_status != NVT_OK;
}

/* round(100 * part / whole, 1), or NaN when either is N/A or whole is 0. */
static double ratio_percent(uint64_t part, uint64_t whole) {
    if (nvt_is_na_u64(part) || nvt_is_na_u64(whole) || whole == 0) {
        return NAN;
    }
    return nvt_round_half_even_digits(100.0 * (double)part / (double)whole, 1);
}

double view_device_memory_percent(const struct nvt_device_snapshot *device) {
    return ratio_percent(device->state.memory_used_bytes, device->state.memory_total_bytes);
}

double view_device_power_percent(const struct nvt_device_snapshot *device) {
    uint32_t usage = device->state.power_usage_mw;
    uint32_t limit = device->state.power_limit_mw;
    if (nvt_is_na_u32(usage) || nvt_is_na_u32(limit) || limit == 0) {
        return NAN;
    }
    return ratio_percent(usage, limit);
}

static double u32_percent(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value;
}

static enum view_intensity max_intensity(enum view_intensity a, enum view_intensity b) {
    return a > b ? a : b;
}

void view_device_colors(const struct nvt_device_snapshot *device,
                        const struct view_thresholds *thresholds, struct view_device_colors *out) {
    if (view_device_is_error(device)) {
        out->display = out->memory = out->bandwidth = out->gpu = out->power = VIEW_COLOR_RED;
        return;
    }
    enum view_intensity memory = view_intensity_of(view_device_memory_percent(device),
                                                   thresholds->mem_low, thresholds->mem_high);
    enum view_intensity bandwidth =
        view_intensity_of(u32_percent(device->state.memory_bandwidth_util_pct), thresholds->mem_low,
                          thresholds->mem_high);
    enum view_intensity gpu = view_intensity_of(u32_percent(device->state.gpu_util_pct),
                                                thresholds->gpu_low, thresholds->gpu_high);
    enum view_intensity power = view_intensity_of(view_device_power_percent(device),
                                                  thresholds->gpu_low, thresholds->gpu_high);
    out->memory = view_intensity_color(memory);
    out->bandwidth = view_intensity_color(bandwidth);
    out->gpu = view_intensity_color(gpu);
    out->power = view_intensity_color(power);
    enum view_intensity display = device->info.is_mig ? memory : max_intensity(memory, gpu);
    out->display = view_intensity_color(display);
}
