/*
 * The cluster screen's users view ('u'): who holds the fleet, users listed by GPU memory and GPU
 * count across all nodes (src/cluster/fleet_users.h).  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_CLUSTER_CLUSTER_USERS_H
#define NVITOP_SRC_TUI_CLUSTER_CLUSTER_USERS_H

#include <stddef.h>

#include "cluster/node.h"
#include "tui/canvas.h"

/* Draw the users of nodes[0..count) from the top of the canvas; *scroll (lines scrolled off the
 * top) is kept within the list. */
void cluster_users_draw(const struct node *nodes, size_t count, int *scroll, struct canvas *canvas,
                        int rows, int cols);

#endif /* NVITOP_SRC_TUI_CLUSTER_CLUSTER_USERS_H */
