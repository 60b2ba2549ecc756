/*
 * The host processes a frame records beside the GPU processes: the ancestors of every GPU process
 * up to the root, so that the tree view can be drawn again from a recording.  Children that are
 * not on a GPU are not recorded (reading them needs a walk of every process on the host).
 * Uses the context: the thread that owns it.
 */
#ifndef NVITOP_SRC_RECORD_RELATED_H
#define NVITOP_SRC_RECORD_RELATED_H

#include <stddef.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

struct related {
    struct nvt_host_process *items; /* shallow copies; strings owned by reads[] */
    size_t count;
    struct nvt_host_process **reads;
};

/* Read the ancestors of snap's GPU processes.  Processes that cannot be read end the walk. */
void related_read(nvt_context *ctx, const struct nvt_snapshot *snap, struct related *out);

/* A recorder's ancestors between frames: reading them from /proc every second was most of what
 * recording cost (an ancestor's details, shown by the tree view's rows for it, rarely change). */
struct related_cache {
    struct related_cached *entries;
    size_t count;
    size_t cap;
};

#define RELATED_CACHE_INIT                                                                         \
    { NULL, 0, 0 }

/* How long a recorder reuses an ancestor's details before reading them again. */
#define RELATED_MAX_AGE_S 60.0

/* As related_read(), but an ancestor read less than max_age_s seconds before now (monotonic
 * seconds) is taken from the cache instead of /proc: its CPU and memory figures, state and
 * thread count may then be that old.  Ancestors no GPU process has any more are dropped from the
 * cache.  out's items point into the cache: use them before the next call, then related_fini(). */
void related_read_cached(nvt_context *ctx, struct related_cache *cache,
                         const struct nvt_snapshot *snap, double now, double max_age_s,
                         struct related *out);

void related_cache_fini(struct related_cache *cache);

/* Accepts what related_read() and related_read_cached() filled. */
void related_fini(struct related *related);

#endif /* NVITOP_SRC_RECORD_RELATED_H */
