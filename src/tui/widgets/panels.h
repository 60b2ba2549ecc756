/*
 * The three panels of the main screen (docs/nvitop-behaviour.md §3.3): device, host and process
 * panel.  Each reports its height for a layout and draws itself at a row of the main screen's stack
 * (the canvas origin scrolls the stack).  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_WIDGETS_PANELS_H
#define NVITOP_SRC_TUI_WIDGETS_PANELS_H

#include <stdbool.h>

#include "tui/app.h"
#include "tui/canvas.h"

/* The bandwidth column of the device panel: BANDWIDTH_WIDTH cells between two borders, at the
 * right of terminals at least BANDWIDTH_MIN_WIDTH wide (the bars keep 100 columns). */
#define BANDWIDTH_WIDTH     39
#define BANDWIDTH_MIN_WIDTH 140

/* Device panel: the clock line, then the device table (full or compact). */
int device_panel_height(const struct tui_app *app, bool compact);
void device_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact,
                       double wall_s);

/* The column of the bandwidth column's left border, or 0 when the terminal is too narrow for it
 * (or nothing is shown).  The PCIe and NVLink throughputs are sampled only while it is > 0 or a
 * graph plots them. */
int device_panel_bandwidth_col(const struct tui_app *app);

/* Host panel: compact = the once report's two host lines; full = history graphs (12 lines with
 * the default graph height, the row above is the device panel's bottom border, which it
 * redraws); hidden = no line. */
int host_panel_height(const struct tui_app *app, bool compact);

/* Whether the last layout shows the right-hand GPU graphs (full host panel, 100 columns). */
bool host_panel_shows_graphs(const struct tui_app *app);
void host_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact);

/* Update the host panel's histories from snap (app->snap, or an earlier frame of a recording),
 * taken at now_s (monotonic seconds, or a recording's own clock); in host_history.c. */
void host_panel_record(struct tui_app *app, const struct nvt_snapshot *snap, double now_s);

/* nvitop's leaf devices, which the GPU graphs average over: the MIG devices of a GPU that has
 * some, else the GPU itself (shown ones only). */
bool host_panel_is_leaf(const struct tui_app *app, size_t slot);

/* Process panel: caution and signal-hint line, header, rows, footer.  Drawing records the rows'
 * positions for the mouse and whether the selection is on screen. */
int process_panel_height(const struct tui_app *app, bool compact);
void process_panel_draw(struct tui_app *app, struct canvas *canvas, int y, bool compact);

/* The signal keys' hint "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)", ending at column
 * right of row y (the main screen's caution line, the tree view's header). */
void signal_hint_draw(struct canvas *canvas, int y, int right);

/* The same hint inside a cyan reverse header (the tree view's), a blank before it, as nvitop
 * draws it there: keys on yellow, signal names on red (shown reversed: yellow and red on cyan). */
void signal_hint_draw_header(struct canvas *canvas, int y, int right);

/* The process row drawn at stack row y, or -1. */
int process_panel_row_at(const struct tui_app *app, int y);

#endif /* NVITOP_SRC_TUI_WIDGETS_PANELS_H */
