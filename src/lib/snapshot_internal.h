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
    /* GPU processes with their host part unset except pid; hosts holds the host data of each
     * distinct pid, sorted by pid (empty when host processes were not sampled). */
    const struct nvt_gpu_process *processes;
    size_t process_count;
    const struct host_process *hosts;
    size_t host_count;
};

/* Copy the parts into one allocation (freed with nvt_snapshot_free).  NVT_OK or
 * NVT_ERR_NO_MEMORY. */
nvt_status snapshot_pack(const struct snapshot_parts *parts, struct nvt_snapshot **out);

#endif /* NVITOP_SRC_LIB_SNAPSHOT_INTERNAL_H */
