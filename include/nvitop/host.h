/*
 * Host metrics with psutil's definitions (SPEC.md §5.6.4, §5.8), read from the proc file system.
 */
#ifndef NVITOP_HOST_H
#define NVITOP_HOST_H

#include <nvitop/common.h>
#include <nvitop/status.h>

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
 * the context's previous host reading, by this call or a snapshot with NVT_SAMPLE_HOST (since boot
 * for the first).  Unreadable values are N/A; fails only for NVT_ERR_INVALID_ARGUMENT and
 * NVT_ERR_NO_MEMORY.  Uses the context: one thread at a time.
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

#endif /* NVITOP_HOST_H */
