/*
 * CUDA_VISIBLE_DEVICES resolution (docs/nvitop-behaviour.md §5.5) as pure functions over a table of
 * devices, so the rules can be tested and fuzzed without a driver.  cuda_api.c builds the table
 * from a context and cuda_child.c asks the CUDA driver, when there is one, in a child process.
 */
#ifndef NVITOP_SRC_LIB_CUDA_CUDA_VISIBLE_H
#define NVITOP_SRC_LIB_CUDA_CUDA_VISIBLE_H

#include <nvitop/cuda.h>

struct cuda_mig_entry {
    uint32_t mig_index; /* index within the parent */
    uint32_t gpu_instance_id;
    uint32_t compute_instance_id;
    const char *uuid; /* "MIG-…", "" when unknown */
};

struct cuda_gpu_entry {
    uint32_t index;     /* NVML index */
    const char *uuid;   /* "GPU-…", "" when unknown (a lost GPU) */
    bool mig_supported; /* MIG mode is not N/A */
    bool mig_enabled;
    const struct cuda_mig_entry *migs; /* the MIG devices when MIG is enabled */
    size_t mig_count;
};

struct cuda_table {
    const struct cuda_gpu_entry *gpus; /* physical devices in NVML order */
    size_t gpu_count;
};

/* The most devices any value can select from the table (the size out must have). */
size_t cuda_visible_max(const struct cuda_table *table);

/*
 * Steps 4 to 7 of docs/nvitop-behaviour.md §5.5: resolve value (NULL: unset, all devices) against
 * the table and write the visible devices in CUDA order to out (cuda_visible_max() entries).
 * Returns how many. With abbreviations, "GPU-"/"MIG-" UUIDs may be cut after at least 8 hex digits
 * when the prefix names one device (CUDA accepts these; nvitop only through libcuda).  Invalid
 * entries cut the list, a repeated entry (or device) empties it, and at most one MIG device is
 * visible.  SIZE_MAX when out of memory.  Pure.
 */
size_t cuda_visible_resolve(const char *value, const struct cuda_table *table, bool abbreviations,
                            struct nvt_cuda_device *out);

/*
 * Step 3: the UUIDs CUDA reported (hex without prefix, comma-separated, as read from the child).
 * When they are all physical GPUs of which none supports MIG, writes those devices to out and
 * returns true.  Otherwise returns false and writes to value (size bytes) the comma-joined
 * prefixed UUIDs ("GPU-…" for physical GPUs, "MIG-…" for the rest) to resolve as a value.
 */
bool cuda_visible_from_uuids(const char *uuids, const struct cuda_table *table,
                             struct nvt_cuda_device *out, size_t *count, char *value, size_t size);

#endif /* NVITOP_SRC_LIB_CUDA_CUDA_VISIBLE_H */
