/*
 * Display settings shared by the once report and the monitor: thresholds, drawing options and the
 * device and process filters of the command line (docs/nvitop-behaviour.md §1.2–§1.3).
 */
#ifndef NVITOP_SRC_VIEW_CONFIG_H
#define NVITOP_SRC_VIEW_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum view_display_mode {
    VIEW_MODE_AUTO = 0,
    VIEW_MODE_FULL,
    VIEW_MODE_COMPACT
};

/* Loading-intensity thresholds in percent, sorted (low <= high).  Defaults 10/75 and 10/80. */
struct view_thresholds {
    uint32_t gpu_low;
    uint32_t gpu_high;
    uint32_t mem_low;
    uint32_t mem_high;
};

/* Process filters; all active ones must pass (AND).  Type filters compare against nvitop's
 * display type (C, G, X for both). */
struct view_process_filter {
    bool compute;       /* -c: type has C (C or X) */
    bool only_compute;  /* -C: type is exactly C */
    bool graphics;      /* -g: type has G (G or X) */
    bool only_graphics; /* -G: type is exactly G */
    bool by_user;       /* -u given */
    const char *const *users;
    size_t user_count;
    bool by_pid; /* -p given */
    const uint32_t *pids;
    size_t pid_count;
};

/* Physical devices to show (from --only or --only-visible); all when !active. */
struct view_device_filter {
    bool active;
    const uint32_t *indices;
    size_t count;
};

struct view_config {
    struct view_thresholds thresholds;
    bool ascii;    /* --ascii, or no UTF-8 locale */
    bool colorful; /* --colorful (256-colour gradients; monitor only) */
    bool light;    /* --light */
    bool color;    /* emit colour at all (once mode: TTY or --force-color, NO_COLOR/FORCE_COLOR) */
    struct view_process_filter process_filter;
    struct view_device_filter device_filter;
    const char *user_name; /* current login name, for "user@host" and -u without names */
    bool superuser;
};

#endif /* NVITOP_SRC_VIEW_CONFIG_H */
