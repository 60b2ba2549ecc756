/*
 * One reading of a watched process (see watch.h).
 */
#include "tui/live/watch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Create times are compared to 10 ms, as the library's signal identity check does. */
#define CREATE_TIME_TOLERANCE_S 0.01

static nvt_device *find_device(nvt_context *ctx, const struct watch_target *target) {
    nvt_device *gpu;
    if (nvt_device_by_index(ctx, target->device_index, &gpu) != NVT_OK) {
        return NULL;
    }
    if (target->mig_index == NVT_NA_U32) {
        return gpu;
    }
    uint32_t count = nvt_device_mig_count(gpu);
    for (uint32_t k = 0; k < count; k++) {
        nvt_device *mig;
        if (nvt_device_mig(gpu, k, &mig) == NVT_OK &&
            nvt_device_info(mig)->mig_index == target->mig_index) {
            return mig;
        }
    }
    return NULL;
}

static bool same_process(const struct watch_target *target, const struct nvt_host_process *host) {
    if (isnan(target->create_time) || isnan(host->create_time)) {
        return true;
    }
    return fabs(host->create_time - target->create_time) <= CREATE_TIME_TOLERANCE_S;
}

bool watch_sample_take(nvt_context *ctx, const struct watch_target *target,
                       struct watch_sample *out) {
    memset(out, 0, sizeof(*out));
    nvt_device *device = find_device(ctx, target);
    if (device == NULL) {
        return false;
    }
    nvt_device_state_init(&out->device);
    nvt_device_state(device, NVT_SAMPLE_DEVICES_FAST, &out->device);
    struct nvt_gpu_process *list = NULL;
    size_t count = 0;
    if (nvt_device_processes(device, 0, &list, &count) != NVT_OK) {
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (list[i].pid == target->pid) {
            out->gpu = list[i];
            out->on_device = true;
            break;
        }
    }
    nvt_free(list);
    nvt_status status = nvt_host_process_read(ctx, target->pid, &out->host);
    if (status == NVT_ERR_NO_MEMORY) {
        return false;
    }
    if (status == NVT_ERR_NO_SUCH_PROCESS) {
        /* A process never seen on the host (another PID namespace) that the driver still lists
         * has not exited: it is out of sight. */
        out->exited = !isnan(target->create_time) || !out->on_device;
    } else if (out->host != NULL &&
               (out->host->status == NVT_HOST_ZOMBIE || !same_process(target, out->host))) {
        out->exited = true;
        nvt_host_process_free(out->host);
        out->host = NULL;
    }
    return true;
}

void watch_sample_fini(struct watch_sample *sample) {
    nvt_host_process_free(sample->host);
    sample->host = NULL;
}

void watch_queue_push(struct watch_queue *queue, struct watch_sample *sample) {
    if (queue->count == WATCH_QUEUE_SIZE) {
        watch_sample_fini(&queue->items[0]);
        memmove(&queue->items[0], &queue->items[1],
                (WATCH_QUEUE_SIZE - 1) * sizeof(queue->items[0]));
        queue->count--;
    }
    queue->items[queue->count++] = *sample;
    memset(sample, 0, sizeof(*sample));
}

bool watch_queue_pop(struct watch_queue *queue, struct watch_sample *out) {
    if (queue->count == 0) {
        return false;
    }
    *out = queue->items[0];
    queue->count--;
    memmove(&queue->items[0], &queue->items[1], queue->count * sizeof(queue->items[0]));
    return true;
}

void watch_queue_clear(struct watch_queue *queue) {
    for (size_t i = 0; i < queue->count; i++) {
        watch_sample_fini(&queue->items[i]);
    }
    queue->count = 0;
}
