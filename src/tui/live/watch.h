/*
 * Watching one process (the metrics screen, docs/nvitop-behaviour.md §3.10): every half second the
 * sampler reads the process's device (memory and utilisation), that device's process list and the
 * one host process, and nothing else of the machine.  The reading is plain data handed to the UI
 * thread.
 */
#ifndef NVITOP_SRC_TUI_LIVE_WATCH_H
#define NVITOP_SRC_TUI_LIVE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/device.h>
#include <nvitop/process.h>

/* Which process to watch: its leaf device and its identity as seen in a snapshot. */
struct watch_target {
    uint32_t device_index; /* NVML index of the physical GPU */
    uint32_t mig_index;    /* MIG slot (nvt_device_info.mig_index); NVT_NA_U32 for a GPU */
    uint32_t pid;
    double create_time; /* NaN when unknown: the identity check is then skipped */
};

/* One reading of the watched process. */
struct watch_sample {
    unsigned generation; /* of the target it belongs to (sampler_watch) */
    double taken_s;      /* monotonic seconds when it was read */
    struct nvt_device_state device;
    bool on_device;             /* listed by the device's driver */
    struct nvt_gpu_process gpu; /* valid when on_device; its host part is N/A */
    /* /proc data, or NULL (unreadable, or exited).  Owned by the sample: watch_sample_fini(). */
    struct nvt_host_process *host;
    /* The process has exited: no such pid (unless it was never seen on the host and the driver
     * still lists it: another PID namespace), a zombie, or the pid now belongs to another process
     * (create time differs). */
    bool exited;
};

/* Take one reading with ctx (the sampler's thread).  Returns false when out of memory or when
 * the device does not exist (any more); *out is then zeroed. */
bool watch_sample_take(nvt_context *ctx, const struct watch_target *target,
                       struct watch_sample *out);

/* Free what a sample owns.  Accepts a zeroed sample. */
void watch_sample_fini(struct watch_sample *sample);

/* Readings waiting for the UI, oldest first; a full queue drops its oldest.  Not thread-safe:
 * the sampler guards it with its lock.  Zero-initialise; watch_queue_clear() frees. */
#define WATCH_QUEUE_SIZE 4

struct watch_queue {
    struct watch_sample items[WATCH_QUEUE_SIZE];
    size_t count;
};

/* Move *sample into the queue (it is zeroed). */
void watch_queue_push(struct watch_queue *queue, struct watch_sample *sample);

/* Move the oldest reading to *out; false when empty. */
bool watch_queue_pop(struct watch_queue *queue, struct watch_sample *out);

/* Free every queued reading. */
void watch_queue_clear(struct watch_queue *queue);

#endif /* NVITOP_SRC_TUI_LIVE_WATCH_H */
