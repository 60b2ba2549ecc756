/*
 * Devices: physical GPUs and their MIG devices.
 *
 * nvt_device handles are owned by the context and stay valid until nvt_close(); never free them.
 * Static facts (struct nvt_device_info) are read once per context; live values
 * (struct nvt_device_state) are read on every call.  Most programs never call these directly and
 * use a snapshot (snapshot.h) instead, which holds both for every device.
 *
 * Manual: nvt_device(3); overview libnvitop(3).
 */
#ifndef NVITOP_DEVICE_H
#define NVITOP_DEVICE_H

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nvt_compute_mode {
    NVT_COMPUTE_MODE_NA = -1,
    NVT_COMPUTE_MODE_DEFAULT = 0,
    NVT_COMPUTE_MODE_EXCLUSIVE_THREAD = 1,
    NVT_COMPUTE_MODE_PROHIBITED = 2,
    NVT_COMPUTE_MODE_EXCLUSIVE_PROCESS = 3
};

/* Facts that do not change while a context is open.  Every field may be N/A. */
struct nvt_device_info {
    uint32_t index;     /* NVML index of the physical device; the parent's index for MIG */
    uint32_t mig_index; /* index within the parent for a MIG device, NVT_NA_U32 otherwise */
    bool is_mig;
    /* NVT_OK, or NVT_ERR_GPU_IS_LOST / NVT_ERR_NVML_UNKNOWN when the driver gave no handle: the
     * device is then shown as "ERROR: GPU is Lost" / "ERROR: Unknown" with every field N/A.  In
     * a snapshot, a GPU lost during the snapshot is NVT_ERR_GPU_IS_LOST here and in state.status
     * too, with every state field N/A (and so are its MIG devices). */
    nvt_status handle_status;
    char name[NVT_NAME_LEN]; /* as NVML reports it, e.g. "NVIDIA H100 80GB HBM3" */
    char uuid[NVT_UUID_LEN]; /* "GPU-…" or "MIG-…" */
    char bus_id[NVT_BUS_ID_LEN];
    char serial[NVT_SHORT_STRING_LEN];
    char vbios_version[NVT_SHORT_STRING_LEN];
    uint32_t pci_domain;
    uint32_t pci_bus;
    uint32_t pci_device;
    uint32_t pci_device_id;    /* device id << 16 | vendor id, e.g. 0x233010DE */
    uint32_t pci_subsystem_id; /* e.g. 0x16C110DE */
    uint32_t pcie_link_gen_max;
    uint32_t pcie_link_width_max;
    uint32_t max_clock_graphics_mhz;
    uint32_t max_clock_sm_mhz;
    uint32_t max_clock_memory_mhz;
    uint32_t max_clock_video_mhz;
    uint32_t power_limit_min_mw;
    uint32_t power_limit_max_mw;
    int32_t cuda_cc_major; /* CUDA compute capability, NVT_NA_I32 when N/A */
    int32_t cuda_cc_minor;
    /* MIG: whether this physical GPU supports MIG at all (its MIG mode is not N/A), the number
     * of MIG slots, and, for a MIG device, its GPU and compute instance ids. */
    bool mig_supported;
    uint32_t mig_max_count;
    uint32_t gpu_instance_id;
    uint32_t compute_instance_id;
    uint32_t nvlink_count; /* 0 when NVLink is absent or N/A */
};

/* Live values.  Every field may be N/A; units are in the names.  As nvt_device_state()'s
 * out-parameter it is set up with nvt_device_state_init() (struct_size says how much the caller's
 * struct holds; a later library writes only that much).  In a snapshot struct_size is the
 * library's size. */
struct nvt_device_state {
    size_t struct_size;
    /* NVT_OK, or the error that made the whole device unreadable during this sample (e.g.
     * NVT_ERR_GPU_IS_LOST when it fell off the bus). */
    nvt_status status;
    uint64_t memory_total_bytes;
    uint64_t memory_used_bytes;
    uint64_t memory_free_bytes;
    uint64_t memory_reserved_bytes;
    /* Unified-memory devices (DGX Spark, Thor): NVML reports no memory, so the memory fields
     * hold the host's virtual memory (total, total - available, available) and this is true. */
    bool memory_is_host;
    uint64_t bar1_total_bytes;
    uint64_t bar1_used_bytes;
    uint64_t bar1_free_bytes;
    uint32_t gpu_util_pct;
    uint32_t memory_bandwidth_util_pct; /* nvmlUtilization_t.memory: memory-bus busy time */
    uint32_t encoder_util_pct;
    uint32_t decoder_util_pct;
    uint32_t clock_graphics_mhz;
    uint32_t clock_sm_mhz;
    uint32_t clock_memory_mhz;
    uint32_t clock_video_mhz;
    uint32_t fan_speed_pct; /* may exceed 100 */
    uint32_t temperature_c;
    uint32_t power_usage_mw;
    uint32_t power_limit_mw;
    uint32_t performance_state; /* 0..15 for P0..P15 */
    enum nvt_feature persistence_mode;
    enum nvt_feature display_active;
    enum nvt_feature display_mode;
    enum nvt_feature power_management;
    enum nvt_compute_mode compute_mode;
    enum nvt_feature mig_mode; /* current mode of a physical GPU; N/A for MIG devices */
    uint64_t ecc_uncorrected_volatile;
    uint32_t pcie_link_gen;
    uint32_t pcie_link_width;
    /* KiB/s: from R555 on, the mean since this context's previous reading (the driver's byte
     * counters); on the first reading and on older drivers, NVML's 20 ms window. */
    uint32_t pcie_tx_kibps;
    uint32_t pcie_rx_kibps;
    /* NVLink throughput per link in KiB/s, from counter deltas between two samples of the same
     * context (N/A on the first); entries past info.nvlink_count are N/A. */
    double nvlink_tx_kibps[NVT_NVLINK_MAX_LINKS];
    double nvlink_rx_kibps[NVT_NVLINK_MAX_LINKS];
};

/* What nvt_device_state() and nvt_snapshot_take() read.  Fields not asked for stay N/A. */
enum nvt_sample_flags {
    /* memory, utilisation, fan, temperature, power usage and limit, performance state,
     * persistence, display-active and compute modes, ECC (what nvitop shows).  The power limit,
     * persistence, display-active and compute modes, and a fan the driver says is not there, are
     * read again at most every 30 s per context (set by hand, they seldom change). */
    NVT_SAMPLE_DEVICES = 1U << 0,
    NVT_SAMPLE_PROCESSES = 1U << 1,      /* GPU process lists and per-process utilisation */
    NVT_SAMPLE_HOST = 1U << 2,           /* host CPU, memory, swap, load, uptime */
    NVT_SAMPLE_HOST_PROCESSES = 1U << 3, /* /proc data for each GPU process */
    NVT_SAMPLE_CLOCKS = 1U << 4,         /* current clocks */
    NVT_SAMPLE_CODEC = 1U << 5,          /* encoder and decoder utilisation */
    NVT_SAMPLE_BAR1 = 1U << 6,      /* BAR1 memory of physical GPUs (always read for MIG rows) */
    NVT_SAMPLE_PCIE_LINK = 1U << 7, /* current PCIe generation and width */
    /* PCIe TX/RX: before R555, and on a context's first reading, blocks ~20 ms per GPU and
     * direction on real hardware */
    NVT_SAMPLE_PCIE_THROUGHPUT = 1U << 8,
    NVT_SAMPLE_NVLINK = 1U << 9, /* NVLink throughput counters */
    NVT_SAMPLE_MODES = 1U << 10, /* display mode and power-management mode */
    /* Snapshots only: every static fact of struct nvt_device_info (UUID, serial, VBIOS, max
     * clocks, power constraints, max PCIe link, compute capability, NVLink count).  Without it a
     * snapshot's info holds the name, PCI location and MIG facts, plus whatever the context has
     * already read (facts are read once per context, when first needed).  nvt_select_devices()
     * needs it (UUIDs name its result). */
    NVT_SAMPLE_INFO = 1U << 11,
    /* Memory and utilisation only: the slower fields (fan, temperature, power, P-state,
     * persistence, display, ECC, compute and MIG mode) repeat this context's last
     * NVT_SAMPLE_DEVICES reading, as nvitop caches them for 5 s in its monitor.  Costs 2 NVML calls
     * per GPU instead of about 12.  Without an earlier full reading it reads everything. */
    NVT_SAMPLE_DEVICES_FAST = 1U << 12,
    /* The SM and memory clocks only (what the monitor's bars show): 2 NVML calls per GPU where
     * NVT_SAMPLE_CLOCKS makes 4.  The graphics and video clocks stay N/A unless NVT_SAMPLE_CLOCKS
     * is asked for too (NVT_SAMPLE_ALL has both: all four clocks). */
    NVT_SAMPLE_CLOCKS_SM_MEM = 1U << 13,
    /* What nvitop's once mode and main screen show. */
    NVT_SAMPLE_DEFAULT =
        NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST | NVT_SAMPLE_HOST_PROCESSES,
    /* Every flag above (a flag added later joins it). */
    NVT_SAMPLE_ALL = (NVT_SAMPLE_CLOCKS_SM_MEM << 1) - 1U
};

/* Number of physical devices.  Never fails for an open context (0 without GPUs).
 * Fixed at nvt_open(): any thread. */
NVT_API uint32_t nvt_device_count(const nvt_context *ctx);

/* The physical device with this NVML index.  NVT_ERR_OUT_OF_RANGE for a bad index.  A lost GPU
 * still yields a device whose info.handle_status says so; it is looked up again before each read
 * (one lookup per read while it stays lost), and a GPU that comes back, after a reset under a new
 * handle, is read afresh.  The handle is owned by the context (never freed).  Any thread: the table
 * of physical devices is fixed at nvt_open(). */
NVT_API nvt_status nvt_device_by_index(nvt_context *ctx, uint32_t index, nvt_device **out);

/* A physical or MIG device by UUID: "GPU-<uuid>", "MIG-<uuid>", "MIG-GPU-<uuid>/<gi>/<ci>", or
 * an unambiguous abbreviation of a "GPU-"/"MIG-" UUID (at least 8 hex digits after the prefix,
 * as nvidia-smi and nvitop accept).  NVT_ERR_NOT_FOUND when nothing or more than one matches.
 * The handle is owned by the context.  Reads facts from the driver on first use: one thread at a
 * time. */
NVT_API nvt_status nvt_device_by_uuid(nvt_context *ctx, const char *uuid, nvt_device **out);

/* A physical device by PCI bus id ("00000000:1A:00.0"; "0000:1A:00.0" and the short "1A:00.0",
 * which matches any domain, are accepted too; hex digits in either case).
 * The handle is owned by the context.  Reads facts from the driver on first use: one thread at a
 * time. */
NVT_API nvt_status nvt_device_by_bus_id(nvt_context *ctx, const char *bus_id, nvt_device **out);

/* Number of MIG devices of a physical GPU (0 when MIG is disabled or unsupported, and for MIG
 * devices).  The layout is read again when it was last read 5 s ago or more (a re-partitioned
 * GPU): MIG device handles obtained earlier stay valid until the context closes, but k may then
 * name another instance.
 * Queries the driver (const in appearance only): one thread at a time, with the device's context.
 */
NVT_API uint32_t nvt_device_mig_count(const nvt_device *device);

/* The k-th MIG device of a physical GPU.  NVT_ERR_OUT_OF_RANGE past nvt_device_mig_count().
 * The handle is owned by the context.  As nvt_device_mig_count(): one thread at a time. */
NVT_API nvt_status nvt_device_mig(nvt_device *device, uint32_t k, nvt_device **out);

/* The parent of a MIG device; NULL for a physical device.
 * Fixed when the handle is made: any thread. */
NVT_API nvt_device *nvt_device_parent(const nvt_device *device);

/* Static facts, read once per context.  The pointer stays valid until nvt_close().
 * Owned by the context; reads missing facts from the driver first: one thread at a time. */
NVT_API const struct nvt_device_info *nvt_device_info(nvt_device *device);

/* Set struct_size for this program's headers (the other fields are written by
 * nvt_device_state()).  Inline, so that the size is the caller's; pure. */
static inline void nvt_device_state_init(struct nvt_device_state *state) {
    memset(state, 0, sizeof(*state));
    state->struct_size = sizeof(struct nvt_device_state);
}

/* Read live values now into *out, set up with nvt_device_state_init() (NVT_ERR_INVALID_ARGUMENT
 * when out->struct_size is smaller than the first release's struct; out->struct_size is kept).
 * flags: NVT_SAMPLE_* device bits.  Never fails otherwise for a device that has a handle
 * (unreadable fields are N/A; a GPU lost now is reported in out->status).  Uses the device's
 * context: one thread at a time. */
NVT_API nvt_status nvt_device_state(nvt_device *device, unsigned flags,
                                    struct nvt_device_state *out);

/* nvitop's Device.current_driver_model() and driver_model(), read from the driver now: "WDDM" or
 * "WDM" (TCC) on Windows, "N/A" on Linux (whose drivers have one model and answer
 * NOT_SUPPORTED), for a device without a handle, a MIG device or NULL.  Static string.  Uses the
 * device's context: one thread at a time. */
NVT_API const char *nvt_device_driver_model(nvt_device *device);

/*
 * The escape hatch to the driver: the NVML handle (nvmlDevice_t) behind a device, physical or MIG,
 * for an NVML call libnvitop does not make.  Returned as void *: cast it to nvmlDevice_t.  NULL
 * when the device has no handle (see info.handle_status) or device is NULL.  The handle belongs to
 * the context's NVML session: valid until nvt_close(), and NVML calls on it follow the context's
 * thread rule (one thread at a time).  A GPU reset gives the device a new handle at its next read
 * (the old one answers NVML_ERROR_GPU_IS_LOST for good): ask again rather than keeping it.  Uses
 * the device's context (a read may replace the handle): one thread at a time.
 */
NVT_API void *nvt_device_nvml_handle(const nvt_device *device);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_DEVICE_H */
