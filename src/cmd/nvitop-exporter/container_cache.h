/*
 * The container label of each GPU process, kept from pass to pass by process identity (pid and
 * create time): a process cannot change container, so its cgroup file is read once.  A process is
 * looked for first at its own place in the last pass's list (the list seldom changes), then by
 * binary search over that list sorted by pid, sorted again only when the list changed: a pass
 * costs O(n) in the steady state and O(n log n) at worst (a linear search per process made 1,000
 * processes half a million comparisons a second).  Used by one thread.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_CONTAINER_CACHE_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_CONTAINER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/process.h>

struct container_entry {
    uint32_t pid;
    double create_time; /* NaN when unknown: matches only NaN */
    char name[96];
};

struct container_pid_slot {
    uint32_t pid;
    size_t at; /* index into entries */
};

struct container_cache {
    struct container_entry *entries;   /* the last pass's processes, in its order */
    struct container_pid_slot *by_pid; /* the same, sorted by pid */
    size_t count;
};

/* Writes pid's container name into name (size bytes, NUL-terminated; "" for none or when it
 * cannot be read: that answer is kept too, as the process's container cannot change). */
typedef void (*container_lookup_fn)(void *arg, uint32_t pid, char *name, size_t size);

/* The names of n processes (their pid and host.create_time): names[i] points into the cache's
 * new entries, valid until the next call or container_cache_fini().  A process the last call
 * knew keeps its name; any other is looked up.  Returns false when out of memory (the cache is
 * then unchanged and names untouched). */
bool container_cache_resolve(struct container_cache *cache, const struct nvt_gpu_process *processes,
                             size_t n, container_lookup_fn lookup, void *arg, const char **names);

void container_cache_fini(struct container_cache *cache);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_CONTAINER_CACHE_H */
