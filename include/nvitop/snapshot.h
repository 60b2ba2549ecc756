/*
 * Snapshots: one sampling pass over devices, GPU processes and the host, as one immutable
 * allocation.  Every front end (once report, monitor, nvisel, JSON) renders a snapshot.
 *
 * Manual: nvt_snapshot(3); overview libnvitop(3).
 */
#ifndef NVITOP_SNAPSHOT_H
#define NVITOP_SNAPSHOT_H

#include <nvitop/common.h>
#include <nvitop/context.h>
#include <nvitop/device.h>
#include <nvitop/host.h>
#include <nvitop/process.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One device of a snapshot.  state is the last member so that it can grow (docs/api.md, "ABI and
 * versioning"); this struct gains no member of its own within a major version. */
struct nvt_device_snapshot {
    struct nvt_device_info info;
    size_t parent;      /* slot of the parent physical device for a MIG device; NVT_NA_SIZE else */
    size_t first_child; /* slot of the first MIG device of a physical GPU */
    size_t child_count; /* number of MIG devices (they follow the parent directly) */
    struct nvt_device_state state;
};

struct nvt_snapshot {
    double timestamp; /* seconds since the epoch */
    unsigned flags;   /* the NVT_SAMPLE_* bits that were sampled */
    struct nvt_system_info system;
    /* Physical devices in NVML index order, each directly followed by its MIG devices.  Indexing
     * devices[] directly is only valid for a library of the same minor version as the headers;
     * nvt_snapshot_device() works with any later one. */
    size_t device_count;
    const struct nvt_device_snapshot *devices;
    /* Every GPU process on every leaf device (MIG devices of MIG-enabled GPUs, else the GPU),
     * ordered by device slot then pid.  A process on two devices appears twice.  Same rule for
     * processes[] as for devices[]: nvt_snapshot_process() works with any later library. */
    size_t process_count;
    const struct nvt_gpu_process *processes;
    /* Bytes from one element of devices[] / processes[] to the next (the library's struct sizes,
     * which a later minor version may have grown). */
    size_t device_stride;
    size_t process_stride;
    struct nvt_host_state host; /* valid when flags has NVT_SAMPLE_HOST; last so it can grow */
};

/*
 * Take a snapshot of every device (physical and MIG) and its processes.  flags: NVT_SAMPLE_*
 * bits.  On success *out is one allocation freed with nvt_snapshot_free(); it may be read from any
 * thread.  No NVML query is repeated within one snapshot; flags with no device bit (only
 * NVT_SAMPLE_HOST and NVT_SAMPLE_HOST_PROCESSES) make none at all and list no device.  Fails only
 * for NVT_ERR_NO_MEMORY and NVT_ERR_INVALID_ARGUMENT: unreadable fields are N/A, lost GPUs are
 * flagged per device (state.status), also when the GPU is lost while its processes are listed.
 * Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_snapshot_take(nvt_context *ctx, unsigned flags, struct nvt_snapshot **out);

/*
 * A snapshot of some physical GPUs only (nvitop's take_snapshots(devices)): indices are NVML
 * indices, each device followed by its MIG devices in the result, in the order given; only their
 * processes are listed.  NVT_ERR_OUT_OF_RANGE for an index past nvt_device_count(),
 * NVT_ERR_INVALID_ARGUMENT for a repeated one.  index_count 0 gives a snapshot without devices
 * (host data only, when asked).  Otherwise as nvt_snapshot_take().
 * Uses the context: one thread at a time; the snapshot may be read from any thread. */
NVT_API nvt_status nvt_snapshot_take_devices(nvt_context *ctx, unsigned flags,
                                             const uint32_t *indices, size_t index_count,
                                             struct nvt_snapshot **out);

/*
 * A snapshot of some devices given by handle, physical or MIG (from nvt_device_by_index(),
 * nvt_device_mig(), nvt_device_by_cuda_index(), …): nvitop's take_snapshots() over MigDevice
 * and CudaDevice lists.  A physical device is followed by its MIG devices, as in
 * nvt_snapshot_take_devices(); a MIG device has a slot of its own, without its parent (parent
 * NVT_NA_SIZE), in the order given.  NVT_ERR_INVALID_ARGUMENT for a NULL device, a device of
 * another context, or one given twice (a MIG device and its parent included).  Otherwise as
 * nvt_snapshot_take().
 * Uses the context: one thread at a time; the snapshot may be read from any thread. */
NVT_API nvt_status nvt_snapshot_take_of(nvt_context *ctx, unsigned flags,
                                        nvt_device *const *devices, size_t device_count,
                                        struct nvt_snapshot **out);

/*
 * Limit the /proc reading of the GPU processes in this context's snapshots to pids (count of
 * them, copied; duplicates are ignored) until the next call; pids NULL (count 0) reads every
 * process again, the default.  For a monitor that shows a few rows of many processes: a snapshot
 * reads the files of those in the set, and of those it never read, as ever; a process outside the
 * set that a snapshot of this context read before keeps that reading, without a file read: its
 * status (NVT_HOST_OK), uids, user, name and command line, create time and memory are those of
 * the last reading, its running time is counted from its create time, and its cpu_percent, state,
 * ppid and num_threads are N/A (cpu_percent is never N/A in a reading of a live process: that
 * marks a kept one).  A process's next reading measures its CPU percentage since its last one,
 * however old.  Host processes the context's other calls read (nvt_device_processes(),
 * nvt_host_process_read()) are always read.  Keep the set to what needs fresh values: an exited
 * process outside it is seen when it leaves the driver's list, not as NVT_HOST_GONE.  Fails for
 * NVT_ERR_INVALID_ARGUMENT (ctx NULL, pids NULL with count > 0) and NVT_ERR_NO_MEMORY (the
 * earlier set then stays).  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_snapshot_focus(nvt_context *ctx, const uint32_t *pids, size_t count);

/* Free a snapshot (nvt_free() does the same).  Accepts NULL.  Any thread, once. */
NVT_API void nvt_snapshot_free(struct nvt_snapshot *snapshot);

/* Device slot `slot` of a snapshot (0 <= slot < device_count), stepping by the library's own
 * element size; NULL out of range.  Reads only the snapshot: thread-safe. */
NVT_API const struct nvt_device_snapshot *nvt_snapshot_device(const struct nvt_snapshot *snapshot,
                                                              size_t slot);

/* Process `i` of a snapshot (0 <= i < process_count), as nvt_snapshot_device(); NULL out of
 * range.  Thread-safe. */
NVT_API const struct nvt_gpu_process *nvt_snapshot_process(const struct nvt_snapshot *snapshot,
                                                           size_t i);

/* Is this device slot a leaf (a MIG device, or a physical GPU without MIG enabled)?  Reads only the
 * snapshot: thread-safe. */
NVT_API bool nvt_snapshot_is_leaf(const struct nvt_snapshot *snapshot, size_t slot);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_SNAPSHOT_H */
