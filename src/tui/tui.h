/*
 * The interactive monitor (curses).  src/cmd/nvitop/main.c calls tui_run() after parsing the
 * command line; everything else about the monitor is private to src/tui/.
 */
#ifndef NVITOP_SRC_TUI_TUI_H
#define NVITOP_SRC_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/context.h>

#include "view/config.h"

struct tui_config {
    struct view_config view;
    enum view_display_mode mode;
    double interval_s; /* --interval; 0 means nvitop's defaults (SPEC.md §3.16) */
    bool readonly;     /* --readonly or the `readonly` token of NVITOP_MONITOR_MODE */
    const struct nvt_options *lib_options; /* how to open library contexts (sampling thread) */
    /* Optional: an open context lent to the monitor, so that the driver is initialised once per
     * process.  The sampling thread uses it while tui_run() runs, so the caller must not touch it
     * until tui_run() returns; it stays open and the caller's.  NULL: the monitor opens (and
     * closes) a context of its own from lib_options. */
    nvt_context *context;
};

/*
 * Run the monitor until the user quits.  Returns 0 after a normal quit, with the last snapshot
 * taken left for the caller to print as the once report (nvitop prints the final screen once
 * more on exit).  Returns -1 when the terminal cannot be used (curses failed to start); error then
 * holds the reason for nvitop's "ERROR: Failed to initialize `curses` (<reason>)" message and the
 * caller falls back to once mode.  The terminal is always restored before returning.
 */
int tui_run(const struct tui_config *config, char *error, size_t error_size);

#endif /* NVITOP_SRC_TUI_TUI_H */
