/*
 * The cluster screen: the monitor for nvitop --hosts / --prometheus.  One line per node, sorted
 * with nvitop's sort keys, refreshed by a background poller (src/cluster/fetch/poller.h) so that
 * the screen never waits for the network; nodes that do not answer are shown with the reason.
 * Read-only by construction: it has no action on remote processes.  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_CLUSTER_CLUSTER_TUI_H
#define NVITOP_SRC_TUI_CLUSTER_CLUSTER_TUI_H

#include <stddef.h>

#include "cluster/fetch/poller.h"
#include "cluster/group.h"
#include "view/config.h"

struct cluster_tui_config {
    struct view_config view;              /* ascii, light, colorful */
    const char *source;                   /* shown in the title: "3 hosts", the Prometheus URL */
    unsigned columns;                     /* the table's columns (enum table_column bits) */
    const struct node_grouping *grouping; /* rows grouped (a GROUP column first), or NULL */
};

/* Run until the user quits.  Returns 0, or -1 with the reason in error when curses cannot
 * start (the caller prints the once table instead).  The poller stays the caller's. */
int cluster_tui_run(const struct cluster_tui_config *config, struct poller *poller, char *error,
                    size_t error_size);

#endif /* NVITOP_SRC_TUI_CLUSTER_CLUSTER_TUI_H */
