/*
 * The texts of one device row as nvitop's device panel shows them (docs/nvitop-behaviour.md
 * §2.3.2–§2.3.3): names shortened, "On"/"Off", "E. Process", "MAX" fans, "312W / 350W", "20110MiB
 * / 24.00GiB", … . Internal to src/view/.  Pure.
 */
#ifndef NVITOP_SRC_VIEW_PANELS_DEVICE_FIELDS_H
#define NVITOP_SRC_VIEW_PANELS_DEVICE_FIELDS_H

#include <nvitop/snapshot.h>

struct view_device_fields {
    char index[16];     /* physical index */
    char mig_index[16]; /* MIG index within the parent */
    char name[NVT_NAME_LEN + 8];
    char persistence[8]; /* On, Off, N/A */
    char bus_id[NVT_BUS_ID_LEN];
    char display_active[8];
    char ecc[24];
    char mig_mode[16];     /* Enabled, Disabled, "N/A " */
    char fan[16];          /* 72%, MAX, N/A */
    char temperature[16];  /* 71C, N/A */
    char performance[16];  /* P2, N/A */
    char power_usage[16];  /* 312W, N/A */
    char power_status[40]; /* 312W / 350W */
    char memory_used[24];
    char memory_usage[64]; /* used / total */
    char gpu_util[16];     /* 87%, N/A */
    char compute_mode[24];
    char gpu_instance[16];
    char compute_instance[16];
    char bar1_used[24];
    char bar1_percent[16];
    char clock_sm[24]; /* "@ 1980MHz", or "" when N/A */
    char clock_memory[24];
};

/* Fill every field of out for the device. */
void view_device_fields_fill(const struct nvt_device_snapshot *device,
                             struct view_device_fields *out);

#endif /* NVITOP_SRC_VIEW_PANELS_DEVICE_FIELDS_H */
