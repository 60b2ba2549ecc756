/*
 * Types shared by the files of the NVML back-end (src/lib/nvml/ only).
 */
#ifndef NVITOP_SRC_LIB_NVML_NVML_PRIVATE_H
#define NVITOP_SRC_LIB_NVML_NVML_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "nvml/nvml_abi.h"
#include "nvml/nvml_backend.h"
#include "nvml/nvml_loader.h"

/* How many distinct missing entry points we remember for the end-of-run report. */
#define NVML_MISSING_MAX 32

/* Element layout of the process lists, chosen once per back-end (docs/nvitop-behaviour.md §9.1). */
enum nvml_process_layout {
    NVML_LAYOUT_UNDECIDED, /* decided at the first list call (nvml_process.c) */
    NVML_LAYOUT_V3_32,     /* _v3 entry points with the 32-byte R535 element */
    NVML_LAYOUT_V3_24,     /* _v3 entry points with the 24-byte element */
    NVML_LAYOUT_V2,        /* _v2 entry points, 24 bytes */
    NVML_LAYOUT_V1,        /* unversioned entry points, 16 bytes, no GI/CI ids */
    NVML_LAYOUT_NONE       /* the driver has no process lists at all */
};

struct nvml_backend {
    struct nvml_lib lib;
    bool initialised;
    bool memory_v2_disabled;     /* _v2 failed with FUNCTION_NOT_FOUND, UNKNOWN or
                                    ARGUMENT_VERSION_MISMATCH once */
    bool temperature_v_disabled; /* TemperatureV answered FUNCTION_NOT_FOUND or
                                    ARGUMENT_VERSION_MISMATCH once */
    enum nvml_process_layout layout;
    const char *missing[NVML_MISSING_MAX];
    size_t missing_count;
    /* A scratch buffer that one device's process-list query fills and the next reuses (a
     * context, and so its backend, is used by one thread at a time), kept between samples at the
     * size of the longest answer so that one call usually suffices; its element size depends on
     * the layout. */
    unsigned char *proc_buffer;
    unsigned proc_capacity; /* in elements */
    /* The room, in samples, that the next per-process utilisation query gets: the buffer lives
     * for one query, and the size is cut down once many answers in a row used a small part of it
     * (nvml_proc_util.c). */
    unsigned util_capacity;
    unsigned util_small_calls; /* answers in a row that used a quarter of it or less */
    unsigned util_small_peak;  /* the largest of them */
};

/* One remembered per-process utilisation sample (see nvml_proc_util.c). */
struct nvml_util_sample {
    uint32_t pid;
    unsigned long long timestamp_us;
    uint32_t sm, mem, enc, dec;
};

/* Whether a device's driver counts PCIe bytes (see nvml_read_pcie). */
enum nvml_pcie_counters {
    NVML_PCIE_COUNTERS_UNKNOWN, /* not asked yet */
    NVML_PCIE_COUNTERS_YES,
    NVML_PCIE_COUNTERS_NO /* the blocking throughput query instead */
};

struct nvml_device {
    nvmlDevice_t handle; /* NULL when handle_status is not NVT_OK */
    nvt_status handle_status;
    bool is_mig;
    /* Per-process utilisation: the newest sample timestamp seen (the cursor handed to NVML), the
     * samples of the last second, and when new samples last arrived. */
    unsigned long long util_cursor_us;
    struct nvml_util_sample *util_recent;
    size_t util_recent_count;
    double util_recent_time; /* monotonic seconds */
    /* NVLink counters of the previous sample, in KiB, and their time in microseconds; a counter
     * is a baseline only when its field was read successfully (its _known flag). */
    bool nvlink_tx_known[NVML_NVLINK_MAX_LINKS];
    bool nvlink_rx_known[NVML_NVLINK_MAX_LINKS];
    unsigned long long nvlink_tx_kib[NVML_NVLINK_MAX_LINKS];
    unsigned long long nvlink_rx_kib[NVML_NVLINK_MAX_LINKS];
    long long nvlink_time_us;
    bool nvlink_driver_time; /* nvlink_time_us is the driver's timestamp, not our clock */
    /* PCIe byte counters of the previous reading (nvml_pcie.c): whether the driver has them
     * (learnt on the first reading), the baseline and its time. */
    enum nvml_pcie_counters pcie_counters;
    bool pcie_known;
    unsigned long long pcie_tx_bytes;
    unsigned long long pcie_rx_bytes;
    long long pcie_time_us;
    bool pcie_driver_time;
    /* The slow fields of the last full reading, repeated by NVT_SAMPLE_DEVICES_FAST. */
    bool slow_known;
    struct nvt_device_state slow;
    /* When the facts that change only by an administrator's hand (power limit, persistence,
     * display and compute mode, and a fan the driver says is not there) were last read
     * (nvml_state.c): full readings repeat them for NVML_FACTS_PERIOD_S. */
    double facts_read_s;
    bool fan_unsupported;
};

#define NVML_FACTS_PERIOD_S 30.0

/*
 * Note an entry point that was needed: records it for nvt_missing_functions() when the result is
 * NVML_ERROR_FUNCTION_NOT_FOUND.  Returns result unchanged.
 */
nvmlReturn_t nvml_note(struct nvml_backend *backend, const char *name, nvmlReturn_t result);

/*
 * Call an entry point that the driver may lack.  NVML_QUERY records a missing one for the report;
 * NVML_QUERY_QUIET does not (MIG and other optional entry points, as nvitop stays silent about
 * them).  Both evaluate to the nvmlReturn_t.
 */
#define NVML_QUERY(backend, fn, ...)                                                               \
    nvml_note((backend), #fn,                                                                      \
              (backend)->lib.api.fn != NULL ? (backend)->lib.api.fn(__VA_ARGS__)                   \
                                            : NVML_ERROR_FUNCTION_NOT_FOUND)
#define NVML_QUERY_QUIET(backend, fn, ...)                                                         \
    ((backend)->lib.api.fn != NULL ? (backend)->lib.api.fn(__VA_ARGS__)                            \
                                   : NVML_ERROR_FUNCTION_NOT_FOUND)

/* Copy an NVML string buffer into a public fixed-size field ("" on failure). */
void nvml_copy_string(char *dst, size_t size, const char *src, nvmlReturn_t result);

/*
 * NVLink throughput of the first `links` links into out->nvlink_{tx,rx}_kibps (nvml_nvlink.c): the
 * counter deltas since this device's previous reading divided by the time between them; N/A on
 * the first reading and for a counter whose field failed (which is no baseline either).  Returns
 * the result of the nvmlDeviceGetFieldValues call (NVML_SUCCESS when there are no links).
 */
nvmlReturn_t nvml_read_nvlink(struct nvml_backend *backend, struct nvml_device *device,
                              nvmlDevice_t handle, uint32_t links, struct nvt_device_state *out);

/*
 * PCIe TX and RX throughput into out->pcie_{tx,rx}_kibps (nvml_pcie.c).  Drivers from R555 on
 * count the bytes (NVML_FI_DEV_PCIE_COUNT_{TX,RX}_BYTES): the rate is then the counters' delta
 * since this device's previous reading over the time between them, read without waiting.  The
 * first reading, a counter that went back, and drivers without the counters use
 * nvmlDeviceGetPcieThroughput, which blocks about 20 ms per direction.  A lost GPU is reported in
 * the result (the caller's ok()).
 */
nvmlReturn_t nvml_read_pcie(struct nvml_backend *backend, struct nvml_device *device,
                            nvmlDevice_t handle, struct nvt_device_state *out);

/* A field value as an unsigned 64-bit number, whatever its valueType (negative ones as 0). */
unsigned long long nvml_field_u64(const nvmlFieldValue_t *field);

/* Process-utilisation samples for the listed processes (nvml_proc_util.c). */
nvt_status nvml_apply_process_utilization(struct nvml_backend *backend, struct nvml_device *device,
                                          struct nvml_process_list *list, bool memory_na_seen);

#endif /* NVITOP_SRC_LIB_NVML_NVML_PRIVATE_H */
