/*
 * The device panel (docs/nvitop-behaviour.md §2.3, §9.4): the version header, one block per
 * physical GPU (full: 2 lines, compact: 1 line), MIG rows, and — from 100 columns — the bar column,
 * as a 2x2 MEM/MBW/UTL/PWR grid when the right-hand area is at least 44 columns wide.
 *
 * The panel does not include the timestamp line above it (the once report prints the time, the
 * monitor the time plus its key hint).  Pure: no I/O, the snapshot is only read.
 */
#ifndef NVITOP_SRC_VIEW_PANELS_DEVICE_PANEL_H
#define NVITOP_SRC_VIEW_PANELS_DEVICE_PANEL_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

#include "view/config.h"
#include "view/draw/line.h"

struct view_device_panel_options {
    size_t width; /* panel width; values below 79 are treated as 79; bars from 100 */
    bool compact; /* one line per physical GPU (the monitor's compact mode) */
    /* Slot of the device of the selected process (the monitor), or NVT_NA_SIZE: that device's
     * rows are bold and the other devices' rows dim. */
    size_t selected_slot;
    const char *version; /* "NVITOP <version>" part of the header; NULL: this build's version */
};

/* Slots of the devices the panel shows, in order (physical GPUs passing the device filter, each
 * followed by its MIG devices).  Writes at most max slots and returns how many there are. */
size_t view_shown_devices(const struct nvt_snapshot *snap, const struct view_config *config,
                          size_t *slots, size_t max);

/* Number of lines view_device_panel() produces for these options. */
size_t view_device_panel_height(const struct nvt_snapshot *snap, const struct view_config *config,
                                bool compact);

/* Append the panel's lines to out.  options may be NULL (full layout, 79 columns). */
void view_device_panel(const struct nvt_snapshot *snap, const struct view_config *config,
                       const struct view_device_panel_options *options, struct view_lines *out);

/* The column of the joint that the bottom border has where the last device's bar column is split
 * (nvitop 1.7 keeps it in the host panel's top rule, which replaces that border), or 0 when the
 * border has none.  options may be NULL. */
size_t view_device_panel_bottom_joint(const struct nvt_snapshot *snap,
                                      const struct view_config *config,
                                      const struct view_device_panel_options *options);

/* The width the device panel wants in the once report: width itself when there is at least one
 * device and width >= 100, else 79. */
size_t view_device_panel_print_width(const struct nvt_snapshot *snap,
                                     const struct view_config *config, size_t width);

#endif /* NVITOP_SRC_VIEW_PANELS_DEVICE_PANEL_H */
