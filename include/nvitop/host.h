/*
 * Host metrics with psutil's definitions (docs/nvitop-behaviour.md §5.6.4, §5.8), read from the
 * proc file system.
 *
 * Manual: nvt_host(3); overview libnvitop(3).
 */
#ifndef NVITOP_HOST_H
#define NVITOP_HOST_H

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvt_host_state {
    /* CPU busy percentage over all CPUs since the previous host sample of this context (since
     * boot for the first one). */
    double cpu_percent;
    uint32_t cpu_count;
    const double *cpu_percent_per_cpu; /* cpu_count entries, owned by the snapshot */
    double load_1m;                    /* NaN when the OS has no load average */
    double load_5m;
    double load_15m;
    uint64_t memory_total_bytes;
    uint64_t memory_available_bytes;
    uint64_t memory_used_bytes; /* total - free - buffers - cached (psutil) */
    uint64_t memory_free_bytes;
    double memory_percent; /* (total - available) / total * 100 */
    uint64_t swap_total_bytes;
    uint64_t swap_used_bytes;
    uint64_t swap_free_bytes;
    double swap_percent;
    double uptime_s;
    double boot_time; /* seconds since the epoch */
    char hostname[NVT_NAME_LEN];
};

/*
 * Read the host metrics now, without a snapshot: CPU percentage (total and per CPU), virtual and
 * swap memory, load average, uptime, boot time and host name (psutil's cpu_percent(),
 * virtual_memory(), swap_memory(), getloadavg(), nvitop's uptime()).  On success *out is one
 * allocation (the per-CPU array included) freed with nvt_free().  The CPU percentages are since
 * the context's previous host reading, by this call or a snapshot with NVT_SAMPLE_HOST; the
 * context's first host reading by this call gives 0.0, as psutil's first cpu_percent() (a
 * snapshot's first host reading is the average since boot).  Unreadable values are N/A; fails only
 * for NVT_ERR_INVALID_ARGUMENT and NVT_ERR_NO_MEMORY.  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_host_state_read(nvt_context *ctx, struct nvt_host_state **out);

/*
 * The pids of every process in the proc file system, in increasing order (psutil's pids()).  On
 * success *pids is an array of *count entries freed with nvt_free().  Uses the context: one thread
 * at a time.
 */
NVT_API nvt_status nvt_host_pids(nvt_context *ctx, uint32_t **pids, size_t *count);

/*
 * The reverse ppid map (nvitop's reverse_ppid_map()): every process as a (ppid, pid) pair, sorted
 * by ppid then pid, so that the children of a process are one run of *ppids (find it with a binary
 * search).  On success *ppids and *pids are parallel arrays of *count entries in one allocation,
 * freed with nvt_free(*ppids).  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_host_reverse_ppid_map(nvt_context *ctx, uint32_t **ppids, uint32_t **pids,
                                             size_t *count);

/* Network I/O counters of one interface since boot, as psutil.net_io_counters(pernic=True) reads
 * them from /proc/net/dev (the network namespace of the caller). */
struct nvt_net_io {
    char interface[NVT_NAME_LEN]; /* e.g. "eth0", "lo" */
    uint64_t bytes_sent;
    uint64_t bytes_recv;
    uint64_t packets_sent;
    uint64_t packets_recv;
};

/* Disk I/O counters of one block device or partition since boot, as
 * psutil.disk_io_counters(perdisk=True) reads them from /proc/diskstats (every line: disks,
 * partitions, loop and dm devices; bytes are sectors * 512). */
struct nvt_disk_io {
    char device[NVT_NAME_LEN]; /* e.g. "sda", "nvme0n1p1" */
    uint64_t read_count;
    uint64_t write_count;
    uint64_t read_bytes;
    uint64_t write_bytes;
};

/* Usage of one mounted file system, as psutil.disk_partitions(all=False) and psutil.disk_usage()
 * see it: mounts of a device-backed file system type (the /proc/filesystems types not marked
 * "nodev", plus zfs), measured with statvfs(). */
struct nvt_disk_usage {
    const char *device;     /* e.g. "/dev/sda1"; points into the owning allocation */
    const char *mountpoint; /* octal escapes of the mount table decoded, e.g. "/mnt/my disk" */
    const char *fstype;     /* e.g. "ext4" */
    uint64_t total_bytes;   /* f_blocks * f_frsize */
    uint64_t used_bytes;    /* total - f_bfree * f_frsize */
    uint64_t free_bytes;    /* f_bavail * f_frsize: free to unprivileged users */
    double percent;         /* used / (used + free) * 100, one decimal; 0 when both are 0 */
};

/*
 * Host I/O lists.  ctx must be an open context (GPUs are not needed); like every call on a
 * context, one thread at a time.  On success *out is one allocation holding *count entries (and
 * the strings they point to), in file order, freed with nvt_free(); *out is NULL when *count is
 * 0.
 * An unreadable proc file gives an empty list and NVT_OK (psutil raises instead; an exporter just
 * has no series); failures are NVT_ERR_INVALID_ARGUMENT, NVT_ERR_NO_MEMORY and, on systems without
 * a proc file system, NVT_ERR_NOT_SUPPORTED.  Lines that cannot be parsed are skipped.
 */
NVT_API nvt_status nvt_host_net_io(nvt_context *ctx, struct nvt_net_io **out, size_t *count);
/* As nvt_host_net_io(), for /proc/diskstats: one thread at a time. */
NVT_API nvt_status nvt_host_disk_io(nvt_context *ctx, struct nvt_disk_io **out, size_t *count);
/* Mount points that statvfs() refuses (gone, no permission) are skipped, as nvitop-exporter
 * skips them.  "/" is always listed (statvfs() permitting): where no kept mount is "/" (in a
 * chroot the table lists no disk visible there; in a container "/" is an overlay), it is added
 * last, with the device and type the table gives "/", or "rootfs" for both where the table has
 * no "/" or is unreadable.  Mounts come from <proc root>/self/mounts, else <proc root>/mounts; the
 * context keeps the mount table and reads it again only when the kernel reports a change (statvfs()
 * runs on every call).  One thread at a time, as above. */
NVT_API nvt_status nvt_host_disk_usage(nvt_context *ctx, struct nvt_disk_usage **out,
                                       size_t *count);

/*
 * The container a process runs in, from <proc root>/<pid>/cgroup, written to buf (at most size
 * bytes including the NUL): "<pod uid>/<container id>" for a Kubernetes pod (the container id
 * shortened to 12 characters, as `docker ps` and `crictl ps` show it; "<pod uid>" alone when the
 * cgroup names no container), the 12-character container id for Docker, Podman, containerd and
 * CRI-O, "lxc/<name>" for LXC, and "" on bare metal (and for unknown layouts).
 * NVT_ERR_NO_SUCH_PROCESS when the pid does not exist, NVT_ERR_NO_PERMISSION when the file is
 * unreadable.  Same thread rule as above.
 */
NVT_API nvt_status nvt_host_process_container(nvt_context *ctx, uint32_t pid, char *buf,
                                              size_t size);

/* System-wide CPU times in seconds since boot, psutil.cpu_times() on Linux: the "cpu" line of
 * /proc/stat divided by the clock tick.  guest and guest_nice are also counted in user and nice,
 * as the kernel and psutil count them. */
struct nvt_cpu_times {
    double user;
    double nice;
    double system;
    double idle;
    double iowait;
    double irq;
    double softirq;
    double steal;
    double guest;
    double guest_nice;
};

/* psutil.virtual_memory() in full (the figures of struct nvt_host_state and the rest), from
 * /proc/meminfo: active "Active:", inactive "Inactive:", buffers "Buffers:", cached "Cached:" +
 * "SReclaimable:", shared "Shmem:", slab "Slab:".  A field the file lacks is NVT_NA_U64 (NaN for
 * percent). */
struct nvt_virtual_memory {
    uint64_t total_bytes;
    uint64_t available_bytes;
    double percent; /* (total - available) / total * 100, one decimal */
    uint64_t used_bytes;
    uint64_t free_bytes;
    uint64_t active_bytes;
    uint64_t inactive_bytes;
    uint64_t buffers_bytes;
    uint64_t cached_bytes;
    uint64_t shared_bytes;
    uint64_t slab_bytes;
};

/* psutil.swap_memory(): total, used, free and percent from /proc/meminfo; sin and sout, the bytes
 * swapped in and out since boot, from /proc/vmstat's pswpin and pswpout (counted in 4 KiB pages,
 * as psutil counts them).  A field the files lack is NVT_NA_U64 (NaN for percent). */
struct nvt_swap_memory {
    uint64_t total_bytes;
    uint64_t used_bytes;
    uint64_t free_bytes;
    double percent;
    uint64_t sin_bytes;
    uint64_t sout_bytes;
};

/* A process's memory, psutil's Process.memory_info() on Linux (pmem), from <proc root>/<pid>/statm
 * in pages times the page size: rss, vms, shared, text, lib, data, dirty (lib and dirty are 0 on
 * Linux since 2.6, as the kernel writes them). */
struct nvt_memory_info {
    uint64_t rss_bytes;
    uint64_t vms_bytes;
    uint64_t shared_bytes;
    uint64_t text_bytes;
    uint64_t lib_bytes;
    uint64_t data_bytes;
    uint64_t dirty_bytes;
};

/*
 * Host figures beyond struct nvt_host_state, read now.  On success *out is one allocation freed
 * with nvt_free().  Failures: NVT_ERR_INVALID_ARGUMENT, NVT_ERR_NO_MEMORY, NVT_ERR_NOT_SUPPORTED
 * (no proc file system: every back-end but Linux's), and for the host-wide calls
 * NVT_ERR_NOT_FOUND when /proc/stat's "cpu" line or /proc/meminfo cannot be read.  Uses the
 * context: one thread at a time.
 */
NVT_API nvt_status nvt_host_cpu_times(nvt_context *ctx, struct nvt_cpu_times **out);
/* As nvt_host_cpu_times(), for psutil.virtual_memory(); one thread at a time. */
NVT_API nvt_status nvt_host_virtual_memory(nvt_context *ctx, struct nvt_virtual_memory **out);
/* As nvt_host_cpu_times(), for psutil.swap_memory(); sin and sout are NVT_NA_U64 where /proc/vmstat
 * cannot be read.  One thread at a time. */
NVT_API nvt_status nvt_host_swap_memory(nvt_context *ctx, struct nvt_swap_memory **out);
/* As nvt_host_cpu_times(), for one process: NVT_ERR_NO_SUCH_PROCESS when the pid does not exist,
 * NVT_ERR_NO_PERMISSION when its statm is unreadable.  One thread at a time. */
NVT_API nvt_status nvt_host_process_memory_info(nvt_context *ctx, uint32_t pid,
                                                struct nvt_memory_info **out);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_HOST_H */
