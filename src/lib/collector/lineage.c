#include "collector/lineage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/process.h>

#define MAX_TREE_DEPTH 4096 /* bounds the ancestor walk (a pid loop cannot happen, but be safe) */

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a;
    uint32_t y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

nvt_status lineage_init(struct lineage *lineage, const uint32_t *roots, size_t root_count) {
    memset(lineage, 0, sizeof(*lineage));
    uint32_t self = (uint32_t)getpid();
    if (roots == NULL || root_count == 0) {
        roots = &self;
        root_count = 1;
    }
    lineage->roots = malloc(root_count * sizeof(*roots));
    if (lineage->roots == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    memcpy(lineage->roots, roots, root_count * sizeof(*roots));
    lineage->root_count = root_count;
    qsort(lineage->roots, root_count, sizeof(*roots), compare_u32);
    lineage->all_processes =
        bsearch(&(uint32_t){1}, lineage->roots, root_count, sizeof(uint32_t), compare_u32) != NULL;
    return NVT_OK;
}

void lineage_fini(struct lineage *lineage) {
    free(lineage->roots);
    free(lineage->known);
    memset(lineage, 0, sizeof(*lineage));
}

struct pid_pair {
    uint32_t pid;
    uint32_t ppid;
};

static int compare_pair(const void *a, const void *b) {
    return compare_u32(&((const struct pid_pair *)a)->pid, &((const struct pid_pair *)b)->pid);
}

static bool is_root(const struct lineage *s, uint32_t pid) {
    return bsearch(&pid, s->roots, s->root_count, sizeof(uint32_t), compare_u32) != NULL;
}

/* Read the parent of every process once, sorted by pid. */
static nvt_status load_ppids(nvt_context *ctx, struct pid_pair **out, size_t *count) {
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t n = 0;
    nvt_status st = nvt_host_ppid_map(ctx, &pids, &ppids, &n);
    if (st != NVT_OK) {
        return st;
    }
    struct pid_pair *pairs = malloc((n > 0 ? n : 1) * sizeof(*pairs));
    if (pairs == NULL) {
        free(pids);
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        pairs[i] = (struct pid_pair){pids[i], ppids[i]};
    }
    free(pids);
    qsort(pairs, n, sizeof(*pairs), compare_pair);
    *out = pairs;
    *count = n;
    return NVT_OK;
}

static bool descends_from_root(const struct lineage *s, uint32_t ppid, const struct pid_pair *map,
                               size_t map_count) {
    uint32_t pid = ppid;
    for (int depth = 0; depth < MAX_TREE_DEPTH && pid > 0 && !nvt_is_na_u32(pid); depth++) {
        if (is_root(s, pid)) {
            return true;
        }
        struct pid_pair key = {pid, 0};
        const struct pid_pair *found = bsearch(&key, map, map_count, sizeof(*map), compare_pair);
        if (found == NULL) {
            return false; /* the ancestor exited: its children were reparented elsewhere */
        }
        pid = found->ppid;
    }
    return false;
}

static bool same_time(double a, double b) {
    return a == b || (isnan(a) && isnan(b));
}

nvt_status lineage_classify(struct lineage *s, nvt_context *ctx, const struct nvt_snapshot *snap,
                            bool *followed) {
    struct lineage_entry *next = malloc((snap->process_count + 1) * sizeof(*next));
    if (next == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    size_t next_count = 0;
    struct pid_pair *map = NULL;
    size_t map_count = 0;
    bool map_loaded = false;
    nvt_status st = NVT_OK;
    for (size_t i = 0; i < snap->process_count && st == NVT_OK; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        if (s->all_processes || is_root(s, p->pid)) {
            followed[i] = true;
            continue;
        }
        bool known = false;
        for (size_t k = 0; k < next_count && !known; k++) { /* the same process on two GPUs */
            if (next[k].pid == p->pid) {
                followed[i] = next[k].positive;
                known = true;
            }
        }
        for (size_t k = 0; k < s->known_count && !known; k++) {
            const struct lineage_entry *l = &s->known[k];
            if (l->pid == p->pid && same_time(l->create_time, p->host.create_time)) {
                followed[i] = l->positive;
                known = true;
                next[next_count++] = *l;
            }
        }
        if (known) {
            continue;
        }
        if (!map_loaded) {
            st = load_ppids(ctx, &map, &map_count);
            map_loaded = true;
            if (st == NVT_ERR_IO) { /* no proc file system: only the roots themselves count */
                st = NVT_OK;
            }
        }
        followed[i] = descends_from_root(s, p->host.ppid, map, map_count);
        next[next_count++] = (struct lineage_entry){p->pid, p->host.create_time, followed[i]};
    }
    free(map);
    if (st != NVT_OK) {
        free(next);
        return st;
    }
    free(s->known);
    s->known = next;
    s->known_count = next_count;
    return NVT_OK;
}
