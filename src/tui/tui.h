/*
 * The interactive monitor (curses).  src/cmd/nvitop/main.c calls tui_run() after parsing the
 * command line; everything else about the monitor is private to src/tui/.
 */
#ifndef NVITOP_SRC_TUI_TUI_H
#define NVITOP_SRC_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/context.h>

#include "settings/settings.h"
#include "view/config.h"

struct rec_writer;
struct tui_source;

/* How the monitor runs.  One source of truth per option: the command line, the environment and
 * the settings files are merged once, into settings (src/cmd/nvitop/cli/settings_resolve.c), and
 * view is derived from them for the view layer, which cannot see the settings (run_config.c). */
struct tui_config {
    struct view_config view;
    bool readonly; /* --readonly or the `readonly` token of NVITOP_MONITOR_MODE */
    const struct nvt_options *lib_options; /* how to open library contexts (sampling thread) */
    /* Optional: an open context lent to the monitor, so that the driver is initialised once per
     * process.  The sampling thread uses it while tui_run() runs, so the caller must not touch it
     * until tui_run() returns; it stays open and the caller's.  NULL: the monitor opens (and
     * closes) a context of its own from lib_options. */
    nvt_context *context;
    /* Optional: the recording `--record FILE` appends to (record/file/writer.h), lent like context.
     */
    struct rec_writer *recorder;
    /* Optional: where the snapshots come from instead of the live machine (a recording's source,
     * replay_source_open()); tui_run() takes it over and stops it, also when it fails.  NULL: the
     * live source, a sampler over context or lib_options. */
    const struct tui_source *source;
    /* The effective settings: the monitor starts with their display mode, interval (0: nvitop's
     * cadence, docs/nvitop-behaviour.md §3.16), sort order, layout and graphs, and the S key saves
     * the current ones to settings_path (NULL: saving is not possible, e.g. without $HOME). */
    struct tui_settings settings;
    const char *settings_path;
};

/* How tui_run() ended. */
enum tui_result {
    /* The terminal cannot be used (curses failed to start): error holds the reason for nvitop's
     * "ERROR: Failed to initialize `curses` (<reason>)" message and the caller falls back to once
     * mode. */
    TUI_FAILED = -1,
    /* The user quit; a lent context is the caller's again, for the once report nvitop prints
     * after the monitor. */
    TUI_QUIT = 0,
    /* The user quit while the sampling thread was stuck in a driver call (a stalled driver): the
     * monitor did not wait for it.  The thread goes on inside that call, so a lent context must
     * be neither used nor closed again (no report), and the process should leave without running
     * the driver library's destructors (_exit), which could wait for the call too. */
    TUI_QUIT_DRIVER_BUSY = 1,
};

/*
 * Run the monitor until the user quits.  Quitting waits at most half a second for a snapshot in
 * progress.  The terminal is always restored before returning.
 */
enum tui_result tui_run(const struct tui_config *config, char *error, size_t error_size);

#endif /* NVITOP_SRC_TUI_TUI_H */
