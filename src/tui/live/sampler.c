/*
 * The sampling thread (see sampler.h).  The UI and the thread share one mutex-guarded mailbox:
 * the newest snapshot, a refresh request, a signal request and its result.  The thread sleeps on a
 * condition variable with a monotonic deadline, so stopping it never waits for a full period.
 * A driver call can stall for seconds, so a stop may also give up waiting: the thread is then
 * abandoned and frees the sampler itself when the call returns (sampler_stop_within).
 */
#include "tui/live/sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/process.h>

#include "record/file/writer.h"
#include "record/related.h"
#include "record/sample_flags.h"
#include "tui/live/tree_hosts.h"
#include "util/sys/clock.h"

/* nvitop waits this long after delivering signals before looking again (docs/nvitop-behaviour.md
 * §3.7). */
#define SIGNAL_SETTLE_NS 250000000ULL

struct sampler {
    nvt_context *ctx;
    bool owns_ctx; /* opened here (closed by sampler_stop), not lent by the caller */
    unsigned flags;
    unsigned process_flags;
    unsigned slow_flags;
    uint64_t period_ns;
    uint64_t process_period_ns;
    uint64_t slow_period_ns;
    uint64_t watch_period_ns;
    struct rec_writer *recorder;    /* used by the sampling thread only; NULL after a write error */
    bool recorder_full;             /* the disk was full at the last recorded snapshot */
    char record_note[96];           /* for the monitor, under lock: "" or a change of the above */
    struct related_cache ancestors; /* the recording's, sampling thread only */
    const char *proc_root;          /* the options' (lent), for tree_ctx */
    nvt_context *tree_ctx; /* the tree view's host-only context, sampling thread only (lazily) */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t done; /* signalled when the thread leaves its loop */
    int pipe_fds[2];
    /* Guarded by lock. */
    bool stop;
    unsigned next_flags; /* from sampler_set_flags(): flags, slow_flags and process_flags */
    unsigned next_slow_flags;
    unsigned next_process_flags;
    bool flags_changed;
    bool finished;  /* the thread has left its loop and no longer uses the context */
    bool abandoned; /* the UI gave up waiting: the thread frees the sampler on its way out */
    bool refresh;
    bool slow_now;           /* slow_flags gained bits: a snapshot with the slow fields now */
    bool resample_slow;      /* the next snapshot must carry the slow fields */
    bool resample_processes; /* the next snapshot must carry processes */
    bool processes_now;      /* a snapshot with processes now (a new focus), not the slow fields */
    bool focus_changed;      /* next_focus is new: the thread hands it to the context */
    bool next_focus_all;
    uint32_t *next_focus; /* owned; NULL with next_focus_all */
    size_t next_focus_count;
    struct nvt_snapshot *pending;
    struct tree_hosts *pending_tree; /* the tree view's processes of pending, or NULL */
    bool watching;
    bool watch_now; /* a new target: read it at once */
    struct watch_target watch;
    unsigned watch_generation;
    struct watch_queue watch_queue; /* readings not yet taken by the UI */
    struct sampler_target *signal_targets;
    size_t signal_count;
    int signal_number;
    bool have_result;
    struct sampler_signal_result result;
};

/* Close the context if the sampler opened it; a lent one goes back to its owner. */
static void release_context(struct sampler *sampler) {
    if (sampler->owns_ctx) {
        nvt_close(sampler->ctx);
    }
    sampler->ctx = NULL;
}

/* Free everything once the thread has ended or is on its way out. */
static void destroy(struct sampler *sampler) {
    pthread_mutex_destroy(&sampler->lock);
    pthread_cond_destroy(&sampler->wake);
    pthread_cond_destroy(&sampler->done);
    nvt_snapshot_free(sampler->pending);
    tree_hosts_free(sampler->pending_tree);
    nvt_close(sampler->tree_ctx);
    watch_queue_clear(&sampler->watch_queue);
    free(sampler->signal_targets);
    free(sampler->next_focus);
    related_cache_fini(&sampler->ancestors);
    close(sampler->pipe_fds[0]);
    close(sampler->pipe_fds[1]);
    release_context(sampler);
    free(sampler);
}

static void notify_ui(struct sampler *sampler) {
    ssize_t written = write(sampler->pipe_fds[1], "s", 1);
    (void)written; /* A full pipe already tells the UI to look. */
}

static void deliver_signals(struct sampler *sampler, struct sampler_target *targets, size_t count,
                            int signal_number) {
    struct sampler_signal_result result = {0};
    for (size_t i = 0; i < count; i++) {
        nvt_status status =
            nvt_process_signal(sampler->ctx, targets[i].pid, targets[i].create_time, signal_number);
        if (status == NVT_OK) {
            result.delivered++;
            continue;
        }
        if (status == NVT_ERR_NO_PERMISSION) {
            result.denied++;
        } else {
            result.gone++;
        }
        if (result.first_pid == 0) {
            result.first_pid = targets[i].pid;
        }
    }
    if (result.delivered > 0) {
        struct timespec settle = {0, (long)SIGNAL_SETTLE_NS};
        nanosleep(&settle, NULL);
    }
    pthread_mutex_lock(&sampler->lock);
    sampler->result = result;
    sampler->have_result = true;
    sampler->refresh = true;
    pthread_mutex_unlock(&sampler->lock);
    free(targets);
    notify_ui(sampler);
}

static void set_record_note(struct sampler *sampler, const char *text) {
    pthread_mutex_lock(&sampler->lock);
    snprintf(sampler->record_note, sizeof(sampler->record_note), "%s", text);
    pthread_mutex_unlock(&sampler->lock);
}

bool sampler_take_record_note(struct sampler *sampler, char *out, size_t size) {
    pthread_mutex_lock(&sampler->lock);
    bool have = sampler->record_note[0] != '\0';
    if (have) {
        snprintf(out, size, "%s", sampler->record_note);
        sampler->record_note[0] = '\0';
    }
    pthread_mutex_unlock(&sampler->lock);
    return have;
}

/* Append a snapshot to the recording.  A full disk (ENOSPC, EDQUOT) pauses recording, said once,
 * and the next snapshots try again (the writer resumes in a new segment); another write error
 * stops recording, not the monitor.  The messages reach the terminal after the session (stderr is
 * kept meanwhile). */
static void record_snapshot(struct sampler *sampler, const struct nvt_snapshot *snap) {
    struct related related;
    related_read_cached(sampler->ctx, &sampler->ancestors, snap, clock_monotonic_s(),
                        RELATED_MAX_AGE_S, &related);
    char error[256];
    if (rec_writer_append(sampler->recorder, snap, related.items, related.count, error,
                          sizeof(error))) {
        if (sampler->recorder_full) {
            fprintf(stderr, "nvitop: --record: recording again (a new segment starts here)\n");
            sampler->recorder_full = false;
            set_record_note(sampler, "Recording again");
        }
    } else if (rec_disk_full(errno)) {
        if (!sampler->recorder_full) {
            fprintf(stderr, "nvitop: --record: %s: not recording until there is room\n", error);
            sampler->recorder_full = true;
            set_record_note(sampler, "Recording paused: the disk is full (trying again)");
        }
    } else {
        fprintf(stderr, "nvitop: --record stopped: %s\n", error);
        sampler->recorder = NULL;
    }
    related_fini(&related);
}

/* The tree view's processes of snap, read with a host-only context of this thread's own: the
 * snapshots' context keeps its host readings for the GPU processes alone. */
static struct tree_hosts *read_tree(struct sampler *sampler, const struct nvt_snapshot *snap) {
    if (sampler->tree_ctx == NULL) {
        struct nvt_options options;
        nvt_options_init(&options);
        options.proc_root = sampler->proc_root;
        options.host_only = true;
        if (nvt_open(&options, &sampler->tree_ctx) != NVT_OK) {
            sampler->tree_ctx = NULL;
            return NULL; /* the UI reads them itself (source_live.c) */
        }
    }
    return tree_hosts_read(sampler->tree_ctx, snap);
}

/* Hand a new focus (sampler_set_focus) to the context; out of memory, every process is read. */
static void apply_focus(struct sampler *sampler) {
    pthread_mutex_lock(&sampler->lock);
    bool changed = sampler->focus_changed;
    bool all = sampler->next_focus_all;
    uint32_t *pids = sampler->next_focus;
    size_t count = sampler->next_focus_count;
    sampler->focus_changed = false;
    sampler->next_focus = NULL;
    pthread_mutex_unlock(&sampler->lock);
    if (changed && sampler->recorder == NULL &&
        nvt_snapshot_focus(sampler->ctx, all ? NULL : pids, all ? 0 : count) != NVT_OK) {
        nvt_snapshot_focus(sampler->ctx, NULL, 0);
    }
    free(pids);
}

static void take_snapshot(struct sampler *sampler, bool with_processes, bool with_slow) {
    struct nvt_snapshot *snap = NULL;
    apply_focus(sampler);
    unsigned process_flags = sampler->process_flags & ~(unsigned)TREE_HOSTS_FLAG;
    unsigned flags = sampler->flags | (with_processes ? process_flags : 0U);
    if (with_slow) {
        flags = (flags & ~(unsigned)NVT_SAMPLE_DEVICES_FAST) | sampler->slow_flags;
    }
    if (sampler->recorder != NULL && with_processes) {
        flags |= REC_SAMPLE_EXTRA; /* the frame holds what nvitop-record's hold */
    }
    if (nvt_snapshot_take(sampler->ctx, flags, &snap) != NVT_OK) {
        return; /* out of memory: try again at the next tick */
    }
    if (sampler->recorder != NULL && (snap->flags & NVT_SAMPLE_PROCESSES)) {
        record_snapshot(sampler, snap);
    }
    struct tree_hosts *tree = NULL;
    if ((sampler->process_flags & TREE_HOSTS_FLAG) && (snap->flags & NVT_SAMPLE_PROCESSES)) {
        tree = read_tree(sampler, snap);
    }
    pthread_mutex_lock(&sampler->lock);
    struct nvt_snapshot *old = sampler->pending;
    struct tree_hosts *old_tree = sampler->pending_tree;
    sampler->pending = snap;
    sampler->pending_tree = tree;
    /* A process list or slow fields (the bandwidth column's PCIe figures are read only with
     * them) the UI never saw must not be lost to a newer snapshot without them: the older one is
     * kept, and the next snapshot reads what either of the two had. */
    bool lost_processes = old != NULL && (old->flags & NVT_SAMPLE_PROCESSES) && !with_processes;
    bool lost_slow = old != NULL && (old->flags & NVT_SAMPLE_DEVICES) && !with_slow;
    if (lost_processes || lost_slow) {
        sampler->pending = old;
        sampler->pending_tree = old_tree;
        old = snap;
        old_tree = tree;
        sampler->resample_processes =
            sampler->resample_processes || lost_processes || with_processes;
        sampler->resample_slow = sampler->resample_slow || lost_slow || with_slow;
    }
    pthread_mutex_unlock(&sampler->lock);
    nvt_snapshot_free(old);
    tree_hosts_free(old_tree);
    notify_ui(sampler);
}

/* One reading of the watched process (the lock is not held), queued only if the target is still
 * the same when it is done.  The UI is told at once about a first reading and an exit; the others
 * wait for the next snapshot's notification (at most a period later), which saves the UI a
 * wake-up per reading.  notify false: a snapshot follows at once. */
static void take_watch_sample(struct sampler *sampler, const struct watch_target *target,
                              unsigned generation, bool first, bool notify) {
    struct watch_sample sample;
    if (!watch_sample_take(sampler->ctx, target, &sample)) {
        return; /* out of memory or no such device: try again at the next tick */
    }
    sample.generation = generation;
    sample.taken_s = clock_monotonic_s();
    bool urgent = first || sample.exited;
    pthread_mutex_lock(&sampler->lock);
    if (generation == sampler->watch_generation && sampler->watching) {
        watch_queue_push(&sampler->watch_queue, &sample);
    }
    pthread_mutex_unlock(&sampler->lock);
    watch_sample_fini(&sample);
    if (notify && urgent) {
        notify_ui(sampler);
    }
}

static struct timespec deadline_of(uint64_t ns) {
    struct timespec ts = {(time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL)};
    return ts;
}

static void *sampler_main(void *arg) {
    struct sampler *sampler = arg;
    uint64_t next_due = clock_monotonic_ns();
    uint64_t next_processes = next_due;
    uint64_t next_slow = next_due;
    uint64_t next_watch = next_due;
    pthread_mutex_lock(&sampler->lock);
    while (!sampler->stop) {
        if (sampler->signal_targets != NULL) {
            struct sampler_target *targets = sampler->signal_targets;
            size_t count = sampler->signal_count;
            int signal_number = sampler->signal_number;
            sampler->signal_targets = NULL;
            pthread_mutex_unlock(&sampler->lock);
            deliver_signals(sampler, targets, count, signal_number);
            pthread_mutex_lock(&sampler->lock);
            continue;
        }
        if (sampler->flags_changed) {
            /* Read by this thread only, so they are copied under the lock here. */
            sampler->flags = sampler->next_flags;
            sampler->slow_flags = sampler->next_slow_flags;
            sampler->process_flags = sampler->next_process_flags;
            sampler->flags_changed = false;
        }
        uint64_t now = clock_monotonic_ns();
        if (sampler->watching && (sampler->watch_now || now >= next_watch)) {
            struct watch_target target = sampler->watch;
            unsigned generation = sampler->watch_generation;
            bool first = sampler->watch_now;
            /* A snapshot due now tells the UI about both: one wake-up instead of two. */
            bool snapshot_follows = sampler->refresh || sampler->slow_now || now >= next_due;
            sampler->watch_now = false;
            pthread_mutex_unlock(&sampler->lock);
            take_watch_sample(sampler, &target, generation, first, !snapshot_follows);
            uint64_t period = sampler->watch_period_ns;
            if (first) {
                /* In step with the snapshots, so that every other reading shares their wake-up. */
                next_watch = next_due;
                while (next_watch > now + period) {
                    next_watch -= period;
                }
            } else {
                next_watch += period;
            }
            if (next_watch <= now) {
                next_watch = now + period; /* after a stall: no burst of catch-up readings */
            }
            pthread_mutex_lock(&sampler->lock);
            continue;
        }
        if (sampler->refresh || sampler->slow_now || sampler->processes_now || now >= next_due) {
            bool with_processes = sampler->refresh || sampler->resample_processes ||
                                  sampler->processes_now || now >= next_processes;
            bool with_slow =
                sampler->refresh || sampler->slow_now || sampler->resample_slow || now >= next_slow;
            /* Only for a new focus: the cadence of the others stays. */
            bool off_cadence = now < next_due && !sampler->refresh && !sampler->slow_now;
            sampler->refresh = false;
            sampler->slow_now = false;
            sampler->resample_slow = false;
            sampler->resample_processes = false;
            sampler->processes_now = false;
            pthread_mutex_unlock(&sampler->lock);
            if (with_processes) {
                /* Half a period of slack keeps the two cadences in step. */
                next_processes = now + sampler->process_period_ns - sampler->period_ns / 2;
            }
            if (with_slow) {
                next_slow = now + sampler->slow_period_ns - sampler->period_ns / 2;
            }
            take_snapshot(sampler, with_processes, with_slow);
            /* A fixed cadence: the time spent sampling is not added to the period, but a stall
             * longer than a period does not cause a burst of catch-up samples. */
            next_due += off_cadence ? 0 : sampler->period_ns;
            now = clock_monotonic_ns();
            if (next_due <= now) {
                next_due = now + sampler->period_ns;
            }
            pthread_mutex_lock(&sampler->lock);
            continue;
        }
        uint64_t wake_at = sampler->watching && next_watch < next_due ? next_watch : next_due;
        struct timespec deadline = deadline_of(wake_at);
        pthread_cond_timedwait(&sampler->wake, &sampler->lock, &deadline);
    }
    sampler->finished = true;
    bool abandoned = sampler->abandoned;
    pthread_cond_signal(&sampler->done);
    pthread_mutex_unlock(&sampler->lock);
    if (abandoned) {
        /* The UI has moved on (the thread is detached): nobody else will free the sampler. */
        destroy(sampler);
    }
    return NULL;
}

static bool init_sync(struct sampler *sampler) {
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) {
        return false;
    }
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&sampler->wake, &attr);
    if (rc == 0) {
        rc = pthread_cond_init(&sampler->done, &attr);
        if (rc != 0) {
            pthread_cond_destroy(&sampler->wake);
        }
    }
    pthread_condattr_destroy(&attr);
    if (rc != 0) {
        return false;
    }
    if (pthread_mutex_init(&sampler->lock, NULL) != 0) {
        pthread_cond_destroy(&sampler->wake);
        pthread_cond_destroy(&sampler->done);
        return false;
    }
    return true;
}

struct sampler *sampler_start(nvt_context *ctx, const struct nvt_options *options,
                              const struct sampler_schedule *schedule, char *error,
                              size_t error_size) {
    struct sampler *sampler = calloc(1, sizeof(*sampler));
    if (sampler == NULL) {
        snprintf(error, error_size, "%s", nvt_strerror(NVT_ERR_NO_MEMORY));
        return NULL;
    }
    sampler->flags = schedule->flags;
    sampler->process_flags = schedule->process_flags;
    sampler->next_flags = schedule->flags;
    sampler->next_slow_flags = schedule->slow_flags;
    sampler->next_process_flags = schedule->process_flags;
    sampler->period_ns = (uint64_t)(schedule->period_s * 1e9);
    double process_period = schedule->process_period_s > schedule->period_s
                                ? schedule->process_period_s
                                : schedule->period_s;
    sampler->process_period_ns = (uint64_t)(process_period * 1e9);
    sampler->slow_flags = schedule->slow_flags;
    sampler->slow_period_ns = (uint64_t)(schedule->slow_period_s * 1e9);
    /* A zero period would spin: nvitop's half second unless told otherwise. */
    sampler->watch_period_ns =
        (uint64_t)((schedule->watch_period_s > 0.0 ? schedule->watch_period_s : 0.5) * 1e9);
    sampler->recorder = schedule->recorder;
    sampler->proc_root = options != NULL ? options->proc_root : NULL;
    sampler->ctx = ctx;
    if (ctx == NULL) {
        nvt_status status = nvt_open(options, &sampler->ctx);
        if (status != NVT_OK) {
            snprintf(error, error_size, "%s", nvt_strerror(status));
            free(sampler);
            return NULL;
        }
        sampler->owns_ctx = true;
    }
    if (pipe2(sampler->pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(error, error_size, "pipe: %s", strerror(errno));
        release_context(sampler);
        free(sampler);
        return NULL;
    }
    if (!init_sync(sampler)) {
        snprintf(error, error_size, "cannot create the sampler's lock");
        goto fail_sync;
    }
    int rc = pthread_create(&sampler->thread, NULL, sampler_main, sampler);
    if (rc != 0) {
        snprintf(error, error_size, "cannot start the sampling thread: %s", strerror(rc));
        pthread_mutex_destroy(&sampler->lock);
        pthread_cond_destroy(&sampler->wake);
        pthread_cond_destroy(&sampler->done);
        goto fail_sync;
    }
    return sampler;

fail_sync:
    close(sampler->pipe_fds[0]);
    close(sampler->pipe_fds[1]);
    release_context(sampler);
    free(sampler);
    return NULL;
}

void sampler_stop(struct sampler *sampler) {
    if (sampler == NULL) {
        return;
    }
    pthread_mutex_lock(&sampler->lock);
    sampler->stop = true;
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
    pthread_join(sampler->thread, NULL);
    destroy(sampler);
}

bool sampler_stop_within(struct sampler *sampler, double wait_s) {
    if (sampler == NULL) {
        return true;
    }
    struct timespec deadline = deadline_of(clock_monotonic_ns() + (uint64_t)(wait_s * 1e9));
    pthread_mutex_lock(&sampler->lock);
    sampler->stop = true;
    pthread_cond_signal(&sampler->wake);
    while (!sampler->finished) {
        if (pthread_cond_timedwait(&sampler->done, &sampler->lock, &deadline) != 0) {
            break; /* ETIMEDOUT */
        }
    }
    if (!sampler->finished) {
        /* Decided under the lock, so exactly one side frees: the thread, once its call returns.
         * Nothing of the sampler may be touched after the unlock. */
        sampler->abandoned = true;
        pthread_t thread = sampler->thread;
        pthread_mutex_unlock(&sampler->lock);
        pthread_detach(thread);
        return false;
    }
    pthread_mutex_unlock(&sampler->lock);
    pthread_join(sampler->thread, NULL);
    destroy(sampler);
    return true;
}

int sampler_fd(const struct sampler *sampler) {
    return sampler->pipe_fds[0];
}

struct nvt_snapshot *sampler_take_tree(struct sampler *sampler, struct tree_hosts **tree) {
    /* A read shorter than the buffer emptied the pipe: no second read to learn it (EAGAIN).  A
     * byte written after it wakes the UI's poll again. */
    char buf[64];
    while (read(sampler->pipe_fds[0], buf, sizeof(buf)) == (ssize_t)sizeof(buf)) {
    }
    pthread_mutex_lock(&sampler->lock);
    struct nvt_snapshot *snap = sampler->pending;
    *tree = sampler->pending_tree;
    sampler->pending = NULL;
    sampler->pending_tree = NULL;
    pthread_mutex_unlock(&sampler->lock);
    return snap;
}

struct nvt_snapshot *sampler_take(struct sampler *sampler) {
    struct tree_hosts *tree = NULL;
    struct nvt_snapshot *snap = sampler_take_tree(sampler, &tree);
    tree_hosts_free(tree);
    return snap;
}

void sampler_set_flags(struct sampler *sampler, unsigned flags, unsigned slow_flags,
                       unsigned process_flags) {
    pthread_mutex_lock(&sampler->lock);
    bool more_processes = (process_flags & ~sampler->next_process_flags) != 0;
    bool more_slow = (slow_flags & ~sampler->next_slow_flags) != 0;
    sampler->next_flags = flags;
    sampler->next_slow_flags = slow_flags;
    sampler->next_process_flags = process_flags;
    sampler->flags_changed = true;
    sampler->refresh = sampler->refresh || more_processes;
    sampler->slow_now = sampler->slow_now || more_slow;
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
}

void sampler_set_focus(struct sampler *sampler, const uint32_t *pids, size_t count, bool urgent) {
    uint32_t *copy = NULL;
    if (pids != NULL) {
        copy = calloc(count + 1, sizeof(*copy));
        if (copy != NULL && count > 0) {
            memcpy(copy, pids, count * sizeof(*copy));
        }
    }
    pthread_mutex_lock(&sampler->lock);
    free(sampler->next_focus);
    sampler->next_focus = copy;
    sampler->next_focus_all = copy == NULL; /* out of memory: read every process */
    sampler->next_focus_count = copy != NULL ? count : 0;
    sampler->focus_changed = true;
    sampler->processes_now = sampler->processes_now || urgent;
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
}

void sampler_refresh(struct sampler *sampler) {
    pthread_mutex_lock(&sampler->lock);
    sampler->refresh = true;
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
}

void sampler_watch(struct sampler *sampler, const struct watch_target *target,
                   unsigned generation) {
    pthread_mutex_lock(&sampler->lock);
    sampler->watch_generation = generation;
    sampler->watching = target != NULL;
    sampler->watch_now = target != NULL;
    if (target != NULL) {
        sampler->watch = *target;
    }
    watch_queue_clear(&sampler->watch_queue);
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
}

bool sampler_take_watch(struct sampler *sampler, struct watch_sample *out) {
    pthread_mutex_lock(&sampler->lock);
    bool have = watch_queue_pop(&sampler->watch_queue, out);
    pthread_mutex_unlock(&sampler->lock);
    return have;
}

bool sampler_send_signal(struct sampler *sampler, const struct sampler_target *targets,
                         size_t count, int signal_number) {
    struct sampler_target *copy = calloc(count > 0 ? count : 1, sizeof(*copy));
    if (copy == NULL) {
        return false;
    }
    if (count > 0) {
        memcpy(copy, targets, count * sizeof(*copy));
    }
    pthread_mutex_lock(&sampler->lock);
    free(sampler->signal_targets);
    sampler->signal_targets = copy;
    sampler->signal_count = count;
    sampler->signal_number = signal_number;
    pthread_cond_signal(&sampler->wake);
    pthread_mutex_unlock(&sampler->lock);
    return true;
}

bool sampler_signal_result(struct sampler *sampler, struct sampler_signal_result *out) {
    pthread_mutex_lock(&sampler->lock);
    bool have = sampler->have_result;
    if (have) {
        *out = sampler->result;
        sampler->have_result = false;
    }
    pthread_mutex_unlock(&sampler->lock);
    return have;
}
