/*
 * Readings, copies and events from recorded frames (replay_frames.h).
 */
#include "tui/replay/replay_frames.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/codec/frame.h"
#include "tui/host_copy.h"
#include "util/xalloc.h"

#define MEMORY_EVENT_FRACTION 0.95
/* A backward search decodes this many frames at a time, forward from the window's first one (the
 * reader decodes forward from a keyframe; stepping back one frame at a time would start from the
 * keyframe each time). */
#define BACKWARD_WINDOW         512
#define CREATE_TIME_TOLERANCE_S 0.01

struct frame *replay_frame_of(const struct nvt_snapshot *snap) {
    /* The snapshot is the frame's first member (record/codec/frame.h). */
    return (struct frame *)((char *)(uintptr_t)snap - offsetof(struct frame, snap));
}

static bool is_target_device(const struct nvt_device_snapshot *d, const struct watch_target *t) {
    if (d->info.index != t->device_index) {
        return false;
    }
    return nvt_is_na_u32(t->mig_index) ? !d->info.is_mig
                                       : d->info.is_mig && d->info.mig_index == t->mig_index;
}

bool replay_watch_sample(const struct nvt_snapshot *snap, const struct watch_target *target,
                         struct watch_sample *out) {
    memset(out, 0, sizeof(*out));
    size_t slot = SIZE_MAX;
    for (size_t i = 0; i < snap->device_count && slot == SIZE_MAX; i++) {
        if (is_target_device(nvt_snapshot_device(snap, i), target)) {
            slot = i;
        }
    }
    if (slot == SIZE_MAX) {
        return false;
    }
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        if (p->pid != target->pid || p->device != slot) {
            continue;
        }
        if (!isnan(target->create_time) && !isnan(p->host.create_time) &&
            fabs(p->host.create_time - target->create_time) > CREATE_TIME_TOLERANCE_S) {
            continue; /* the pid of another process */
        }
        out->device = nvt_snapshot_device(snap, slot)->state;
        out->on_device = true;
        out->gpu = *p;
        if (p->host.status == NVT_HOST_OK || p->host.status == NVT_HOST_ZOMBIE) {
            out->host = tui_host_copy(&p->host);
        }
        out->taken_s = snap->timestamp;
        return true;
    }
    return false;
}

static bool has_process(const struct nvt_snapshot *snap, const struct nvt_gpu_process *p) {
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *q = nvt_snapshot_process(snap, i);
        if (q->pid == p->pid && nvt_snapshot_device(snap, q->device)->info.index ==
                                    nvt_snapshot_device(snap, p->device)->info.index) {
            return true;
        }
    }
    return false;
}

static const struct nvt_device_snapshot *same_device(const struct nvt_snapshot *snap,
                                                     const struct nvt_device_snapshot *d) {
    for (size_t i = 0; i < snap->device_count; i++) {
        const struct nvt_device_snapshot *e = nvt_snapshot_device(snap, i);
        if (e->info.index == d->info.index && e->info.is_mig == d->info.is_mig &&
            (!d->info.is_mig || e->info.mig_index == d->info.mig_index)) {
            return e;
        }
    }
    return NULL;
}

static bool lost(const struct nvt_device_snapshot *d) {
    return d == NULL || d->state.status == NVT_ERR_GPU_IS_LOST ||
           d->info.handle_status == NVT_ERR_GPU_IS_LOST;
}

static bool memory_high(const struct nvt_device_snapshot *d) {
    uint64_t used = d->state.memory_used_bytes;
    uint64_t total = d->state.memory_total_bytes;
    return !nvt_is_na_u64(used) && !nvt_is_na_u64(total) && total > 0 &&
           (double)used > MEMORY_EVENT_FRACTION * (double)total;
}

static void device_name(const struct nvt_device_snapshot *d, char *out, size_t size) {
    if (d->info.is_mig) {
        snprintf(out, size, "GPU %u:%u", d->info.index, d->info.mig_index);
    } else {
        snprintf(out, size, "GPU %u", d->info.index);
    }
}

static bool process_event(const struct nvt_snapshot *prev, const struct nvt_snapshot *cur,
                          char *what, size_t size) {
    char device[32];
    for (size_t i = 0; i < prev->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(prev, i);
        if (!has_process(cur, p)) {
            device_name(nvt_snapshot_device(prev, p->device), device, sizeof(device));
            snprintf(what, size, "process %u exited (%s)", p->pid, device);
            return true;
        }
    }
    for (size_t i = 0; i < cur->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(cur, i);
        if (!has_process(prev, p)) {
            device_name(nvt_snapshot_device(cur, p->device), device, sizeof(device));
            snprintf(what, size, "process %u appeared (%s)", p->pid, device);
            return true;
        }
    }
    return false;
}

bool replay_event_between(const struct nvt_snapshot *prev, const struct nvt_snapshot *cur,
                          char *what, size_t what_size) {
    char device[32];
    for (size_t i = 0; i < prev->device_count; i++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(prev, i);
        if (!lost(d) && lost(same_device(cur, d))) {
            device_name(d, device, sizeof(device));
            snprintf(what, what_size, "%s lost", device);
            return true;
        }
    }
    for (size_t i = 0; i < cur->device_count; i++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(cur, i);
        const struct nvt_device_snapshot *before = same_device(prev, d);
        if (memory_high(d) && (before == NULL || !memory_high(before))) {
            device_name(d, device, sizeof(device));
            snprintf(what, what_size, "%s memory above 95%%", device);
            return true;
        }
    }
    return process_event(prev, cur, what, what_size);
}

/* The last event in frames (lo, hi]: pairs (k - 1, k) for lo < k <= hi.  SIZE_MAX when none. */
static size_t last_event_in(struct rec_reader *reader, size_t lo, size_t hi, char *what,
                            size_t what_size, char *error, size_t error_size) {
    struct frame *prev = NULL;
    size_t found = SIZE_MAX;
    char text[128];
    for (size_t k = lo; k <= hi; k++) {
        struct frame *cur = NULL;
        if (!rec_reader_frame(reader, k, &cur, error, error_size)) {
            /* Damaged: on past the frames lost with it, comparing across them (the window's
             * first frame too: the comparisons start at the first frame that decodes). */
            k = rec_reader_next_key(reader, k) - 1;
            error[0] = '\0';
            continue;
        }
        if (prev == NULL) {
            prev = cur;
            continue;
        }
        if (replay_event_between(&prev->snap, &cur->snap, text, sizeof(text))) {
            found = k;
            snprintf(what, what_size, "%s", text);
        }
        frame_free(prev);
        prev = cur;
    }
    frame_free(prev);
    return found;
}

static size_t next_event(struct rec_reader *reader, size_t from, size_t limit, size_t *searched,
                         char *what, size_t what_size, char *error, size_t error_size) {
    size_t count = rec_reader_count(reader);
    size_t end = limit < count - from ? from + limit + 1 : count;
    struct frame *prev = NULL;
    if (!rec_reader_frame(reader, from, &prev, error, error_size)) {
        return SIZE_MAX;
    }
    size_t found = SIZE_MAX;
    *searched = from;
    for (size_t k = from + 1; k < end && found == SIZE_MAX; k++) {
        struct frame *cur = NULL;
        if (!rec_reader_frame(reader, k, &cur, error, error_size)) {
            /* Damaged: on past the frames lost with it, comparing across them. */
            k = rec_reader_next_key(reader, k) - 1;
            *searched = k;
            error[0] = '\0';
            continue;
        }
        *searched = k;
        if (replay_event_between(&prev->snap, &cur->snap, what, what_size)) {
            found = k;
        }
        frame_free(prev);
        prev = cur;
    }
    frame_free(prev);
    return found;
}

size_t replay_find_event(struct rec_reader *reader, size_t from, int direction, size_t limit,
                         size_t *searched, char *what, size_t what_size, char *error,
                         size_t error_size) {
    error[0] = '\0';
    what[0] = '\0';
    if (direction > 0) {
        return next_event(reader, from, limit, searched, what, what_size, error, error_size);
    }
    /* Windows (lo, hi] going back from (.., from - 1]: the event must be before the frame shown. */
    size_t hi = from;
    size_t compared = 0;
    *searched = from;
    while (hi > 1 && compared < limit) {
        hi--;
        size_t lo = hi > BACKWARD_WINDOW ? hi - BACKWARD_WINDOW : 0;
        size_t found = last_event_in(reader, lo, hi, what, what_size, error, error_size);
        if (found != SIZE_MAX || error[0] != '\0') {
            return found;
        }
        compared += hi - lo;
        *searched = lo + 1; /* the earliest frame compared with the one before it */
        hi = lo + 1;
    }
    return SIZE_MAX;
}
