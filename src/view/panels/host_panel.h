/*
 * The two host lines of the once report (docs/nvitop-behaviour.md §2.4): CPU bar with uptime and
 * the load average, then the MEM bar with used memory and the SWP bar.  Pure.
 */
#ifndef NVITOP_SRC_VIEW_PANELS_HOST_PANEL_H
#define NVITOP_SRC_VIEW_PANELS_HOST_PANEL_H

#include <stddef.h>

#include <nvitop/host.h>

#include "view/draw/line.h"

/* "Load Average:  0.13  0.13  0.07" (each "%5.2f" cut to 5 cells, "9999+" from 10000, "N/A"
 * when the OS has none).  Writes at most size bytes and returns the full length. */
size_t view_load_average_text(char *buf, size_t size, const struct nvt_host_state *host);

/* Append the two host lines for a report of width cells (>= 79). */
void view_host_lines(const struct nvt_host_state *host, size_t width, struct view_lines *out);

#endif /* NVITOP_SRC_VIEW_PANELS_HOST_PANEL_H */
