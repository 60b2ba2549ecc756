/*
 * The monitor's settings file (nvitop.conf, docs/man/nvitop.1.scd "FILES"): an INI-style text of
 * "key = value" lines under [monitor], [layout], [collect] and [cluster] headers, with comments
 * from a "#" or
 * ";" at the start of a line or after a blank.  Parsing and formatting are pure (settings.c, also
 * built into the fuzz target); reading, locating and the atomic save are in settings_file.c.
 *
 * Precedence (applied by the caller, src/cmd/nvitop/main.c): command line > environment >
 * user file > system file > defaults.  A file only changes the keys it names.
 */
#ifndef NVITOP_SRC_SETTINGS_SETTINGS_H
#define NVITOP_SRC_SETTINGS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/text/strbuf.h"
#include "view/config.h"
#include "view/processes/process_table.h"

/* What a history graph of the host panel's right-hand side plots. */
enum tui_graph_metric {
    TUI_GRAPH_GPU_UTIL = 0,     /* GPU utilization (%) */
    TUI_GRAPH_MEMORY,           /* GPU memory used (%) */
    TUI_GRAPH_POWER,            /* power draw (% of the power limit) */
    TUI_GRAPH_PCIE_RX,          /* PCIe receive throughput (MiB/s, scaled to the window's peak) */
    TUI_GRAPH_PCIE_TX,          /* PCIe transmit throughput */
    TUI_GRAPH_MEMORY_BANDWIDTH, /* memory-bus busy time (%) */
    TUI_GRAPH_METRIC_COUNT
};

/* The [collect] section: nvitop-collect's defaults (its command line wins).  Zero or empty: the
 * program's own default. */
enum tui_collect_format {
    TUI_COLLECT_FORMAT_AUTO = 0, /* from the output file's extension */
    TUI_COLLECT_FORMAT_CSV,
    TUI_COLLECT_FORMAT_JSONL
};

struct tui_collect_settings {
    enum tui_collect_format format;
    double interval_s; /* sampling interval, 0.25 s or more */
    double every_s;    /* seconds between rows */
    char tag[64];
    bool all_processes;
    bool cumulative;
};

/* The [cluster] section: the cluster view's table (nvitop --hosts, --prometheus;
 * docs/cluster.md, "Settings"). */
#define TUI_CLUSTER_COLUMN_COUNT   13
#define TUI_CLUSTER_COLUMN_HISTORY 11 /* the bit of "history" */
#define TUI_CLUSTER_COLUMNS_ALL    ((1u << TUI_CLUSTER_COLUMN_COUNT) - 1)
/* The columns after NODE, in the table's order: host, gpus, mig, util, max, memory, power, temp,
 * procs, age, health, history, users; bit i of tui_cluster_settings.columns is column i. */
extern const char *const tui_cluster_column_names[TUI_CLUSTER_COLUMN_COUNT];
#define TUI_CLUSTER_GROUP_MAX         96
#define TUI_CLUSTER_HISTORY_DEFAULT_S 600.0
#define TUI_CLUSTER_HISTORY_MIN_S     20.0
#define TUI_CLUSTER_HISTORY_MAX_S     3600.0

struct tui_cluster_settings {
    unsigned columns;                  /* the columns shown; TUI_CLUSTER_COLUMNS_ALL by default */
    bool history_named;                /* columns lists history (-1 shows it only then) */
    double history_s;                  /* the history column's window, seconds */
    char group[TUI_CLUSTER_GROUP_MAX]; /* a pattern over the node name grouping rows; "" none */
};

#define TUI_GRAPH_HEIGHT_MIN     2
#define TUI_GRAPH_HEIGHT_MAX     10
#define TUI_GRAPH_HEIGHT_DEFAULT 5

struct tui_settings {
    enum view_display_mode mode;
    bool light;    /* theme = light */
    bool colorful; /* colors = colorful */
    struct view_thresholds thresholds;
    double interval_s; /* 0: nvitop's default cadence */
    enum view_sort_order sort;
    bool reverse; /* the opposite of the column's default direction */
    bool hide_host;
    bool hide_processes;
    bool hide_bandwidth; /* the device panel's PCIe/NVLink column (from 140 columns) */
    enum tui_graph_metric graph_upper;
    enum tui_graph_metric graph_lower;
    int graph_height; /* rows of each right-hand graph, TUI_GRAPH_HEIGHT_MIN..MAX */
    struct tui_collect_settings collect;
    struct tui_cluster_settings cluster;
};

/* A problem found in a file: line is 0 when it concerns the whole file (unreadable). */
typedef void (*tui_settings_warn_fn)(void *context, const char *file, unsigned line,
                                     const char *message);

/* The built-in defaults (nvitop 1.7's behaviour).  Pure. */
void tui_settings_defaults(struct tui_settings *settings);

/*
 * Apply the keys of a settings text (len bytes, NULs allowed and rejected per line) to *settings.
 * A bad line (malformed, unknown section or key, bad value) is reported through warn (may be
 * NULL) with file (a name for messages) and its line number, and leaves that key as it was.
 * Returns the number of warnings.  Pure apart from warn; never fails.
 */
unsigned tui_settings_parse(struct tui_settings *settings, const char *text, size_t len,
                            const char *file, tui_settings_warn_fn warn, void *context);

/* Append the settings as a complete, commented file to out.  Returns false when out of memory. */
bool tui_settings_format(const struct tui_settings *settings, struct strbuf *out);

/* Names used in the file, for messages and the help screen: "gpu-util", "memory", ... */
const char *tui_graph_metric_name(enum tui_graph_metric metric);

/* Throughputs (MiB/s) rather than percentages: the PCIe metrics. */
bool tui_graph_metric_is_rate(enum tui_graph_metric metric);

/* The title of a graph as the panel labels it: "UTL", "MEM", "PWR", "RX", "TX", "MBW". */
const char *tui_graph_metric_label(enum tui_graph_metric metric);

/*
 * settings_file.c: where the files are and how they are read and written.
 */

/* The user file: $XDG_CONFIG_HOME/nvitop/nvitop.conf, or ~/.config/nvitop/nvitop.conf when
 * XDG_CONFIG_HOME is unset, empty or relative (the XDG rule).  Returns a malloc'd path, or NULL
 * when neither variable gives one. */
char *tui_settings_user_path(void);

/* The system file: $NVITOP_SYSTEM_CONFIG when set (for packagers and tests), else
 * /etc/nvitop/nvitop.conf.  Not owned by the caller. */
const char *tui_settings_system_path(void);

/* Apply the file at path to *settings.  A missing file is silent when quiet_missing (the default
 * locations); any other problem is warned about as in tui_settings_parse().  Returns the number
 * of warnings. */
unsigned tui_settings_load(struct tui_settings *settings, const char *path, bool quiet_missing,
                           tui_settings_warn_fn warn, void *context);

/* Write the settings to path atomically: a temporary file in the same directory, flushed to disk,
 * then renamed over path, so that a crash leaves the old file or the new one, never half of one.
 * The directory is created (0700) when missing; a symbolic link is followed (its target is
 * replaced).  Returns 0 or an errno value. */
int tui_settings_save(const struct tui_settings *settings, const char *path);

#endif /* NVITOP_SRC_SETTINGS_SETTINGS_H */
