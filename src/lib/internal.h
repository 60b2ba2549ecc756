/*
 * Private types of libnvitop shared between its source files.  Only src/lib/ includes this.
 */
#ifndef NVITOP_SRC_LIB_INTERNAL_H
#define NVITOP_SRC_LIB_INTERNAL_H

#include <nvitop/context.h>
#include <nvitop/device.h>

struct host_ctx;
struct nvml_backend;
struct nvml_device;

/* A physical or MIG device, owned by its context. */
struct nvt_device {
    nvt_context *ctx;
    struct nvml_device *nvml;
    struct nvt_device_info info;
    unsigned facts_read; /* enum nvml_facts groups already in info */
    bool mig_known;      /* info.mig_supported has been decided */
    bool lost_seen;      /* the last read answered GPU_IS_LOST: look the handle up again */
    nvt_device *parent;  /* NULL for a physical device */
    /* MIG devices of a physical GPU, enumerated when MIG is first seen enabled and again when
     * the GPU may have been re-partitioned (device_refresh_children). */
    nvt_device **children;
    uint32_t child_count;
    bool children_listed;
    double children_listed_at; /* monotonic seconds of the last enumeration or check */
    /* MIG devices of earlier layouts: callers may still hold them, so they live (answering as
     * lost) until the context closes. */
    nvt_device **retired;
    uint32_t retired_count;
};

struct nvt_context {
    struct nvml_backend *nvml; /* NULL when the context has no GPUs */
    nvt_status gpu_status;
    struct nvt_system_info system;
    struct host_ctx *host;
    nvt_device **devices;    /* system.device_count physical devices */
    char *cuda_library_path; /* NULL: the default search; "": CUDA path disabled */
    bool cuda_absent;        /* a child found no CUDA driver library: do not fork again */
    /* nvt_snapshot_focus(): while focus_set, the pids (sorted, distinct) whose /proc files the
     * snapshots read; the other GPU processes keep their last reading. */
    bool focus_set;
    uint32_t *focus_pids;
    size_t focus_count;
    /* GPU processes the last whole snapshot listed: the room the next pass makes at once, so
     * that a thousand are not gathered through a chain of ever larger copies. */
    size_t process_hint;
};

/* The host back-end of a context (never NULL for an open context). */
struct host_ctx *context_host(nvt_context *ctx);

/* Does a snapshot of ctx read the /proc files of this GPU process (nvt_snapshot_focus())? */
bool context_reads_process(const nvt_context *ctx, uint32_t pid);

/* Every fact of *info N/A (strings empty), handle_status NVT_OK, with its place in the tree. */
void device_info_init_na(struct nvt_device_info *info, uint32_t index, uint32_t mig_index,
                         bool is_mig);

/* Set up a device whose facts are all N/A (nvml is left NULL for the caller to fill). */
void device_init(nvt_device *device, nvt_context *ctx, nvt_device *parent, uint32_t index,
                 uint32_t mig_index);

/*
 * Make sure the fact groups (enum nvml_facts) are in device->info.  known_state, when not NULL, is
 * a state read in the same pass, whose MIG mode decides MIG support without another query.
 */
void device_ensure_facts(nvt_device *device, unsigned groups,
                         const struct nvt_device_state *known_state);

/*
 * Read a device's live values, with the unified-memory fallback (host virtual memory when the
 * driver has no memory figures).  A physical GPU whose previous read answered GPU_IS_LOST is
 * looked up again first (once per read); a reset GPU's new handle replaces the old one, with its
 * facts, per-handle history and MIG devices started afresh.
 */
void device_read_state(nvt_device *device, unsigned flags, struct nvt_device_state *out);

/* Note that a physical GPU answered GPU_IS_LOST outside device_read_state (its process list):
 * its next read looks its handle up again. */
void device_note_lost(nvt_device *device);

/* Enumerate the MIG devices of a physical GPU once.  NVT_OK or NVT_ERR_NO_MEMORY. */
nvt_status device_list_children(nvt_device *device);

/*
 * Enumerate the MIG devices of a physical GPU, or check the enumeration: at once when `failed`
 * (a MIG device's read failed, as a destroyed instance's do), else at most every few seconds (so
 * that a created instance appears).  A changed layout replaces device->children; the old MIG
 * devices move to device->retired.  NVT_OK or NVT_ERR_NO_MEMORY.
 */
nvt_status device_refresh_children(nvt_device *device, bool failed);

#endif /* NVITOP_SRC_LIB_INTERNAL_H */
