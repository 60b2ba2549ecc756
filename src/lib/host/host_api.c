/*
 * Standalone host calls (nvitop's host module, docs/nvitop-behaviour.md §5.8): one host reading
 * without a snapshot, the pids, and the reverse ppid map.  Built on the back-end's host_sample()
 * and on nvt_host_ppid_map(), so every operating system gets them.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/host.h>
#include <nvitop/process.h>

#include "host/host.h"
#include "internal.h"

nvt_status host_sample_owned(struct host_ctx *host, struct nvt_host_state *out, double **per_cpu) {
    uint32_t capacity = host_cpu_count(host);
    if (capacity == 0) {
        /* Before the first sample: what the system is configured for (one sysfs read, once). */
        long configured = sysconf(_SC_NPROCESSORS_CONF);
        capacity = configured > 0 ? (uint32_t)configured : 1;
    }
    capacity += 8; /* CPUs brought online since */
    *per_cpu = calloc(capacity, sizeof(double));
    if (*per_cpu == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    if (host_sample(host, out, *per_cpu, capacity) != NVT_OK) {
        host_state_init_na(out);
        return NVT_OK;
    }
    if (out->cpu_count > capacity) {
        out->cpu_count = capacity;
    }
    out->cpu_percent_per_cpu = out->cpu_count > 0 ? *per_cpu : NULL;
    return NVT_OK;
}

nvt_status nvt_host_state_read(nvt_context *ctx, struct nvt_host_state **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct nvt_host_state state;
    double *per_cpu = NULL;
    /* No CPU counted yet: the context's first host reading, which psutil's cpu_percent() answers
     * with 0.0 (there is no previous reading to compare with), not the average since boot. */
    bool first = host_cpu_count(context_host(ctx)) == 0;
    nvt_status status = host_sample_owned(context_host(ctx), &state, &per_cpu);
    if (status != NVT_OK) {
        return status;
    }
    if (first && !nvt_is_na_double(state.cpu_percent)) {
        state.cpu_percent = 0.0;
        for (uint32_t i = 0; i < state.cpu_count; i++) {
            per_cpu[i] = 0.0;
        }
    }
    /* One block: the state, then its per-CPU percentages. */
    size_t head = (sizeof(state) + alignof(double) - 1) / alignof(double) * alignof(double);
    char *block = malloc(head + state.cpu_count * sizeof(double));
    if (block == NULL) {
        free(per_cpu);
        return NVT_ERR_NO_MEMORY;
    }
    double *copy = (double *)(void *)(block + head);
    if (state.cpu_count > 0) {
        memcpy(copy, per_cpu, state.cpu_count * sizeof(double));
    }
    free(per_cpu);
    state.cpu_percent_per_cpu = state.cpu_count > 0 ? copy : NULL;
    memcpy(block, &state, sizeof(state));
    *out = (struct nvt_host_state *)(void *)block;
    return NVT_OK;
}

nvt_status nvt_host_pids(nvt_context *ctx, uint32_t **pids, size_t *count) {
    if (ctx == NULL || pids == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    uint32_t *ppids = NULL;
    /* The map's pids come first in its block, in directory order; sort them as psutil does. */
    nvt_status status = nvt_host_ppid_map(ctx, pids, &ppids, count);
    if (status != NVT_OK) {
        return status;
    }
    uint32_t *list = *pids;
    for (size_t i = 1; i < *count; i++) { /* insertion sort: /proc lists pids almost sorted */
        uint32_t pid = list[i];
        size_t j = i;
        for (; j > 0 && list[j - 1] > pid; j--) {
            list[j] = list[j - 1];
        }
        list[j] = pid;
    }
    return NVT_OK;
}

struct pid_pair {
    uint32_t ppid;
    uint32_t pid;
};

static int compare_pairs(const void *a, const void *b) {
    const struct pid_pair *x = a;
    const struct pid_pair *y = b;
    if (x->ppid != y->ppid) {
        return (x->ppid > y->ppid) - (x->ppid < y->ppid);
    }
    return (x->pid > y->pid) - (x->pid < y->pid);
}

nvt_status nvt_host_reverse_ppid_map(nvt_context *ctx, uint32_t **ppids, uint32_t **pids,
                                     size_t *count) {
    if (ctx == NULL || ppids == NULL || pids == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    uint32_t *map_pids = NULL;
    uint32_t *map_ppids = NULL;
    size_t n = 0;
    nvt_status status = nvt_host_ppid_map(ctx, &map_pids, &map_ppids, &n);
    if (status != NVT_OK) {
        *ppids = NULL;
        *pids = NULL;
        *count = 0;
        return status;
    }
    struct pid_pair *pairs = malloc((n > 0 ? n : 1) * sizeof(*pairs));
    if (pairs == NULL) {
        free(map_pids);
        *ppids = NULL;
        *pids = NULL;
        *count = 0;
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        pairs[i] = (struct pid_pair){map_ppids[i], map_pids[i]};
    }
    qsort(pairs, n, sizeof(*pairs), compare_pairs);
    /* Reuse the map's block (ppids first now), so that nvt_free(*ppids) releases both. */
    uint32_t *block = map_pids;
    for (size_t i = 0; i < n; i++) {
        block[i] = pairs[i].ppid;
        block[n + i] = pairs[i].pid;
    }
    free(pairs);
    *ppids = block;
    *pids = block + n;
    *count = n;
    return NVT_OK;
}
