/*
 * Selecting devices for a job, like nvisel: at least a given amount of free memory, at most 2
 * devices, the least busy first.  Prints a value for CUDA_VISIBLE_DEVICES.
 *
 *   usage: example-select [MIN_FREE_MEMORY]     (e.g. 10GiB; default 0)
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

int main(int argc, char **argv) {
    struct nvt_select_criteria criteria;
    nvt_select_criteria_init(&criteria);
    criteria.max_count = 2;
    criteria.tolerance_pct = 10;
    if (argc > 1 && nvt_parse_bytes(argv[1], &criteria.min_free_memory_bytes) != NVT_OK) {
        fprintf(stderr, "example-select: invalid size '%s'\n", argv[1]);
        return 2;
    }
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    struct nvt_snapshot *snap = NULL;
    status = nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO, &snap);
    size_t *slots = snap != NULL ? calloc(snap->device_count + 1, 2 * sizeof(size_t)) : NULL;
    if (status != NVT_OK || slots == NULL) {
        fprintf(stderr, "example-select: %s\n", nvt_strerror(status));
        nvt_snapshot_free(snap);
        nvt_close(ctx);
        return 1;
    }
    /* Candidates are the leaf devices: MIG devices, and GPUs without MIG enabled. */
    size_t *candidates = slots + snap->device_count + 1;
    size_t candidate_count = 0;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (nvt_snapshot_is_leaf(snap, slot)) {
            candidates[candidate_count++] = slot;
        }
    }
    size_t count = 0;
    bool prefer_uuid = false;
    status = nvt_select_devices(snap, candidates, candidate_count, &criteria, slots, &count,
                                &prefer_uuid);
    if (status != NVT_OK) {
        const char *why = nvt_select_unmet(snap, &criteria);
        fprintf(stderr, "example-select: %s\n", why != NULL ? why : nvt_strerror(status));
        free(slots);
        nvt_snapshot_free(snap);
        nvt_close(ctx);
        return 1;
    }
    printf("CUDA_VISIBLE_DEVICES=\"");
    for (size_t i = 0; i < count; i++) {
        const struct nvt_device_info *info = &snap->devices[slots[i]].info;
        if (prefer_uuid) {
            printf("%s%s", i > 0 ? "," : "", info->uuid);
        } else {
            printf("%s%u", i > 0 ? "," : "", info->index);
        }
    }
    printf("\"\n");
    free(slots);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    /* Fewer than criteria.min_count devices qualify: the short list, as nvitop; say so. */
    if (count < criteria.min_count) {
        fputs("example-select: not enough devices found\n", stderr);
        return 4;
    }
    return 0;
}
