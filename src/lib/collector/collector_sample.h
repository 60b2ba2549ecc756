/*
 * One collector sample: a snapshot turned into nvitop's metric keys and values
 * (docs/nvitop-behaviour.md §5.10), for the followed devices and the GPU processes descending from
 * the root pids.
 *
 * A sampler belongs to one collector and is used under its context lock (one thread at a time).
 * Allocations are checked.
 */
#ifndef NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_SAMPLE_H
#define NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>
#include <nvitop/status.h>

#include "collector/lineage.h"
#include "collector/metric_buffer.h"

/* A followed device: a physical GPU (mig_index N/A) or a MIG device, and its CUDA ordinal
 * (NVT_NA_U32 when the collector does not follow CUDA devices). */
struct sampler_device {
    uint32_t index;
    uint32_t mig_index;
    uint32_t cuda_index;
};

struct sampler {
    struct sampler_device *devices;
    size_t device_count;
    struct lineage lineage;
    bool no_processes;
    /* The last sample: key text, offsets into it, values, and the key pointers of the view. */
    char *text;
    size_t text_len;
    size_t text_cap;
    size_t *offsets;
    double *values;
    const char **keys;
    size_t count;
    size_t capacity;
    char (*idents)[64]; /* identifier of each snapshot slot ("" = not followed) */
    size_t ident_cap;
};

/* Takes copies of devices and roots.  roots with root_count 0 and !no_processes: this process. */
nvt_status sampler_init(struct sampler *sampler, const struct sampler_device *devices,
                        size_t device_count, const uint32_t *roots, size_t root_count,
                        bool no_processes);
void sampler_fini(struct sampler *sampler);

/* The snapshot flags a sample needs. */
unsigned sampler_flags(const struct sampler *sampler);

/* Turn a snapshot into metrics.  ctx is read for the parent pids of processes not seen before.
 * *view stays valid until the next call. */
nvt_status sampler_build(struct sampler *sampler, nvt_context *ctx, const struct nvt_snapshot *snap,
                         struct metric_sample_view *view);

#endif /* NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_SAMPLE_H */
