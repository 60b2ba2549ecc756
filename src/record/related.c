/*
 * Ancestors of GPU processes for recordings (related.h).
 */
#include "record/related.h"

#include <stdbool.h>
#include <stdlib.h>

#include <nvitop/process.h>

#include "util/xalloc.h"

#define MAX_DEPTH 64

static bool known(const struct nvt_snapshot *snap, const struct related *r, uint32_t pid) {
    for (size_t i = 0; i < r->count; i++) {
        if (r->items[i].pid == pid) {
            return true;
        }
    }
    for (size_t i = 0; i < snap->process_count; i++) {
        if (nvt_snapshot_process(snap, i)->pid == pid) {
            return true;
        }
    }
    return false;
}

struct related_cached {
    uint32_t pid;
    bool used; /* by the walk under way */
    double read_at;
    struct nvt_host_process *host;
};

/* The details of pid: from the cache when fresh enough, else read (and cached). */
static struct nvt_host_process *cached_read(nvt_context *ctx, struct related_cache *cache,
                                            uint32_t pid, double now, double max_age_s) {
    struct related_cached *e = NULL;
    for (size_t i = 0; i < cache->count && e == NULL; i++) {
        e = cache->entries[i].pid == pid ? &cache->entries[i] : NULL;
    }
    if (e != NULL && now - e->read_at < max_age_s && now >= e->read_at) {
        e->used = true;
        return e->host;
    }
    struct nvt_host_process *host = NULL;
    if (nvt_host_process_read(ctx, pid, &host) != NVT_OK || host == NULL) {
        return NULL;
    }
    if (e == NULL) {
        if (cache->count == cache->cap) {
            cache->cap = cache->cap == 0 ? 16 : cache->cap * 2;
            cache->entries = xrealloc(cache->entries, cache->cap * sizeof(*cache->entries));
        }
        e = &cache->entries[cache->count++];
        e->host = NULL;
    }
    nvt_host_process_free(e->host);
    e->pid = pid;
    e->used = true;
    e->read_at = now;
    e->host = host;
    return host;
}

/* The walk of related_read(), reading through the cache when there is one. */
static void walk(nvt_context *ctx, struct related_cache *cache, const struct nvt_snapshot *snap,
                 double now, double max_age_s, struct related *out) {
    out->items = NULL;
    out->reads = NULL;
    out->count = 0;
    size_t cap = 0;
    uint32_t last_ppid = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        /* Siblings (workers of one job) share their ancestors: walked for the first one. */
        if (p->host.status != NVT_HOST_OK || (p->host.ppid == last_ppid && last_ppid != 0)) {
            continue;
        }
        uint32_t ppid = p->host.ppid;
        last_ppid = ppid;
        for (size_t depth = 0; depth < MAX_DEPTH && ppid != 0 && !nvt_is_na_u32(ppid); depth++) {
            if (known(snap, out, ppid)) {
                break; /* its ancestors are (or will be) walked from there */
            }
            struct nvt_host_process *host = NULL;
            if (cache != NULL) {
                host = cached_read(ctx, cache, ppid, now, max_age_s);
            } else if (nvt_host_process_read(ctx, ppid, &host) != NVT_OK) {
                host = NULL;
            }
            if (host == NULL) {
                break;
            }
            if (out->count == cap) {
                cap = cap == 0 ? 16 : cap * 2;
                out->items = xrealloc(out->items, cap * sizeof(*out->items));
                if (cache == NULL) {
                    out->reads = xrealloc(out->reads, cap * sizeof(*out->reads));
                }
            }
            out->items[out->count] = *host;
            if (cache == NULL) {
                out->reads[out->count] = host;
            }
            out->count++;
            ppid = host->ppid;
        }
    }
}

void related_read(nvt_context *ctx, const struct nvt_snapshot *snap, struct related *out) {
    walk(ctx, NULL, snap, 0.0, 0.0, out);
}

void related_read_cached(nvt_context *ctx, struct related_cache *cache,
                         const struct nvt_snapshot *snap, double now, double max_age_s,
                         struct related *out) {
    for (size_t i = 0; i < cache->count; i++) {
        cache->entries[i].used = false;
    }
    walk(ctx, cache, snap, now, max_age_s, out);
    /* Forget the ancestors no GPU process has any more (their pids may be reused). */
    size_t kept = 0;
    for (size_t i = 0; i < cache->count; i++) {
        if (cache->entries[i].used) {
            cache->entries[kept++] = cache->entries[i];
        } else {
            nvt_host_process_free(cache->entries[i].host);
        }
    }
    cache->count = kept;
}

void related_cache_fini(struct related_cache *cache) {
    for (size_t i = 0; i < cache->count; i++) {
        nvt_host_process_free(cache->entries[i].host);
    }
    free(cache->entries);
    cache->entries = NULL;
    cache->count = cache->cap = 0;
}

void related_fini(struct related *related) {
    for (size_t i = 0; related->reads != NULL && i < related->count; i++) {
        nvt_host_process_free(related->reads[i]);
    }
    free(related->items);
    free(related->reads);
    related->items = NULL;
    related->reads = NULL;
    related->count = 0;
}
