/*
 * nvt_snapshot_focus: the GPU processes whose /proc files a context's snapshots read, so that a
 * monitor showing a few rows of a thousand processes reads those few (docs/performance.md).
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/snapshot.h>

#include "internal.h"

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a;
    uint32_t y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

nvt_status nvt_snapshot_focus(nvt_context *ctx, const uint32_t *pids, size_t count) {
    if (ctx == NULL || (pids == NULL && count > 0)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    uint32_t *copy = NULL;
    if (pids != NULL) {
        if (count > SIZE_MAX / sizeof(*copy) - 1) {
            return NVT_ERR_NO_MEMORY;
        }
        copy = malloc((count + 1) * sizeof(*copy));
        if (copy == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        if (count > 0) {
            memcpy(copy, pids, count * sizeof(*copy));
            qsort(copy, count, sizeof(*copy), compare_u32);
        }
        size_t distinct = 0;
        for (size_t i = 0; i < count; i++) {
            if (distinct == 0 || copy[distinct - 1] != copy[i]) {
                copy[distinct++] = copy[i];
            }
        }
        count = distinct;
    }
    free(ctx->focus_pids);
    ctx->focus_set = pids != NULL;
    ctx->focus_pids = copy;
    ctx->focus_count = pids != NULL ? count : 0;
    return NVT_OK;
}

bool context_reads_process(const nvt_context *ctx, uint32_t pid) {
    if (!ctx->focus_set) {
        return true;
    }
    return ctx->focus_count > 0 &&
           bsearch(&pid, ctx->focus_pids, ctx->focus_count, sizeof(pid), compare_u32) != NULL;
}
