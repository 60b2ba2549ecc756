/*
 * Snapshots: one sampling pass over devices, GPU processes and the host, as one immutable
 * allocation.  Every front end (once report, monitor, nvisel, JSON) renders a snapshot.
 */
#ifndef NVITOP_SNAPSHOT_H
#define NVITOP_SNAPSHOT_H

#include <nvitop/common.h>
#include <nvitop/context.h>
#include <nvitop/device.h>
#include <nvitop/host.h>
#include <nvitop/process.h>
#include <nvitop/status.h>

struct nvt_device_snapshot {
    struct nvt_device_info info;
    struct nvt_device_state state;
    size_t parent;      /* slot of the parent physical device for a MIG device; NVT_NA_SIZE else */
    size_t first_child; /* slot of the first MIG device of a physical GPU */
    size_t child_count; /* number of MIG devices (they follow the parent directly) */
};

struct nvt_snapshot {
    double timestamp; /* seconds since the epoch */
    unsigned flags;   /* the NVT_SAMPLE_* bits that were sampled */
    struct nvt_system_info system;
    struct nvt_host_state host; /* valid when flags has NVT_SAMPLE_HOST */
    /* Physical devices in NVML index order, each directly followed by its MIG devices. */
    size_t device_count;
    const struct nvt_device_snapshot *devices;
    /* Every GPU process on every leaf device (MIG devices of MIG-enabled GPUs, else the GPU),
     * ordered by device slot then pid.  A process on two devices appears twice. */
    size_t process_count;
    const struct nvt_gpu_process *processes;
};

/*
 * Take a snapshot of every device (physical and MIG) and its processes.  flags: NVT_SAMPLE_*
 * bits.  On success *out is one allocation freed with nvt_snapshot_free(); it may be read from any
 * thread.  No NVML query is repeated within one snapshot; flags with no device bit (only
 * NVT_SAMPLE_HOST and NVT_SAMPLE_HOST_PROCESSES) make none at all and list no device.  Fails only
 * for NVT_ERR_NO_MEMORY and NVT_ERR_INVALID_ARGUMENT: unreadable fields are N/A, lost GPUs are
 * flagged per device (state.status), also when the GPU is lost while its processes are listed.
 */
NVT_API nvt_status nvt_snapshot_take(nvt_context *ctx, unsigned flags, struct nvt_snapshot **out);

/* Free a snapshot.  Accepts NULL. */
NVT_API void nvt_snapshot_free(struct nvt_snapshot *snapshot);

/* Is this device slot a leaf (a MIG device, or a physical GPU without MIG enabled)? */
NVT_API bool nvt_snapshot_is_leaf(const struct nvt_snapshot *snapshot, size_t slot);

#endif /* NVITOP_SNAPSHOT_H */
