/*
 * Ancestors of GPU processes for recordings (related.h).
 */
#include "related.h"

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

void related_read(nvt_context *ctx, const struct nvt_snapshot *snap, struct related *out) {
    out->items = NULL;
    out->reads = NULL;
    out->count = 0;
    size_t cap = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        if (p->host.status != NVT_HOST_OK) {
            continue;
        }
        uint32_t ppid = p->host.ppid;
        for (size_t depth = 0; depth < MAX_DEPTH && ppid != 0 && !nvt_is_na_u32(ppid); depth++) {
            if (known(snap, out, ppid)) {
                break; /* its ancestors are (or will be) walked from there */
            }
            struct nvt_host_process *host = NULL;
            if (nvt_host_process_read(ctx, ppid, &host) != NVT_OK || host == NULL) {
                break;
            }
            if (out->count == cap) {
                cap = cap == 0 ? 16 : cap * 2;
                out->items = xrealloc(out->items, cap * sizeof(*out->items));
                out->reads = xrealloc(out->reads, cap * sizeof(*out->reads));
            }
            out->items[out->count] = *host;
            out->reads[out->count++] = host;
            ppid = host->ppid;
        }
    }
}

void related_fini(struct related *related) {
    for (size_t i = 0; i < related->count; i++) {
        nvt_host_process_free(related->reads[i]);
    }
    free(related->items);
    free(related->reads);
    related->items = NULL;
    related->reads = NULL;
    related->count = 0;
}
