/*
 * The cluster screen's node view: one remote node drawn by the monitor's own view code (device
 * panel and process table) from a snapshot built of its metrics (src/cluster/remote_snapshot.h).
 * Read-only: it has no key that acts on a process.  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_CLUSTER_CLUSTER_NODE_H
#define NVITOP_SRC_TUI_CLUSTER_CLUSTER_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"
#include "cluster/remote_snapshot.h"
#include "tui/canvas.h"
#include "view/config.h"

struct node_view {
    char address[sizeof(((struct node *)0)->address)];
    struct remote_snapshot *rs; /* NULL until the node's first answer */
    char error[256];            /* why the last answer could not be drawn */
    int scroll;                 /* lines scrolled off the top */
};

/* Start showing the node at address (waiting for its answer). */
void node_view_open(struct node_view *v, const char *address);

/* A new answer of the node: rebuilt into the snapshot drawn next (body is consumed). */
void node_view_update(struct node_view *v, char *body, size_t len);

/* Free what the view holds. */
void node_view_close(struct node_view *v);

/* Draw the view; n is the node's current entry (state, age), or NULL. */
void node_view_draw(struct node_view *v, const struct view_config *config, const struct node *n,
                    struct canvas *canvas, int rows, int cols);

#endif /* NVITOP_SRC_TUI_CLUSTER_CLUSTER_NODE_H */
