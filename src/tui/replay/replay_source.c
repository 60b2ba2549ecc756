/*
 * The recorded source's operations (replay_source.h): decoding the frame shown, playing on, the
 * metrics screen's readings and the tree view's recorded ancestors.
 */
#include "tui/replay/replay_source.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/codec/frame.h"
#include "tui/host_copy.h"
#include "tui/replay/replay_frames.h"
#include "tui/replay/replay_state.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/xalloc.h"

/* How far back the metrics screen's graphs are read when it opens: the widest graph shows about
 * this many one-second buckets. */
#define WATCH_WINDOW 600

void replay_move(struct replay *r, size_t i, double now_s) {
    r->index = i < r->count ? i : r->count - 1;
    r->pending = true;
    r->anchor_s = now_s;
    r->anchor_rec = rec_reader_time(r->reader, r->index);
}

double replay_next_due(const struct replay *r) {
    size_t first = 0;
    size_t end = 0;
    rec_reader_era(r->reader, r->index, &first, &end);
    double shown = rec_reader_time(r->reader, r->index);
    return r->index + 1 < end ? rec_reader_time(r->reader, r->index + 1) : shown + 1.0;
}

/* While playing: the frame of the recorded time that has come (frames in between are skipped
 * at high speeds, as a live monitor skips what happens between two snapshots). */
static void play_on(struct replay *r, double now_s) {
    if (!r->playing) {
        return;
    }
    double t = r->anchor_rec + (now_s - r->anchor_s) * replay_speed(r);
    size_t i = rec_reader_find_in_era(r->reader, r->index, t);
    if (i != SIZE_MAX && i > r->index) {
        r->index = i;
        r->pending = true;
    } else if (r->index + 1 < r->count && t >= replay_next_due(r)) {
        /* The era's last frame has had its second: the clock was set back after it, and playing
         * goes on in recording order from the next era's first frame. */
        replay_move(r, r->index + 1, now_s);
    }
    if (r->index + 1 >= r->count) {
        r->playing = false;
        snprintf(r->note, sizeof(r->note), "End of the recording: paused.");
    }
}

size_t replay_shown_frame(const struct replay *r) {
    return r->taken != SIZE_MAX ? r->taken : r->index;
}

static struct nvt_snapshot *replay_take(void *impl, bool *jumped) {
    struct replay *r = impl;
    *jumped = false;
    play_on(r, clock_monotonic_s());
    if (!r->pending) {
        return NULL;
    }
    r->pending = false;
    struct frame *frame = NULL;
    char error[512];
    if (!rec_reader_frame(r->reader, r->index, &frame, error, sizeof(error))) {
        str_copy(r->note, sizeof(r->note), error);
        return NULL;
    }
    /* The first frame counts as a jump unless it is the recording's first: the graphs then start
     * with the frames before it (SIZE_MAX + 1 is 0). */
    *jumped = r->index != r->taken && r->index != r->taken + 1;
    r->taken = r->index;
    return &frame->snap;
}

static void replay_snapshot_free(struct nvt_snapshot *snap) {
    if (snap != NULL) {
        frame_free(replay_frame_of(snap));
    }
}

static int replay_fd(const void *impl) {
    (void)impl;
    return -1; /* everything happens on the UI thread: take() is asked at every turn */
}

static void replay_set_flags(void *impl, unsigned flags, unsigned slow_flags,
                             unsigned process_flags) {
    /* A recording has what it has. */
    (void)impl;
    (void)flags;
    (void)slow_flags;
    (void)process_flags;
}

static void replay_refresh(void *impl) {
    ((struct replay *)impl)->pending = true;
}

static void replay_watch(void *impl, const struct watch_target *target, unsigned generation) {
    struct replay *r = impl;
    r->watching = target != NULL;
    if (target == NULL) {
        return;
    }
    r->target = *target;
    r->generation = generation;
    size_t shown = replay_shown_frame(r);
    r->watch_next = shown > WATCH_WINDOW ? shown - WATCH_WINDOW : 0;
    r->watch_seen = false;
}

static bool replay_take_watch(void *impl, struct watch_sample *out) {
    struct replay *r = impl;
    /* Playing fast skips frames; the graphs need no more than their window of them. */
    if (r->taken != SIZE_MAX && r->taken > WATCH_WINDOW &&
        r->watch_next < r->taken - WATCH_WINDOW) {
        r->watch_next = r->taken - WATCH_WINDOW;
    }
    while (r->watching && r->taken != SIZE_MAX && r->watch_next <= r->taken) {
        size_t i = r->watch_next++;
        struct frame *frame = NULL;
        char error[512];
        if (!rec_reader_frame(r->reader, i, &frame, error, sizeof(error))) {
            continue; /* a damaged frame leaves a gap in the graphs */
        }
        bool found = replay_watch_sample(&frame->snap, &r->target, out);
        frame_free(frame);
        if (found) {
            r->watch_seen = true;
            out->generation = r->generation;
            return true;
        }
        if (r->watch_seen) {
            /* Gone from the recording: it exited then (the screen keeps its last figures). */
            out->generation = r->generation;
            out->exited = true;
            out->taken_s = rec_reader_time(r->reader, i);
            r->watching = false;
            return true;
        }
    }
    return false;
}

static int replay_timeout_ms(const void *impl, double now_s) {
    const struct replay *r = impl;
    if (!r->playing || r->index + 1 >= r->count) {
        return -1;
    }
    double due = r->anchor_s + (replay_next_due(r) - r->anchor_rec) / replay_speed(r);
    double ms = ceil((due - now_s) * 1000.0);
    return ms < 0.0 ? 0 : ms > 60000.0 ? 60000 : (int)ms;
}

/* The recorded ancestors of the GPU processes: pid and parent of each. */
static bool replay_parent_map(void *impl, const struct nvt_snapshot *snap, uint32_t **pids,
                              uint32_t **ppids, size_t *count) {
    (void)impl;
    *count = 0;
    if (snap == NULL) {
        return false;
    }
    const struct frame *frame = replay_frame_of(snap);
    size_t n = frame->related_count;
    *pids = xmalloc((n > 0 ? n : 1) * 2 * sizeof(**pids));
    *ppids = *pids + n;
    for (size_t i = 0; i < n; i++) {
        (*pids)[i] = frame->related[i].pid;
        (*ppids)[i] = frame->related[i].ppid;
    }
    *count = n;
    return true;
}

static struct nvt_host_process *replay_host_process(void *impl, const struct nvt_snapshot *snap,
                                                    uint32_t pid) {
    (void)impl;
    if (snap == NULL) {
        return NULL;
    }
    const struct nvt_host_process *host = frame_related(replay_frame_of(snap), pid);
    return host != NULL ? tui_host_copy(host) : NULL;
}

static nvt_context *replay_host_context(void *impl) {
    (void)impl;
    return NULL; /* nothing of this machine is shown */
}

static const char *replay_unavailable(const void *impl, enum tui_source_feature feature) {
    (void)impl;
    switch (feature) {
    case TUI_SOURCE_ENVIRON:
        return "not recorded: recordings keep no process environments";
    case TUI_SOURCE_CHILDREN:
        return "not recorded";
    default:
        return NULL;
    }
}

static double replay_shown_time(const void *impl) {
    const struct replay *r = impl;
    return rec_reader_time(r->reader, replay_shown_frame(r));
}

static void replay_each_before(void *impl, double window_s, size_t max,
                               void (*fn)(void *ctx, const struct nvt_snapshot *snap), void *ctx) {
    struct replay *r = impl;
    size_t shown = replay_shown_frame(r);
    double shown_s = rec_reader_time(r->reader, shown);
    size_t first = shown > max ? shown - max : 0;
    /* Forward from the oldest one wanted: the reader reuses each decoded frame for the next. */
    while (first < shown && !(shown_s - rec_reader_time(r->reader, first) < window_s)) {
        first++;
    }
    for (size_t i = first; i < shown; i++) {
        struct frame *frame = NULL;
        char error[256];
        if (!rec_reader_frame(r->reader, i, &frame, error, sizeof(error))) {
            return;
        }
        fn(ctx, &frame->snap);
        frame_free(frame);
    }
}

static bool replay_take_note(void *impl, char *out, size_t size) {
    struct replay *r = impl;
    if (r->note[0] == '\0') {
        return false;
    }
    str_copy(out, size, r->note);
    r->note[0] = '\0';
    return true;
}

static bool replay_stop(void *impl, double wait_s) {
    (void)wait_s;
    struct replay *r = impl;
    if (r->shown_at_stop != NULL) {
        *r->shown_at_stop = replay_shown_frame(r);
    }
    free(r);
    return true;
}

static const struct tui_source_ops replay_ops = {
    .fd = replay_fd,
    .take = replay_take,
    .snapshot_free = replay_snapshot_free,
    .set_flags = replay_set_flags,
    .refresh = replay_refresh,
    .watch = replay_watch,
    .take_watch = replay_take_watch,
    .timeout_ms = replay_timeout_ms,
    .parent_map = replay_parent_map,
    .host_process = replay_host_process,
    .host_context = replay_host_context,
    .unavailable = replay_unavailable,
    .shown_time = replay_shown_time,
    .key = replay_key,
    .draw_timeline = replay_draw_timeline,
    .each_before = replay_each_before,
    .take_note = replay_take_note,
    .stop = replay_stop,
};

void replay_source_open(struct tui_source *out, struct rec_reader *reader, size_t start,
                        size_t *shown_at_stop) {
    struct replay *r = xcalloc(1, sizeof(*r));
    r->reader = reader;
    r->shown_at_stop = shown_at_stop;
    r->count = rec_reader_count(reader);
    r->taken = SIZE_MAX;
    replay_move(r, start, clock_monotonic_s());
    /* No signal table: nothing can be sent from a replay. */
    *out = (struct tui_source){.ops = &replay_ops, .signals = NULL, .impl = r};
}
