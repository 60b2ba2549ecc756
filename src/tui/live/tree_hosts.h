/*
 * What the tree view needs beyond a snapshot's GPU processes (view/processes/process_tree.h),
 * read on the sampling thread while the tree view is shown, so that the UI thread only builds
 * rows: the host's parent map and the ancestors and direct children of the GPU processes.  With a
 * thousand GPU processes the parent map alone reads every /proc/<pid>/stat on the host, tens of
 * milliseconds a refresh (docs/performance.md, "A thousand GPU processes").
 */
#ifndef NVITOP_SRC_TUI_LIVE_TREE_HOSTS_H
#define NVITOP_SRC_TUI_LIVE_TREE_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/process.h>
#include <nvitop/snapshot.h>

/* A process-flags bit of the monitor's own (above every NVT_SAMPLE_* bit): the sampler reads the
 * tree view's processes with each snapshot that has a process list (sampler_take_tree()). */
#define TREE_HOSTS_FLAG (1U << 31)

struct tree_host {
    uint32_t pid;
    struct nvt_host_process *host; /* NULL: gone or unreadable when read */
};

struct tree_hosts {
    uint32_t *pids; /* the parent map: pids[i]'s parent is ppids[i] (nvt_host_ppid_map()) */
    uint32_t *ppids;
    size_t count;
    struct tree_host *hosts; /* sorted by pid */
    size_t host_count;
};

/*
 * The pids the tree view reads besides the GPU processes gpu[0..gpu_count) whose parents are
 * gpu_ppids (0 for none): their ancestors up to a root by the parent map pids/ppids (count
 * entries), and their direct children in it, never a GPU process itself; sorted, each once.
 * *out is one allocation (free()); returns the count.  Pure.  Aborts through the program's
 * allocator hook when out of memory.
 */
size_t tree_hosts_plan(const uint32_t *gpu, const uint32_t *gpu_ppids, size_t gpu_count,
                       const uint32_t *pids, const uint32_t *ppids, size_t count, uint32_t **out);

/* Read the parent map and the planned processes of snap's GPU processes with ctx (a context of
 * the calling thread), ending a pass of host process reads.  NULL when the map cannot be read. */
struct tree_hosts *tree_hosts_read(nvt_context *ctx, const struct nvt_snapshot *snap);

/* The entry of pid, or NULL when pid was not read (not planned).  Pure. */
const struct tree_host *tree_hosts_find(const struct tree_hosts *hosts, uint32_t pid);

/* Accepts NULL. */
void tree_hosts_free(struct tree_hosts *hosts);

#endif /* NVITOP_SRC_TUI_LIVE_TREE_HOSTS_H */
