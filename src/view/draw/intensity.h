/*
 * Loading intensity and display colours of devices (docs/nvitop-behaviour.md §2.3.5): light /
 * moderate / heavy against the configured thresholds, shown green / yellow / red; lost GPUs are
 * always red.
 */
#ifndef NVITOP_SRC_VIEW_DRAW_INTENSITY_H
#define NVITOP_SRC_VIEW_DRAW_INTENSITY_H

#include <nvitop/snapshot.h>

#include "view/config.h"
#include "view/draw/line.h"

enum view_intensity {
    VIEW_INTENSITY_LIGHT = 0,
    VIEW_INTENSITY_MODERATE,
    VIEW_INTENSITY_HEAVY
};

/* Intensity of a percentage against (low, high): NaN is moderate. */
enum view_intensity view_intensity_of(double percent, uint32_t low, uint32_t high);

/* green, yellow, red. */
enum view_color view_intensity_color(enum view_intensity intensity);

/* The colours nvitop derives for one device row. */
struct view_device_colors {
    enum view_color display;   /* the row (max of memory and GPU; memory only for MIG) */
    enum view_color memory;    /* MEM bar */
    enum view_color bandwidth; /* MBW bar (memory thresholds) */
    enum view_color gpu;       /* UTL bar */
    enum view_color power;     /* PWR bar (GPU thresholds) */
};

void view_device_colors(const struct nvt_device_snapshot *device,
                        const struct view_thresholds *thresholds, struct view_device_colors *out);

/* Derived percentages, rounded as nvitop rounds them (one decimal), NaN when N/A. */
double view_device_memory_percent(const struct nvt_device_snapshot *device);
double view_device_power_percent(const struct nvt_device_snapshot *device);

/* True for a device that is shown as "ERROR: …" (lost GPU or unknown error). */
bool view_device_is_error(const struct nvt_device_snapshot *device);

#endif /* NVITOP_SRC_VIEW_DRAW_INTENSITY_H */
