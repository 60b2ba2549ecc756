/*
 * Where the monitor's snapshots come from (docs/architecture.md, "Snapshot sources"): the live
 * machine (source_live.c, the sampler over a library context) or a recording (replay_source.c, a
 * reader over a file).  The event loop (tui.c) and the screens only talk to this interface, so that
 * every screen draws a replayed moment with the same code as a live one.
 *
 * Sending signals is an operation of the live source only: a recording's source has no signal
 * table at all (signals == NULL), so a replay is read-only by construction, not by a flag each key
 * handler would have to check.
 *
 * All operations are called from the UI thread.
 */
#ifndef NVITOP_SRC_TUI_SOURCE_H
#define NVITOP_SRC_TUI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/snapshot.h>

#include "tui/live/sampler.h"
#include "tui/live/watch.h"

struct canvas;

/* What a source may lack, for the screens that need it. */
enum tui_source_feature {
    TUI_SOURCE_ENVIRON = 0, /* process environments (the environment screen) */
    TUI_SOURCE_CHILDREN,    /* the children of GPU processes that are not on a GPU (tree view) */
};

struct tui_source_ops {
    /* A descriptor that becomes readable when take() has something, or -1 (none to poll). */
    int (*fd)(const void *impl);
    /* The newest snapshot not yet taken, or NULL; the caller owns it and frees it with
     * snapshot_free().  *jumped is set when it does not follow the one taken before (a replay
     * moved elsewhere): what was derived from earlier snapshots (graphs) is then stale. */
    struct nvt_snapshot *(*take)(void *impl, bool *jumped);
    /* Free a snapshot take() returned.  Accepts NULL. */
    void (*snapshot_free)(struct nvt_snapshot *snap);
    /* What the screen needs from now on (NVT_SAMPLE_* bits: every snapshot, the slow ones and
     * those with processes, as sampler_set_flags()); a recording has what it has. */
    void (*set_flags)(void *impl, unsigned flags, unsigned slow_flags, unsigned process_flags);
    /* Take a snapshot with processes now (the refresh keys). */
    void (*refresh)(void *impl);
    /* Read /proc only for these GPU processes from now on (sampler_set_focus(); pids NULL: all),
     * at once when urgent.  NULL for a source that reads nothing (a recording). */
    void (*focus)(void *impl, const uint32_t *pids, size_t count, bool urgent);
    /* Watch one process for the metrics screen (sampler.h, sampler_watch); NULL stops. */
    void (*watch)(void *impl, const struct watch_target *target, unsigned generation);
    /* The oldest reading of the watched process not yet taken; false when none. */
    bool (*take_watch)(void *impl, struct watch_sample *out);
    /* Milliseconds until take() may have something without the descriptor waking us (a replay
     * playing on), or -1 when never. */
    int (*timeout_ms)(const void *impl, double now_s);
    /* The host processes beyond the GPU processes of snap (a snapshot take() returned), for the
     * tree view: the parent map (pids[i]'s parent is ppids[i]; one allocation, *pids, freed with
     * free()) and one process (NULL when unknown; freed with nvt_host_process_free()). */
    bool (*parent_map)(void *impl, const struct nvt_snapshot *snap, uint32_t **pids,
                       uint32_t **ppids, size_t *count);
    struct nvt_host_process *(*host_process)(void *impl, const struct nvt_snapshot *snap,
                                             uint32_t pid);
    /* A tree view's reads are done (lets the live context drop stale readings).  May be NULL. */
    void (*host_pass_end)(void *impl);
    /* The live context for /proc reads of the UI thread (the environment screen), or NULL when
     * the source has none. */
    nvt_context *(*host_context)(void *impl);
    /* NULL when the feature is available, else why not ("not recorded"). */
    const char *(*unavailable)(const void *impl, enum tui_source_feature feature);
    /* Replay only (NULL for the live source): the wall clock shown for the current moment, the
     * keys of the time line (true when the key was one of them and the screen must be redrawn)
     * and the time line itself, drawn on row y. */
    double (*shown_time)(const void *impl);
    bool (*key)(void *impl, int key, double now_s);
    void (*draw_timeline)(void *impl, struct canvas *canvas, int y, int cols);
    /* Replay only (may be NULL): calls fn with each frame recorded less than window_s before the
     * one take() returned last, oldest first, at most max of them, so that graphs of a moment
     * jumped to start with what led to it.  A frame that cannot be decoded ends the walk. */
    void (*each_before)(void *impl, double window_s, size_t max,
                        void (*fn)(void *ctx, const struct nvt_snapshot *snap), void *ctx);
    /* A short message for the user (a damaged frame, "no further event"), once: copied to out
     * (size bytes) and true, or false when there is none. */
    bool (*take_note)(void *impl, char *out, size_t size);
    /* Stop and free, waiting at most wait_s (< 0: as long as it takes) for a snapshot in
     * progress.  Returns false when a stalled driver call kept the live sampler (see
     * sampler_stop_within()). */
    bool (*stop)(void *impl, double wait_s);
};

/* Signals: the live source only. */
struct tui_source_signals {
    bool (*send)(void *impl, const struct sampler_target *targets, size_t count, int signal_number);
    bool (*result)(void *impl, struct sampler_signal_result *out);
};

struct tui_source {
    const struct tui_source_ops *ops;
    const struct tui_source_signals *signals; /* NULL: read-only by construction */
    void *impl;
};

/* The live source: a sampler started with schedule and a lazily opened /proc-only context for the
 * UI thread (with options' proc root).  ctx and options as sampler_start(); both lent.  False with
 * a message in error. */
bool source_live_start(struct tui_source *out, nvt_context *ctx, const struct nvt_options *options,
                       const struct sampler_schedule *schedule, char *error, size_t error_size);

/* ctx's parent map (nvt_host_ppid_map()) as the parent_map operation hands it out.  False when
 * ctx is NULL or the map cannot be read. */
bool source_read_parent_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids, size_t *count);

/* Wait at most wait_ms for the live source's first snapshot (nothing for other sources). */
void source_wait_first(const struct tui_source *source, int wait_ms);

#endif /* NVITOP_SRC_TUI_SOURCE_H */
