/* The container label of each GPU process, kept by identity (container_cache.h). */
#include "container_cache.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_pid_slot(const void *a, const void *b) {
    uint32_t x = ((const struct container_pid_slot *)a)->pid;
    uint32_t y = ((const struct container_pid_slot *)b)->pid;
    return (x > y) - (x < y);
}

static bool same_process(const struct container_entry *entry, uint32_t pid, double create_time) {
    return entry->pid == pid &&
           (entry->create_time == create_time || (isnan(entry->create_time) && isnan(create_time)));
}

/* The entry of the process (pid, create_time) among the last pass's, or NULL.  A pid may have
 * several (one process on two GPUs, or a pid reused): the run of equal pids is searched. */
static const struct container_entry *find(const struct container_cache *cache, uint32_t pid,
                                          double create_time) {
    size_t lo = 0;
    size_t hi = cache->count;
    while (lo < hi) { /* the first slot whose pid is not below pid */
        size_t mid = lo + (hi - lo) / 2;
        if (cache->by_pid[mid].pid < pid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    for (size_t i = lo; i < cache->count && cache->by_pid[i].pid == pid; i++) {
        const struct container_entry *entry = &cache->entries[cache->by_pid[i].at];
        if (same_process(entry, pid, create_time)) {
            return entry;
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
    /* The list is usually the last one again, in the same order: each process is first looked
     * for at its own place. */
    bool same_list = n == cache->count;
    for (size_t i = 0; i < n; i++) {
        const struct nvt_gpu_process *p = &processes[i];
        fresh[i].pid = p->pid;
        fresh[i].create_time = p->host.create_time;
        const struct container_entry *known = NULL;
        if (i < cache->count && same_process(&cache->entries[i], p->pid, p->host.create_time)) {
            known = &cache->entries[i];
        } else {
            same_list = false;
            known = find(cache, p->pid, p->host.create_time);
        }
        if (known != NULL) {
            memcpy(fresh[i].name, known->name, sizeof(fresh[i].name));
        } else {
            lookup(arg, p->pid, fresh[i].name, sizeof(fresh[i].name));
            fresh[i].name[sizeof(fresh[i].name) - 1] = '\0';
        }
        names[i] = fresh[i].name;
    }
    struct container_pid_slot *by_pid = cache->by_pid;
    if (!same_list) {
        by_pid = malloc((n != 0 ? n : 1) * sizeof(*by_pid));
        if (by_pid == NULL) {
            free(fresh);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            by_pid[i] = (struct container_pid_slot){fresh[i].pid, i};
        }
        qsort(by_pid, n, sizeof(*by_pid), compare_pid_slot);
        free(cache->by_pid);
    }
    free(cache->entries);
    cache->entries = fresh;
    cache->by_pid = by_pid;
    cache->count = n;
    return true;
}

void container_cache_fini(struct container_cache *cache) {
    free(cache->entries);
    free(cache->by_pid);
    cache->entries = NULL;
    cache->by_pid = NULL;
    cache->count = 0;
}
