/* The container label of each GPU process, kept by identity (container_cache.h). */
#include "container_cache.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_entry_pid(const void *a, const void *b) {
    uint32_t x = ((const struct container_entry *)a)->pid;
    uint32_t y = ((const struct container_entry *)b)->pid;
    return (x > y) - (x < y);
}

static bool same_time(double a, double b) {
    return a == b || (isnan(a) && isnan(b));
}

/* The entry of the process (pid, create_time) among the sorted entries, or NULL.  A pid may have
 * several (one process on two GPUs, or a pid reused): the run of equal pids is searched. */
static const struct container_entry *find(const struct container_cache *cache, uint32_t pid,
                                          double create_time) {
    size_t lo = 0;
    size_t hi = cache->count;
    while (lo < hi) { /* the first entry whose pid is not below pid */
        size_t mid = lo + (hi - lo) / 2;
        if (cache->entries[mid].pid < pid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (size_t i = lo; i < cache->count && cache->entries[i].pid == pid; i++) {
        if (same_time(cache->entries[i].create_time, create_time)) {
            return &cache->entries[i];
        }
    }
    return NULL;
}

bool container_cache_resolve(struct container_cache *cache, const struct nvt_gpu_process *processes,
                             size_t n, container_lookup_fn lookup, void *arg, const char **names) {
    struct container_entry *fresh = calloc(n != 0 ? n : 1, sizeof(*fresh));
    if (fresh == NULL) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const struct nvt_gpu_process *p = &processes[i];
        fresh[i].pid = p->pid;
        fresh[i].create_time = p->host.create_time;
        fresh[i].slot = i;
        const struct container_entry *known = find(cache, p->pid, p->host.create_time);
        if (known != NULL) {
            memcpy(fresh[i].name, known->name, sizeof(fresh[i].name));
        } else {
            lookup(arg, p->pid, fresh[i].name, sizeof(fresh[i].name));
            fresh[i].name[sizeof(fresh[i].name) - 1] = '\0';
        }
    }
    /* Processes come grouped by device, each group in pid order: sorting is nearly a merge. */
    qsort(fresh, n, sizeof(*fresh), compare_entry_pid);
    for (size_t k = 0; k < n; k++) {
        names[fresh[k].slot] = fresh[k].name;
    }
    free(cache->entries);
    cache->entries = fresh;
    cache->count = n;
    return true;
}

void container_cache_fini(struct container_cache *cache) {
    free(cache->entries);
    cache->entries = NULL;
    cache->count = 0;
}
