/*
 * The NVML back-end: NVML calls in, libnvitop data out.  "Not supported", "no permission" and the
 * like become N/A fields; a handle the driver refuses becomes a handle_status; a GPU lost while
 * sampling becomes state.status.  Only src/lib/ includes this header, and only src/lib/nvml/
 * sees NVML types (struct nvml_device and struct nvml_backend are opaque to the rest).
 *
 * Thread-safety: a back-end belongs to one context and is used by one thread at a time.
 */
#ifndef NVITOP_SRC_LIB_NVML_NVML_BACKEND_H
#define NVITOP_SRC_LIB_NVML_NVML_BACKEND_H

#include <nvitop/context.h>
#include <nvitop/device.h>
#include <nvitop/status.h>

struct nvml_backend;
struct nvml_device;

/* Groups of static facts, read at most once per device and context. */
enum nvml_facts {
    NVML_FACTS_CORE = 1U << 0,   /* name, PCI info (bus id, domain, bus, device, ids) */
    NVML_FACTS_UUID = 1U << 1,   /* UUID */
    NVML_FACTS_EXTRA = 1U << 2,  /* serial, VBIOS, max clocks, power constraints, max PCIe link,
                                    CUDA compute capability */
    NVML_FACTS_NVLINK = 1U << 3, /* NVLink link count */
    NVML_FACTS_MIG = 1U << 4,    /* physical: MIG slot count (the caller sets mig_supported
                                    first, from a state's mig_mode); MIG: GI/CI ids */
    NVML_FACTS_ALL = 0x1FU
};

/* One process on one device, as the driver lists it (the lists merged by pid). */
struct nvml_process {
    uint32_t pid;
    unsigned type; /* enum nvt_process_type bits */
    uint64_t gpu_memory_bytes;
    uint32_t gpu_instance_id;
    uint32_t compute_instance_id;
    uint32_t sm_util_pct;
    uint32_t memory_util_pct;
    uint32_t encoder_util_pct;
    uint32_t decoder_util_pct;
};

/* A growable list the caller owns (zero-initialise it; free items when done). */
struct nvml_process_list {
    struct nvml_process *items;
    size_t count;
    size_t capacity;
};

/*
 * Load NVML (see nvml_loader_open for the search order) and initialise it once.  On success
 * *out is a back-end closed with nvml_backend_close().  Fails with NVT_ERR_LIBRARY_NOT_FOUND, the
 * mapped init error (NVT_ERR_DRIVER_NOT_LOADED, NVT_ERR_LIB_RM_VERSION_MISMATCH,
 * NVT_ERR_NO_PERMISSION, ...) or NVT_ERR_NO_MEMORY.
 */
nvt_status nvml_backend_open(const char *library_path, struct nvml_backend **out);

/* Shut NVML down (once) and unload it.  Accepts NULL. */
/* Why nvml_backend_open(library_path) finds no NVML library (nvml_loader_describe). */
size_t nvml_backend_library_error(const char *library_path, char *buf, size_t size);

void nvml_backend_close(struct nvml_backend *backend);

/* Driver facts and the number of physical devices (0 when the count query fails). */
void nvml_backend_system_info(struct nvml_backend *backend, struct nvt_system_info *out);

/* Names of entry points that were needed but missing; see nvt_missing_functions(). */
size_t nvml_backend_missing(const struct nvml_backend *backend, const char **names, size_t max);

/* The mapping of an nvmlReturn_t value (passed as int to keep NVML types private) to a status. */
nvt_status nvml_status_from_return(int nvml_return);

/*
 * Per-device back-end state for the physical device with this index.  Always succeeds except for
 * NVT_ERR_NO_MEMORY; a device whose handle the driver refuses gets a handle status (see
 * nvml_device_handle_status).  Free with nvml_device_close().
 */
nvt_status nvml_device_open(struct nvml_backend *backend, uint32_t index, struct nvml_device **out);

/*
 * Ask the driver again for the handle of a physical GPU that answered GPU_IS_LOST: by UUID when
 * `uuid` is known (not NULL or empty), else by index.  A GPU reset gives a new handle: *out is
 * then a fresh back-end device (no per-handle history: utilisation cursor, counter baselines,
 * process buffer) for the caller to use instead of `old`.  *out is NULL when the driver hands out
 * old's handle again.  Returns NVT_OK, the lookup's status (NVT_ERR_GPU_IS_LOST while the GPU is
 * still off the bus) or NVT_ERR_NO_MEMORY.
 */
nvt_status nvml_device_reopen(struct nvml_backend *backend, uint32_t index, const char *uuid,
                              const struct nvml_device *old, struct nvml_device **out);

/*
 * The MIG device in slot k of a physical GPU.  NVT_ERR_NOT_FOUND for an empty slot (or a parent
 * without a handle); NVT_ERR_GPU_IS_LOST gives a device without handle, as for physical devices.
 */
nvt_status nvml_device_open_mig(struct nvml_backend *backend, const struct nvml_device *parent,
                                uint32_t k, struct nvml_device **out);

void nvml_device_close(struct nvml_device *device);

/* Whether two back-end devices stand for the same driver handle (both without one counts as
 * different): how a re-read MIG layout is compared with the one in use. */
bool nvml_device_same_handle(const struct nvml_device *a, const struct nvml_device *b);

/* NVT_OK when the device has a handle, else why not. */
nvt_status nvml_device_handle_status(const struct nvml_device *device);

/* nvitop's current_driver_model(): "WDDM", "WDM" (TCC) or "N/A" (Linux, no handle, an error). */
const char *nvml_device_driver_model(struct nvml_backend *backend,
                                     const struct nvml_device *device);

/* The driver's nvmlDevice_t, for nvt_device_nvml_handle(); NULL without a handle. */
void *nvml_device_raw_handle(const struct nvml_device *device);

/*
 * Read the fact groups in `groups` into *info (fields of other groups are left alone).  Returns
 * the groups that are settled: all of them, except those the driver refused because the GPU was
 * lost at that moment, which are worth reading again later.
 */
unsigned nvml_device_facts(struct nvml_backend *backend, struct nvml_device *device,
                           unsigned groups, struct nvt_device_info *info);

/*
 * Read live values.  flags: NVT_SAMPLE_* bits; fields not asked for are set to N/A.  The MIG mode
 * of a physical device is always read (it decides which devices are leaves).  info gives the
 * NVLink count for throughput.  *memory_unsupported is set when the driver has no memory figures
 * for the device (NOT_SUPPORTED or a zero total), the case of unified-memory GPUs.
 */
void nvml_device_state(struct nvml_backend *backend, struct nvml_device *device, unsigned flags,
                       const struct nvt_device_info *info, struct nvt_device_state *out,
                       bool *memory_unsupported);

/* Every field of *out N/A (NaN, NVT_NA_*, NVT_FEATURE_NA…), status NVT_OK, struct_size the
 * library's own. */
void nvml_state_set_na(struct nvt_device_state *out);

/*
 * The processes on a device (compute, graphics and MPS lists merged by pid, sorted by pid) with
 * their per-process utilisation.  Replaces the contents of *out.  Errors from the driver give an
 * empty list; returns NVT_OK, NVT_ERR_GPU_IS_LOST (the GPU fell off the bus during a list call;
 * the list is empty) or NVT_ERR_NO_MEMORY.
 */
nvt_status nvml_device_processes(struct nvml_backend *backend, struct nvml_device *device,
                                 struct nvml_process_list *out);

#endif /* NVITOP_SRC_LIB_NVML_NVML_BACKEND_H */
