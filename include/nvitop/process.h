/*
 * Processes: what the driver says about a process on a GPU, and what /proc says about it on the
 * host.  Both are plain data; snapshots (snapshot.h) hold them for every GPU process.
 *
 * Manual: nvt_process(3); overview libnvitop(3).
 */
#ifndef NVITOP_PROCESS_H
#define NVITOP_PROCESS_H

#include <sys/types.h>

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Process type bits; nvitop prints C, G, or X for both ("C+G").  0 means N/A. */
enum nvt_process_type {
    NVT_PROCESS_COMPUTE = 1U << 0,
    NVT_PROCESS_GRAPHICS = 1U << 1
};

/* Why host data of a process may be missing. */
enum nvt_host_status {
    NVT_HOST_OK = 0,
    NVT_HOST_GONE,   /* exited between the GPU listing and the /proc read: "No Such Process" */
    NVT_HOST_ZOMBIE, /* exited, not reaped: "Zombie Process" */
    NVT_HOST_NO_PERMISSION,   /* /proc entry unreadable (another user, hidepid): "No Permissions" */
    NVT_HOST_NOT_IN_NAMESPACE /* the driver reports host PIDs and this one is not visible from our
                                 PID namespace (a container without --pid=host) */
};

/* Host-side data of one process.  Strings point into the owning snapshot (or allocation) and are
 * "" when N/A; numbers use the N/A conventions of common.h.  In a context's snapshots, the uids,
 * user and command line of a process read in the last two snapshots may be up to 10 s old (an
 * exec() is seen at once; see docs/api.md). */
struct nvt_host_process {
    uint32_t pid;
    enum nvt_host_status status;
    char state; /* /proc state letter ('R', 'S', 'D', 'Z', …); 0 when N/A */
    uint32_t ppid;
    uint32_t uid; /* real uid */
    uint32_t uid_effective;
    uint32_t uid_saved;
    uint32_t num_threads;
    const char *user;    /* user name of the real uid (numeric string when not in passwd) */
    const char *name;    /* psutil-style name: comm, or argv[0]'s basename when comm is cut */
    const char *command; /* the command line quoted like a shell would (nvitop's command_join) */
    /* argv, cmdline_count entries (trailing empty ones removed); NULL and 0 for a context opened
     * with nvt_options.command_only */
    const char *const *cmdline;
    size_t cmdline_count;
    /* Since the previous sample of this process in this context, not divided by the CPU count;
     * 0.0 in a process's first snapshot, as nvitop shows it (nvt_host_process_read: N/A). */
    double cpu_percent;
    double memory_percent; /* RSS / physical memory * 100 */
    uint64_t rss_bytes;
    double create_time; /* seconds since the epoch */
    double running_time_s;
};

/* One process on one (leaf) device, as the driver lists it, joined with its host data. */
struct nvt_gpu_process {
    uint32_t pid;
    size_t device;             /* slot of the leaf device in the snapshot's devices[] */
    unsigned type;             /* enum nvt_process_type bits */
    uint64_t gpu_memory_bytes; /* N/A on MIG without privileges and under WDDM */
    uint32_t gpu_instance_id;
    uint32_t compute_instance_id;
    uint32_t sm_util_pct;     /* from the driver's process-utilisation samples, clamped to 100 */
    uint32_t memory_util_pct; /* memory-bandwidth share (%GMBW) */
    uint32_t encoder_util_pct;
    uint32_t decoder_util_pct;
    struct nvt_host_process host;
};

/*
 * The GPU processes of one device now, without a snapshot (nvitop's Device.processes()): for a leaf
 * device its own, for a GPU with MIG enabled those of its MIG devices.  Each entry's `device` is 0
 * for the device itself and 1 + k for its k-th MIG device.  flags: NVT_SAMPLE_HOST_PROCESSES to
 * join each process's /proc data, or 0 (host then holds the pid and N/A fields).  Values, and the
 * per-device utilisation cursor, are shared with the snapshots of the same context.  On success
 * *out is one allocation of *count entries (strings included) freed with nvt_free(), NULL when
 * there are none; reach entry i with nvt_gpu_process_at(*out, i).  Fails for
 * NVT_ERR_INVALID_ARGUMENT and NVT_ERR_NO_MEMORY; a lost GPU or an unreadable list gives no
 * processes.  Uses the device's context: one thread at a time.
 */
NVT_API nvt_status nvt_device_processes(nvt_device *device, unsigned flags,
                                        struct nvt_gpu_process **out, size_t *count);

/* Entry i of a process array the library handed out (nvt_device_processes()), stepping by the
 * library's own element size: struct nvt_gpu_process grows with struct nvt_host_process within a
 * major version, so index the array only through this (sort an array of indices or pointers, not
 * the entries).  NULL when list is NULL; no bounds check.  Pure: any thread. */
NVT_API const struct nvt_gpu_process *nvt_gpu_process_at(const struct nvt_gpu_process *list,
                                                         size_t i);

/* The library's sizeof(struct nvt_gpu_process): the stride of the arrays it hands out (a later
 * minor version's may be larger than this program's).  Pure: any thread. */
NVT_API size_t nvt_gpu_process_stride(void);

/*
 * Read one host process now (for processes not on a GPU, e.g. the tree view).  On success *out is
 * one allocation the caller frees with nvt_host_process_free().  NVT_ERR_NO_SUCH_PROCESS when the
 * pid does not exist.  The CPU percentage is measured against the context's previous reading of
 * the same process (N/A on the first).
 * Uses the context's process cache: one thread at a time. */
NVT_API nvt_status nvt_host_process_read(nvt_context *ctx, uint32_t pid,
                                         struct nvt_host_process **out);

/* Free what nvt_host_process_read() returned.  Accepts NULL.
 * Any thread, once. */
NVT_API void nvt_host_process_free(struct nvt_host_process *process);

/*
 * End one pass of nvt_host_process_read() calls (a refresh of a tree view): the readings the
 * context keeps for CPU percentages are dropped for processes read in neither this pass nor the
 * one before, so that a context that only reads single processes holds memory for the live ones
 * only.  Snapshots end their passes themselves.  Use the context's thread.
 */
NVT_API void nvt_host_process_pass_end(nvt_context *ctx);

/*
 * The environment of a process as "NAME=value" strings, in the order the process has them.  On
 * success *out is one allocation (an array of *count pointers followed by the strings) freed with
 * nvt_free().  NVT_ERR_NO_PERMISSION when unreadable.  NVT_ERR_NO_SUCH_PROCESS when the pid does
 * not exist, or when this context read the pid before (a snapshot or nvt_host_process_read) and it
 * now belongs to another process (another start time): a recycled pid is not taken for the old
 * one.  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_host_process_environ(nvt_context *ctx, uint32_t pid, char ***out,
                                            size_t *count);

/*
 * The current working directory of a process, written to buf (at most size bytes including the
 * NUL; a longer path is cut).  NVT_ERR_NO_SUCH_PROCESS when the pid does not exist or was
 * recycled (as for nvt_host_process_environ), NVT_ERR_NO_PERMISSION when the kernel refuses
 * (another user's process).  Thread-safe for distinct contexts.
 */
NVT_API nvt_status nvt_host_process_cwd(nvt_context *ctx, uint32_t pid, char *buf, size_t size);

/*
 * Send a signal to a process only if it is still the process that was seen: same pid and the same
 * create time (to 10 ms).  A recycled pid gets NVT_ERR_NO_SUCH_PROCESS and no signal.
 * NVT_ERR_NO_PERMISSION when the kernel refuses.
 * Uses the context: one thread at a time. */
NVT_API nvt_status nvt_process_signal(nvt_context *ctx, uint32_t pid, double create_time,
                                      int signal_number);

/* Parent pid of every process currently in the proc file system, for tree views: on success
 * *pids and *ppids are parallel arrays of *count entries in one allocation, freed with
 * nvt_free(*pids).  Uses the context: one thread at a time. */
NVT_API nvt_status nvt_host_ppid_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids,
                                     size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_PROCESS_H */
