/*
 * The cluster screen's key list ('h' or '?'; any key returns).  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_CLUSTER_CLUSTER_HELP_H
#define NVITOP_SRC_TUI_CLUSTER_CLUSTER_HELP_H

#include "tui/canvas.h"

/* Draw the key list from the top of the canvas (rows high). */
void cluster_help_draw(struct canvas *canvas, int rows);

#endif /* NVITOP_SRC_TUI_CLUSTER_CLUSTER_HELP_H */
