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

#endif /* NVITOP_HOST_H */
