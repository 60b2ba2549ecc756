/*
 * Devices: the table of physical GPUs and their MIG devices owned by a context, lazily read
 * static facts, live state with the unified-memory fallback, and lookup by index (UUID and bus id
 * lookups are in device_lookup.c).
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/device.h>

#include "abi.h"
#include "host/host.h"
#include "internal.h"
#include "nvml/nvml_backend.h"
#include "util/sys/clock.h"

void device_info_init_na(struct nvt_device_info *info, uint32_t index, uint32_t mig_index,
                         bool is_mig) {
    memset(info, 0xFF, sizeof(*info)); /* every number N/A */
    info->index = index;
    info->mig_index = mig_index;
    info->is_mig = is_mig;
    info->handle_status = NVT_OK;
    info->name[0] = '\0';
    info->uuid[0] = '\0';
    info->bus_id[0] = '\0';
    info->serial[0] = '\0';
    info->vbios_version[0] = '\0';
    info->cuda_cc_major = NVT_NA_I32;
    info->cuda_cc_minor = NVT_NA_I32;
    info->mig_supported = false;
    info->mig_max_count = 0;
    info->nvlink_count = 0;
}

void device_init(nvt_device *device, nvt_context *ctx, nvt_device *parent, uint32_t index,
                 uint32_t mig_index) {
    memset(device, 0, sizeof(*device));
    device->ctx = ctx;
    device->parent = parent;
    device_info_init_na(&device->info, index, mig_index, parent != NULL);
}

static void copy_parent_location(nvt_device *device) {
    nvt_device *parent = device->parent;
    device_ensure_facts(parent, NVML_FACTS_CORE, NULL);
    memcpy(device->info.bus_id, parent->info.bus_id, sizeof(device->info.bus_id));
    device->info.pci_domain = parent->info.pci_domain;
    device->info.pci_bus = parent->info.pci_bus;
    device->info.pci_device = parent->info.pci_device;
    device->info.pci_device_id = parent->info.pci_device_id;
    device->info.pci_subsystem_id = parent->info.pci_subsystem_id;
}

void device_ensure_facts(nvt_device *device, unsigned groups,
                         const struct nvt_device_state *known_state) {
    unsigned missing = groups & ~device->facts_read;
    if (missing == 0) {
        return;
    }
    if (device->info.handle_status != NVT_OK) {
        device->facts_read |= missing;
        return;
    }
    if ((missing & NVML_FACTS_MIG) != 0 && !device->info.is_mig && !device->mig_known) {
        struct nvt_device_state state;
        if (known_state == NULL) {
            bool unused;
            nvml_device_state(device->ctx->nvml, device->nvml, 0, &device->info, &state, &unused);
            known_state = &state;
        }
        device->info.mig_supported = known_state->mig_mode != NVT_FEATURE_NA;
        /* A GPU lost right now says nothing about MIG: decide again next time. */
        device->mig_known = known_state->status == NVT_OK;
    }
    unsigned settled = nvml_device_facts(device->ctx->nvml, device->nvml, missing, &device->info);
    if (device->info.is_mig && (missing & NVML_FACTS_CORE) != 0) {
        copy_parent_location(device);
    }
    device->facts_read |= settled;
}

void device_note_lost(nvt_device *device) {
    if (!device->info.is_mig) {
        device->lost_seen = true;
    }
}

/* Retire the MIG devices of a GPU that got a new handle (callers may still hold them; their old
 * handles answer as lost): the next listing reads the new handle's. */
static nvt_status retire_children(nvt_device *device) {
    if (device->child_count > 0) {
        nvt_device **retired = realloc(
            device->retired, (device->retired_count + device->child_count) * sizeof(nvt_device *));
        if (retired == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        device->retired = retired;
        for (uint32_t k = 0; k < device->child_count; k++) {
            device->retired[device->retired_count++] = device->children[k];
        }
    }
    free(device->children);
    device->children = NULL;
    device->child_count = 0;
    device->children_listed = false;
    return NVT_OK;
}

/* A physical GPU that answered GPU_IS_LOST, at open or in its last read: one handle lookup.  A
 * reset GPU answers with a new handle; the device then starts afresh (facts, MIG support and
 * devices, the back-end's per-handle history), so that nothing read through the old handle is
 * shown beside the new values.  Still lost, or out of memory: the device stays as it was. */
static void reacquire(nvt_device *device) {
    device->lost_seen = false;
    struct nvml_device *fresh = NULL;
    if (nvml_device_reopen(device->ctx->nvml, device->info.index, device->info.uuid, device->nvml,
                           &fresh) != NVT_OK ||
        fresh == NULL) {
        return;
    }
    if (retire_children(device) != NVT_OK) {
        nvml_device_close(fresh);
        return;
    }
    nvml_device_close(device->nvml);
    device->nvml = fresh;
    device_info_init_na(&device->info, device->info.index, device->info.mig_index, false);
    device->facts_read = 0;
    device->mig_known = false;
}

void device_read_state(nvt_device *device, unsigned flags, struct nvt_device_state *out) {
    if (device->lost_seen) {
        reacquire(device);
    }
    if ((flags & NVT_SAMPLE_NVLINK) != 0 && !device->info.is_mig) {
        device_ensure_facts(device, NVML_FACTS_NVLINK, NULL);
    }
    bool memory_unsupported = false;
    nvml_device_state(device->ctx->nvml, device->nvml, flags, &device->info, out,
                      &memory_unsupported);
    if (out->status == NVT_ERR_GPU_IS_LOST) {
        device_note_lost(device);
    }
    if (!memory_unsupported || (flags & (NVT_SAMPLE_DEVICES | NVT_SAMPLE_DEVICES_FAST)) == 0) {
        return;
    }
    /* Unified memory (DGX Spark, Thor): the GPU uses host memory, so show the host's, with
     * nvitop 1.7's figures (psutil's total, free and used; buffers and caches count as neither). */
    uint64_t total = NVT_NA_U64;
    uint64_t free_bytes = NVT_NA_U64;
    uint64_t used = NVT_NA_U64;
    host_virtual_memory(device->ctx->host, &total, &free_bytes, &used);
    if (total == NVT_NA_U64 || free_bytes > total || used > total) {
        return;
    }
    out->memory_total_bytes = total;
    out->memory_free_bytes = free_bytes;
    out->memory_used_bytes = used;
    out->memory_reserved_bytes = NVT_NA_U64;
    out->memory_is_host = true;
}

/* How often the MIG layout of a MIG-enabled GPU is checked when nothing failed: instances created
 * since the last check appear within this time.  A check costs one NVML call per MIG slot. */
#define MIG_RECHECK_PERIOD_S 5.0

struct child_list {
    nvt_device **items;
    uint32_t count;
};

static void free_child_list(struct child_list *list) {
    for (uint32_t k = 0; k < list->count; k++) {
        nvml_device_close(list->items[k]->nvml);
        free(list->items[k]);
    }
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

/* Open the MIG devices of a physical GPU as the driver lists them now. */
static nvt_status read_child_list(nvt_device *device, struct child_list *list) {
    list->items = NULL;
    list->count = 0;
    uint32_t max = device->info.mig_max_count;
    if (max == 0 || max == NVT_NA_U32) {
        return NVT_OK;
    }
    list->items = calloc(max, sizeof(nvt_device *));
    if (list->items == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    for (uint32_t k = 0; k < max; k++) {
        struct nvml_device *nvml = NULL;
        nvt_status status = nvml_device_open_mig(device->ctx->nvml, device->nvml, k, &nvml);
        if (status == NVT_ERR_NOT_FOUND) {
            continue; /* an empty slot: instances need not be numbered densely */
        }
        if (status == NVT_ERR_NO_MEMORY) {
            free_child_list(list);
            return status;
        }
        if (status != NVT_OK) {
            break; /* like nvitop, stop at the first other failure */
        }
        nvt_device *child = malloc(sizeof(*child));
        if (child == NULL) {
            nvml_device_close(nvml);
            free_child_list(list);
            return NVT_ERR_NO_MEMORY;
        }
        device_init(child, device->ctx, device, device->info.index, k);
        child->nvml = nvml;
        child->info.handle_status = nvml_device_handle_status(nvml);
        list->items[list->count++] = child;
    }
    return NVT_OK;
}

nvt_status device_list_children(nvt_device *device) {
    if (device->children_listed || device->info.is_mig) {
        return NVT_OK;
    }
    device_ensure_facts(device, NVML_FACTS_MIG, NULL);
    struct child_list list;
    nvt_status status = read_child_list(device, &list);
    if (status != NVT_OK) {
        return status;
    }
    device->children = list.items;
    device->child_count = list.count;
    device->children_listed = true;
    device->children_listed_at = clock_monotonic_s();
    return NVT_OK;
}

/* Whether a fresh listing names the same instances, slot for slot, as the one in use.  A driver
 * may hand out the same handle for an instance created again in a freed slot, so the instance
 * ids are compared too (when the old ones were read: two calls per instance). */
static bool same_children(const nvt_device *device, struct child_list *list) {
    if (list->count != device->child_count) {
        return false;
    }
    for (uint32_t k = 0; k < list->count; k++) {
        const nvt_device *old = device->children[k];
        nvt_device *now = list->items[k];
        if (old->info.mig_index != now->info.mig_index ||
            !nvml_device_same_handle(old->nvml, now->nvml)) {
            return false;
        }
        if ((old->facts_read & NVML_FACTS_MIG) != 0) {
            now->facts_read |=
                nvml_device_facts(device->ctx->nvml, now->nvml, NVML_FACTS_MIG, &now->info);
            if (old->info.gpu_instance_id != now->info.gpu_instance_id ||
                old->info.compute_instance_id != now->info.compute_instance_id) {
                return false;
            }
        }
    }
    return true;
}

nvt_status device_refresh_children(nvt_device *device, bool failed) {
    if (device->info.is_mig) {
        return NVT_OK;
    }
    if (!device->children_listed) {
        return device_list_children(device);
    }
    double now = clock_monotonic_s();
    if (!failed && now - device->children_listed_at < MIG_RECHECK_PERIOD_S) {
        return NVT_OK;
    }
    struct child_list list;
    nvt_status status = read_child_list(device, &list);
    if (status != NVT_OK) {
        return status;
    }
    device->children_listed_at = now;
    /* A failed read on an unchanged layout still gets fresh devices: an instance destroyed and
     * created again in the same slot has new facts (profile, instance ids). */
    if (!failed && same_children(device, &list)) {
        free_child_list(&list);
        return NVT_OK;
    }
    nvt_device **retired = realloc(
        device->retired, (device->retired_count + device->child_count + 1) * sizeof(nvt_device *));
    if (retired == NULL) {
        free_child_list(&list);
        return NVT_ERR_NO_MEMORY;
    }
    device->retired = retired;
    for (uint32_t k = 0; k < device->child_count; k++) {
        device->retired[device->retired_count++] = device->children[k];
    }
    free(device->children);
    device->children = list.items;
    device->child_count = list.count;
    return NVT_OK;
}

uint32_t nvt_device_count(const nvt_context *ctx) {
    return ctx->system.device_count;
}

nvt_status nvt_device_by_index(nvt_context *ctx, uint32_t index, nvt_device **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    if (index >= ctx->system.device_count) {
        return NVT_ERR_OUT_OF_RANGE;
    }
    *out = ctx->devices[index];
    return NVT_OK;
}

uint32_t nvt_device_mig_count(const nvt_device *device) {
    if (device == NULL || device->info.is_mig) {
        return 0;
    }
    /* The public handle is not const in spirit: listing is a cache fill. */
    nvt_device *mutable_device = device->ctx->devices[device->info.index];
    struct nvt_device_state state;
    device_read_state(mutable_device, 0, &state);
    if (state.mig_mode != NVT_FEATURE_ENABLED) {
        return 0;
    }
    device_ensure_facts(mutable_device, NVML_FACTS_MIG, &state);
    if (device_refresh_children(mutable_device, false) != NVT_OK) {
        return 0;
    }
    return mutable_device->child_count;
}

nvt_status nvt_device_mig(nvt_device *device, uint32_t k, nvt_device **out) {
    if (device == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    if (k >= nvt_device_mig_count(device)) {
        return NVT_ERR_OUT_OF_RANGE;
    }
    *out = device->children[k];
    return NVT_OK;
}

nvt_device *nvt_device_parent(const nvt_device *device) {
    return device == NULL ? NULL : device->parent;
}

void *nvt_device_nvml_handle(const nvt_device *device) {
    return device != NULL && device->nvml != NULL ? nvml_device_raw_handle(device->nvml) : NULL;
}

const char *nvt_device_driver_model(nvt_device *device) {
    if (device == NULL || device->nvml == NULL) {
        return "N/A";
    }
    return nvml_device_driver_model(device->ctx->nvml, device->nvml);
}

const struct nvt_device_info *nvt_device_info(nvt_device *device) {
    device_ensure_facts(device, NVML_FACTS_ALL, NULL);
    return &device->info;
}

nvt_status nvt_device_state(nvt_device *device, unsigned flags, struct nvt_device_state *out) {
    if (device == NULL || out == NULL || out->struct_size < ABI_DEV_STATE_SIZE_1) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    /* Read into the library's own struct, then give the caller the part its struct holds. */
    struct nvt_device_state state;
    device_read_state(device, flags, &state);
    size_t caller_size = out->struct_size;
    abi_copy(out, &state, caller_size, sizeof(state));
    out->struct_size = caller_size;
    return NVT_OK;
}
