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

void device_init(nvt_device *device, nvt_context *ctx, nvt_device *parent, uint32_t index,
                 uint32_t mig_index) {
    memset(device, 0, sizeof(*device));
    device->ctx = ctx;
    device->parent = parent;
    struct nvt_device_info *info = &device->info;
    memset(info, 0xFF, sizeof(*info)); /* every number N/A */
    info->index = index;
    info->mig_index = mig_index;
    info->is_mig = parent != NULL;
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

void device_read_state(nvt_device *device, unsigned flags, struct nvt_device_state *out) {
    if ((flags & NVT_SAMPLE_NVLINK) != 0 && !device->info.is_mig) {
        device_ensure_facts(device, NVML_FACTS_NVLINK, NULL);
    }
    bool memory_unsupported = false;
    nvml_device_state(device->ctx->nvml, device->nvml, flags, &device->info, out,
                      &memory_unsupported);
    if (!memory_unsupported || (flags & (NVT_SAMPLE_DEVICES | NVT_SAMPLE_DEVICES_FAST)) == 0) {
        return;
    }
    /* Unified memory (DGX Spark, Thor): the GPU uses host memory, so show the host's. */
    uint64_t total = NVT_NA_U64;
    uint64_t available = NVT_NA_U64;
    host_virtual_memory(device->ctx->host, &total, &available);
    if (total == NVT_NA_U64 || available == NVT_NA_U64 || available > total) {
        return;
    }
    out->memory_total_bytes = total;
    out->memory_free_bytes = available;
    out->memory_used_bytes = total - available;
    out->memory_reserved_bytes = NVT_NA_U64;
    out->memory_is_host = true;
}

/* Undo a half-done listing, so that the next attempt starts clean. */
static nvt_status forget_children(nvt_device *device, nvt_status status) {
    for (uint32_t k = 0; k < device->child_count; k++) {
        nvml_device_close(device->children[k]->nvml);
        free(device->children[k]);
    }
    free(device->children);
    device->children = NULL;
    device->child_count = 0;
    return status;
}

nvt_status device_list_children(nvt_device *device) {
    if (device->children_listed || device->info.is_mig) {
        return NVT_OK;
    }
    device_ensure_facts(device, NVML_FACTS_MIG, NULL);
    uint32_t max = device->info.mig_max_count;
    if (max == 0 || max == NVT_NA_U32) {
        device->children_listed = true;
        return NVT_OK;
    }
    device->children = calloc(max, sizeof(nvt_device *));
    if (device->children == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    for (uint32_t k = 0; k < max; k++) {
        struct nvml_device *nvml = NULL;
        nvt_status status = nvml_device_open_mig(device->ctx->nvml, device->nvml, k, &nvml);
        if (status == NVT_ERR_NOT_FOUND) {
            continue; /* an empty slot: instances need not be numbered densely */
        }
        if (status == NVT_ERR_NO_MEMORY) {
            return forget_children(device, status);
        }
        if (status != NVT_OK) {
            break; /* like nvitop, stop at the first other failure */
        }
        nvt_device *child = malloc(sizeof(*child));
        if (child == NULL) {
            nvml_device_close(nvml);
            return forget_children(device, NVT_ERR_NO_MEMORY);
        }
        device_init(child, device->ctx, device, device->info.index, k);
        child->nvml = nvml;
        child->info.handle_status = nvml_device_handle_status(nvml);
        device->children[device->child_count++] = child;
    }
    device->children_listed = true;
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
    if (device_list_children(mutable_device) != NVT_OK) {
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
