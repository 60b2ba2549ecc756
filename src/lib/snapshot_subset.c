/*
 * Sampling part of the devices: a snapshot of chosen GPUs (nvt_snapshot_take_devices), of chosen
 * devices, MIG devices and CUDA devices included (nvt_snapshot_take_of), and the
 * process list of one device without a snapshot (nvt_device_processes).  Both are the snapshot's
 * own pass over fewer devices, so values and costs are the same as in a whole snapshot.
 */
#include <stdlib.h>

#include <nvitop/device.h>
#include <nvitop/snapshot.h>

#include "internal.h"
#include "snapshot_internal.h"

nvt_status nvt_snapshot_take_devices(nvt_context *ctx, unsigned flags, const uint32_t *indices,
                                     size_t index_count, struct nvt_snapshot **out) {
    if (ctx == NULL || out == NULL || (flags & ~(unsigned)NVT_SAMPLE_ALL) != 0 ||
        (index_count > 0 && indices == NULL)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    uint32_t device_count = ctx->system.device_count;
    for (size_t i = 0; i < index_count; i++) {
        if (indices[i] >= device_count) {
            return NVT_ERR_OUT_OF_RANGE;
        }
        for (size_t j = 0; j < i; j++) {
            if (indices[j] == indices[i]) {
                return NVT_ERR_INVALID_ARGUMENT; /* a device would have two slots */
            }
        }
    }
    nvt_device **roots = calloc(index_count > 0 ? index_count : 1, sizeof(*roots));
    if (roots == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < index_count; i++) {
        roots[i] = ctx->devices[indices[i]];
    }
    void *block = NULL;
    nvt_status status =
        snapshot_take_some(ctx, flags, roots, index_count, SNAPSHOT_WHOLE, &block, NULL);
    free(roots);
    *out = block;
    return status;
}

/* True when device is a or one of a's MIG devices, or the other way round. */
static bool overlaps(const nvt_device *a, const nvt_device *b) {
    return a == b || a->parent == b || b->parent == a;
}

nvt_status nvt_snapshot_take_of(nvt_context *ctx, unsigned flags, nvt_device *const *devices,
                                size_t device_count, struct nvt_snapshot **out) {
    if (ctx == NULL || out == NULL || (flags & ~(unsigned)NVT_SAMPLE_ALL) != 0 ||
        (device_count > 0 && devices == NULL)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    for (size_t i = 0; i < device_count; i++) {
        if (devices[i] == NULL || devices[i]->ctx != ctx) {
            return NVT_ERR_INVALID_ARGUMENT;
        }
        for (size_t j = 0; j < i; j++) {
            if (overlaps(devices[i], devices[j])) {
                return NVT_ERR_INVALID_ARGUMENT; /* a device would have two slots */
            }
        }
    }
    void *block = NULL;
    nvt_status status =
        snapshot_take_some(ctx, flags, devices, device_count, SNAPSHOT_WHOLE, &block, NULL);
    *out = block;
    return status;
}

nvt_status nvt_device_processes(nvt_device *device, unsigned flags, struct nvt_gpu_process **out,
                                size_t *count) {
    if (device == NULL || out == NULL || count == NULL ||
        (flags & ~(unsigned)NVT_SAMPLE_HOST_PROCESSES) != 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    nvt_device *const roots[] = {device};
    void *block = NULL;
    nvt_status status = snapshot_take_some(device->ctx, flags | NVT_SAMPLE_PROCESSES, roots, 1,
                                           SNAPSHOT_PROCESSES, &block, count);
    if (status == NVT_OK && *count == 0) {
        free(block);
        block = NULL;
    }
    /* The block starts with the process array (the header packed after it is not used). */
    *out = block;
    return status;
}

const struct nvt_gpu_process *nvt_gpu_process_at(const struct nvt_gpu_process *list, size_t i) {
    return list != NULL ? list + i : NULL; /* this library's own element size */
}

size_t nvt_gpu_process_stride(void) {
    return sizeof(struct nvt_gpu_process);
}
