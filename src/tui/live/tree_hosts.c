/*
 * The tree view's processes, read ahead on the sampling thread (tree_hosts.h).
 */
#include "tui/live/tree_hosts.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The parent map as (pid, ppid) pairs, sorted by pid or by ppid. */
static int compare_pid(const void *a, const void *b) {
    uint32_t pa = ((const uint32_t *)a)[0];
    uint32_t pb = ((const uint32_t *)b)[0];
    return (pa > pb) - (pa < pb);
}

static int compare_ppid(const void *a, const void *b) {
    uint32_t pa = ((const uint32_t *)a)[1];
    uint32_t pb = ((const uint32_t *)b)[1];
    return (pa > pb) - (pa < pb);
}

static int compare_u32(const void *a, const void *b) {
    uint32_t pa = *(const uint32_t *)a;
    uint32_t pb = *(const uint32_t *)b;
    return (pa > pb) - (pa < pb);
}

/* The first of the sorted pairs whose member key (0: pid, 1: ppid) is not below value. */
static size_t lower_bound(const uint32_t *pairs, size_t count, size_t key, uint32_t value) {
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pairs[2 * mid + key] < value) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static bool is_gpu(const uint32_t *sorted_gpu, size_t gpu_count, uint32_t pid) {
    return bsearch(&pid, sorted_gpu, gpu_count, sizeof(*sorted_gpu), compare_u32) != NULL;
}

struct pid_list {
    uint32_t *items;
    size_t count;
    size_t cap;
};

static void push(struct pid_list *list, uint32_t pid) {
    if (list->count == list->cap) {
        list->cap = list->cap == 0 ? 64 : list->cap * 2;
        list->items = xrealloc(list->items, list->cap * sizeof(*list->items));
    }
    list->items[list->count++] = pid;
}

static bool has_parent(uint32_t pid, uint32_t ppid) {
    return ppid != 0 && ppid != NVT_NA_U32 && ppid != pid;
}

size_t tree_hosts_plan(const uint32_t *gpu, const uint32_t *gpu_ppids, size_t gpu_count,
                       const uint32_t *pids, const uint32_t *ppids, size_t count, uint32_t **out) {
    uint32_t *sorted_gpu = xmalloc((gpu_count > 0 ? gpu_count : 1) * sizeof(*sorted_gpu));
    if (gpu_count > 0) {
        memcpy(sorted_gpu, gpu, gpu_count * sizeof(*gpu));
        qsort(sorted_gpu, gpu_count, sizeof(*sorted_gpu), compare_u32);
    }
    uint32_t *by_pid = xmalloc((count > 0 ? count : 1) * 2 * sizeof(*by_pid));
    for (size_t i = 0; i < count; i++) {
        by_pid[2 * i] = pids[i];
        by_pid[2 * i + 1] = ppids[i];
    }
    uint32_t *by_ppid = xmalloc((count > 0 ? count : 1) * 2 * sizeof(*by_ppid));
    memcpy(by_ppid, by_pid, count * 2 * sizeof(*by_pid));
    qsort(by_pid, count, 2 * sizeof(*by_pid), compare_pid);
    qsort(by_ppid, count, 2 * sizeof(*by_ppid), compare_ppid);

    struct pid_list list = {0};
    for (size_t i = 0; i < gpu_count; i++) {
        /* Up from the process's own parent, until a root, a GPU process (its own walk goes on
         * from there) or the map's end; at most as many steps as the map has entries, so that a
         * loop in a damaged map ends too. */
        uint32_t child = gpu[i];
        uint32_t parent = gpu_ppids[i];
        for (size_t steps = 0; has_parent(child, parent) && steps <= count; steps++) {
            if (is_gpu(sorted_gpu, gpu_count, parent)) {
                break;
            }
            push(&list, parent);
            size_t at = lower_bound(by_pid, count, 0, parent);
            if (at == count || by_pid[2 * at] != parent) {
                break;
            }
            child = parent;
            parent = by_pid[2 * at + 1];
        }
        for (size_t k = lower_bound(by_ppid, count, 1, gpu[i]);
             k < count && by_ppid[2 * k + 1] == gpu[i]; k++) {
            uint32_t pid = by_ppid[2 * k];
            if (pid != gpu[i] && !is_gpu(sorted_gpu, gpu_count, pid)) {
                push(&list, pid);
            }
        }
    }
    free(by_ppid);
    free(by_pid);
    free(sorted_gpu);

    if (list.count > 1) {
        qsort(list.items, list.count, sizeof(*list.items), compare_u32);
    }
    size_t unique = 0;
    for (size_t i = 0; i < list.count; i++) {
        if (unique == 0 || list.items[unique - 1] != list.items[i]) {
            list.items[unique++] = list.items[i];
        }
    }
    *out = list.items;
    return unique;
}

static bool host_gone(const struct nvt_host_process *host) {
    return host->status == NVT_HOST_GONE || host->status == NVT_HOST_NOT_IN_NAMESPACE;
}

struct tree_hosts *tree_hosts_read(nvt_context *ctx, const struct nvt_snapshot *snap) {
    struct tree_hosts *hosts = xcalloc(1, sizeof(*hosts));
    if (ctx == NULL ||
        nvt_host_ppid_map(ctx, &hosts->pids, &hosts->ppids, &hosts->count) != NVT_OK) {
        free(hosts);
        return NULL;
    }
    size_t n = snap->process_count;
    uint32_t *gpu = xmalloc((n > 0 ? n : 1) * 2 * sizeof(*gpu));
    uint32_t *gpu_ppids = gpu + n;
    for (size_t i = 0; i < n; i++) {
        const struct nvt_gpu_process *process = nvt_snapshot_process(snap, i);
        gpu[i] = process->pid;
        /* A vanished process is a root of the tree: none of its ancestors is read. */
        gpu_ppids[i] = host_gone(&process->host) ? 0 : process->host.ppid;
    }
    uint32_t *plan = NULL;
    size_t planned =
        tree_hosts_plan(gpu, gpu_ppids, n, hosts->pids, hosts->ppids, hosts->count, &plan);
    free(gpu);
    hosts->hosts = xcalloc(planned > 0 ? planned : 1, sizeof(*hosts->hosts));
    for (size_t i = 0; i < planned; i++) {
        struct tree_host *entry = &hosts->hosts[hosts->host_count++];
        entry->pid = plan[i];
        if (nvt_host_process_read(ctx, plan[i], &entry->host) != NVT_OK) {
            entry->host = NULL;
        }
    }
    free(plan);
    nvt_host_process_pass_end(ctx);
    return hosts;
}

static int compare_entry(const void *key, const void *entry) {
    uint32_t pid = *(const uint32_t *)key;
    uint32_t other = ((const struct tree_host *)entry)->pid;
    return (pid > other) - (pid < other);
}

const struct tree_host *tree_hosts_find(const struct tree_hosts *hosts, uint32_t pid) {
    if (hosts == NULL || hosts->host_count == 0) {
        return NULL;
    }
    return bsearch(&pid, hosts->hosts, hosts->host_count, sizeof(*hosts->hosts), compare_entry);
}

void tree_hosts_free(struct tree_hosts *hosts) {
    if (hosts == NULL) {
        return;
    }
    for (size_t i = 0; i < hosts->host_count; i++) {
        nvt_host_process_free(hosts->hosts[i].host);
    }
    free(hosts->hosts);
    nvt_free(hosts->pids); /* one allocation with ppids (nvt_host_ppid_map()) */
    free(hosts);
}
