/*
 * The two halves of nvt_snapshot_take: sampling (snapshot.c) gathers the parts in ordinary
 * allocations; packing (snapshot_pack.c) copies them into the one immutable block users get.
 */
#ifndef NVITOP_SRC_LIB_SNAPSHOT_INTERNAL_H
#define NVITOP_SRC_LIB_SNAPSHOT_INTERNAL_H

#include <nvitop/snapshot.h>

#include "host/host.h"

struct snapshot_parts {
    unsigned flags;
    double timestamp;
    struct nvt_system_info system;
    struct nvt_host_state host;
    const double *per_cpu; /* host.cpu_count entries */
    const struct nvt_device_snapshot *devices;
    size_t device_count;
    /* GPU processes.  Where host processes were sampled, host_first[i] is the first entry of
     * entry i's pid, whose host part holds that pid's reading (its strings owned by the pass) and
     * is the one packed; else host_first is NULL and the host parts are unset except pid. */
    const struct nvt_gpu_process *processes;
    size_t process_count;
    const uint32_t *host_first;
    /* The allocation the processes were gathered in, at snapshot_process_offset() (NULL: they
     * are copied into a new block).  Packing grows it into the snapshot and takes it. */
    void *block;
};

/* What a packed block starts with: the snapshot header (nvt_snapshot_take), or the process array
 * (nvt_device_processes, which hands out the processes alone; the header is packed after it). */
enum snapshot_layout {
    SNAPSHOT_WHOLE,
    SNAPSHOT_PROCESSES
};

/* Where the process entries of a block of this layout with device_count devices start: a pass
 * gathers them there, so that packing writes the rest around them instead of copying them. */
size_t snapshot_process_offset(enum snapshot_layout layout, size_t device_count);

/* Pack the parts into one allocation freed with free(): parts->block grown (it is then the
 * caller's no more: parts->block is set to NULL), or a new one.  *out is its start, laid out as
 * asked.  NVT_OK or NVT_ERR_NO_MEMORY (parts->block is then still the caller's). */
nvt_status snapshot_pack(struct snapshot_parts *parts, enum snapshot_layout layout, void **out);

struct nvt_device;

/* One sampling pass over roots (each a physical device followed by its MIG devices when MIG is
 * enabled, or a MIG device), packed with the layout asked for; *process_count (when not NULL)
 * receives the number of GPU processes.  NVT_OK or NVT_ERR_NO_MEMORY. */
nvt_status snapshot_take_some(nvt_context *ctx, unsigned flags, struct nvt_device *const *roots,
                              size_t root_count, enum snapshot_layout layout, void **out,
                              size_t *process_count);

#endif /* NVITOP_SRC_LIB_SNAPSHOT_INTERNAL_H */
