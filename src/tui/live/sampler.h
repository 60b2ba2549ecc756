/*
 * The sampler: a thread with its own library context that takes snapshots on the monitor's
 * cadence and hands them to the UI thread, so that a slow driver never delays a key press
 * (docs/nvitop-behaviour.md §3.16; on real hardware a PCIe query blocks 20 ms per GPU and driver
 * calls can stall for seconds).  It also delivers signals to processes, because the context that
 * checks process identity belongs to this thread.
 *
 * All functions are called from the UI thread; the sampler synchronises internally.
 */
#ifndef NVITOP_SRC_TUI_LIVE_SAMPLER_H
#define NVITOP_SRC_TUI_LIVE_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

#include "tui/live/watch.h"

struct rec_writer;
struct tree_hosts;

struct sampler;

/* A process to signal: its identity as seen in a snapshot. */
struct sampler_target {
    uint32_t pid;
    double create_time;
};

/* Outcome of the last signal request. */
struct sampler_signal_result {
    size_t delivered;   /* processes that received the signal */
    size_t gone;        /* skipped: exited or pid recycled (identity check failed) */
    size_t denied;      /* the kernel refused (another user's process) */
    uint32_t first_pid; /* first process that was not signalled, for the message; 0 when none */
};

/* What to sample and how often (docs/nvitop-behaviour.md §3.16). */
struct sampler_schedule {
    unsigned flags;          /* every snapshot: devices (fast) and host */
    double period_s;         /* between snapshots */
    unsigned slow_flags;     /* replace NVT_SAMPLE_DEVICES_FAST when the slow fields are due */
    double slow_period_s;    /* between full device readings */
    unsigned process_flags;  /* added when the process list is due */
    double process_period_s; /* between process lists (at least period_s) */
    double watch_period_s;   /* between readings of a watched process (sampler_watch) */
    /* Optional (NULL: none): every snapshot with a process list is appended to this recording from
     * the sampling thread, with its GPU processes' ancestors (`nvitop --record`).  Lent: the
     * caller closes it after sampler_stop(), not after a stop that gave up waiting. */
    struct rec_writer *recorder;
};

/*
 * Start sampling on schedule (the first snapshot, with processes, is taken at once) with ctx, or,
 * when ctx is NULL, with a context opened from options (NULL: defaults).  A ctx given here is
 * lent: the sampling thread uses it until sampler_stop() returns, and it is never closed here.
 * Returns NULL with a message in error when the context cannot be opened or the thread cannot
 * start.  Stop with sampler_stop().
 */
struct sampler *sampler_start(nvt_context *ctx, const struct nvt_options *options,
                              const struct sampler_schedule *schedule, char *error,
                              size_t error_size);

/* Stop the thread, close the context and free everything.  Returns within one driver call.
 * Accepts NULL. */
void sampler_stop(struct sampler *sampler);

/*
 * Stop the thread, but wait at most wait_s for a snapshot or signal delivery in progress.  Returns
 * true when the thread has ended and everything is freed, as after sampler_stop() (a lent context
 * is the caller's again).  Returns false when the thread is still inside a library call after
 * wait_s (a stalled driver): it is left to finish that call and then frees the sampler itself,
 * and a lent context stays in its use, so the caller must neither use nor close that context for
 * the rest of the process.  Accepts NULL (true).
 */
bool sampler_stop_within(struct sampler *sampler, double wait_s);

/* A descriptor that becomes readable when a new snapshot or a signal result is ready. */
int sampler_fd(const struct sampler *sampler);

/* The newest snapshot not yet taken, or NULL.  The caller owns it (nvt_snapshot_free()).  Older
 * snapshots the UI never took are freed by the sampler. */
struct nvt_snapshot *sampler_take(struct sampler *sampler);

/* As sampler_take(), and the tree view's processes read with that snapshot (tree_hosts.h), or
 * NULL: read only for snapshots with a process list while process_flags has TREE_HOSTS_FLAG.
 * The caller owns *tree (tree_hosts_free()). */
struct nvt_snapshot *sampler_take_tree(struct sampler *sampler, struct tree_hosts **tree);

/* Replace the schedule's flags, slow_flags and process_flags from the next snapshot on (what the
 * screen shows changed: a panel hidden, bandwidth shown).  When process_flags gains bits, a
 * snapshot with processes is taken at once; when slow_flags gains bits, one with the slow
 * fields. */
void sampler_set_flags(struct sampler *sampler, unsigned flags, unsigned slow_flags,
                       unsigned process_flags);

/*
 * Read /proc only for these GPU processes (copied) from the next snapshot on, the others keeping
 * their last reading (nvt_snapshot_focus()); pids NULL reads all again.  urgent: a snapshot with
 * processes is taken at once (rows scrolled into view must show fresh values at the next frame).
 * Ignored while a recording is written (it needs every process).
 */
void sampler_set_focus(struct sampler *sampler, const uint32_t *pids, size_t count, bool urgent);

/* Take a snapshot with processes now instead of at the next tick (the refresh keys). */
void sampler_refresh(struct sampler *sampler);

/*
 * Watch one process besides the snapshots (the metrics screen): a reading of its device, that
 * device's process list and its host process at once and then every watch_period_s, until the
 * next call.  target NULL stops watching.  The readings carry generation; those of an earlier
 * call are never handed out after this one.
 */
void sampler_watch(struct sampler *sampler, const struct watch_target *target, unsigned generation);

/* The oldest reading of the watched process not yet taken (call until false: a few may be
 * waiting).  The caller owns *out (watch_sample_fini()).  Readings other than the first and an
 * exit arrive with the next snapshot's notification rather than one of their own. */
bool sampler_take_watch(struct sampler *sampler, struct watch_sample *out);

/* Queue signal_number for the targets (copied); any earlier unfinished request is replaced.  Each
 * target is checked (pid + create time) just before its signal; afterwards a fresh snapshot is
 * taken.  Returns false when out of memory. */
bool sampler_send_signal(struct sampler *sampler, const struct sampler_target *targets,
                         size_t count, int signal_number);

/* The result of the last finished signal request, once: returns false when there is none new. */
bool sampler_signal_result(struct sampler *sampler, struct sampler_signal_result *out);

/* A change of the recording (--record) for the monitor's note line, once: "Recording paused: the
 * disk is full …" or "Recording again", copied to out; false when there is none. */
bool sampler_take_record_note(struct sampler *sampler, char *out, size_t size);

#endif /* NVITOP_SRC_TUI_LIVE_SAMPLER_H */
