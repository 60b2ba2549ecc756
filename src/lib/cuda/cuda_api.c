/*
 * nvt_cuda_visible_devices / nvt_cuda_normalize_visible_devices: the device table from the
 * context, the CUDA driver's answer from a child process when the driver library exists, and the
 * pure resolution of cuda_visible.c.
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/cuda.h>

#include "cuda/cuda_child.h"
#include "cuda/cuda_visible.h"
#include "internal.h"
#include "nvml/nvml_backend.h"
#include "util/text/str.h"
#include "util/text/strbuf.h"

/* The table and the memory behind it. */
struct table_store {
    struct cuda_table table;
    struct cuda_gpu_entry *gpus;
    struct cuda_mig_entry *migs;
};

static void store_fini(struct table_store *store) {
    free(store->gpus);
    free(store->migs);
}

static nvt_status build_table(nvt_context *ctx, struct table_store *store) {
    memset(store, 0, sizeof(*store));
    uint32_t count = ctx->nvml != NULL ? ctx->system.device_count : 0;
    if (count == 0) {
        return NVT_OK;
    }
    store->gpus = calloc(count, sizeof(*store->gpus));
    if (store->gpus == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    /* Enumerate MIG devices here rather than through nvt_device_mig_count(), which cannot say
     * that it ran out of memory (the table would silently lose a GPU's MIG devices). */
    size_t mig_total = 0;
    for (uint32_t i = 0; i < count; i++) {
        nvt_device *device = ctx->devices[i];
        struct nvt_device_state state;
        device_read_state(device, 0, &state);
        if (state.mig_mode != NVT_FEATURE_ENABLED) {
            continue;
        }
        device_ensure_facts(device, NVML_FACTS_MIG, &state);
        nvt_status status = device_list_children(device);
        if (status != NVT_OK) {
            return status;
        }
        mig_total += device->child_count;
    }
    store->migs = calloc(mig_total > 0 ? mig_total : 1, sizeof(*store->migs));
    if (store->migs == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    size_t used = 0;
    for (uint32_t i = 0; i < count; i++) {
        nvt_device *device = ctx->devices[i];
        device_ensure_facts(device, NVML_FACTS_UUID, NULL);
        struct nvt_device_state state;
        device_read_state(device, 0, &state);
        struct cuda_gpu_entry *gpu = &store->gpus[i];
        gpu->index = i;
        gpu->uuid = device->info.uuid;
        gpu->mig_supported = state.mig_mode != NVT_FEATURE_NA;
        gpu->mig_enabled = state.mig_mode == NVT_FEATURE_ENABLED;
        gpu->migs = &store->migs[used];
        uint32_t children = gpu->mig_enabled ? nvt_device_mig_count(device) : 0;
        for (uint32_t k = 0; k < children && used < mig_total; k++) {
            nvt_device *child = device->children[k];
            device_ensure_facts(child, NVML_FACTS_UUID | NVML_FACTS_MIG, NULL);
            store->migs[used++] =
                (struct cuda_mig_entry){child->info.mig_index, child->info.gpu_instance_id,
                                        child->info.compute_instance_id, child->info.uuid};
            gpu->mig_count++;
        }
    }
    store->table = (struct cuda_table){store->gpus, count};
    return NVT_OK;
}

/* Ask the CUDA driver in a child.  NVT_OK with *resolved set when its answer settled the list;
 * otherwise *resolved stays false and *value_out may hold the UUID list to resolve instead. */
static nvt_status ask_cuda(nvt_context *ctx, const char *value, const struct cuda_table *table,
                           struct nvt_cuda_device *out, size_t *count, bool *resolved,
                           char **value_out) {
    *resolved = false;
    *value_out = NULL;
    const char *library = ctx->cuda_library_path;
    if (ctx->cuda_absent || (library != NULL && library[0] == '\0')) {
        return NVT_OK;
    }
    char *uuids = NULL;
    nvt_status status = cuda_child_uuids(library, value, &uuids);
    if (status == NVT_ERR_LIBRARY_NOT_FOUND) {
        ctx->cuda_absent = true;
    }
    if (status != NVT_OK) {
        return status == NVT_ERR_NO_MEMORY ? status : NVT_OK; /* fall back to NVML */
    }
    size_t size = strlen(uuids) * 2 + 16;
    char *joined = malloc(size);
    if (joined == NULL) {
        free(uuids);
        return NVT_ERR_NO_MEMORY;
    }
    *resolved = cuda_visible_from_uuids(uuids, table, out, count, joined, size);
    free(uuids);
    if (*resolved) {
        free(joined);
    } else {
        *value_out = joined;
    }
    return NVT_OK;
}

nvt_status nvt_cuda_visible_devices(nvt_context *ctx, const char *value,
                                    struct nvt_cuda_device **out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    struct table_store store;
    nvt_status status = build_table(ctx, &store);
    size_t max = cuda_visible_max(&store.table);
    if (status != NVT_OK || max == 0) {
        store_fini(&store);
        return status;
    }
    struct nvt_cuda_device *devices = calloc(max, sizeof(*devices));
    if (devices == NULL) {
        store_fini(&store);
        return NVT_ERR_NO_MEMORY;
    }
    bool resolved = false;
    char *uuid_value = NULL;
    status = ask_cuda(ctx, value, &store.table, devices, count, &resolved, &uuid_value);
    if (status == NVT_OK && !resolved) {
        /* Without libcuda, abbreviations are resolved here (CUDA would accept them too). */
        bool abbreviations = uuid_value == NULL;
        *count = cuda_visible_resolve(uuid_value != NULL ? uuid_value : value, &store.table,
                                      abbreviations, devices);
        if (*count == SIZE_MAX) {
            status = NVT_ERR_NO_MEMORY;
        }
    }
    free(uuid_value);
    store_fini(&store);
    if (status != NVT_OK || *count == 0) {
        free(devices);
        *count = 0;
        return status;
    }
    *out = devices;
    return NVT_OK;
}

size_t nvt_cuda_normalize_visible_devices(nvt_context *ctx, const char *value, char *buf,
                                          size_t size) {
    if (size > 0) {
        buf[0] = '\0';
    }
    struct nvt_cuda_device *devices = NULL;
    size_t count = 0;
    if (ctx == NULL || nvt_cuda_visible_devices(ctx, value, &devices, &count) != NVT_OK) {
        return 0;
    }
    struct strbuf joined = STRBUF_INIT;
    bool complete = true;
    for (size_t i = 0; i < count && complete; i++) {
        complete = (i == 0 || strbuf_append_char(&joined, ',')) &&
                   strbuf_append_str(&joined, devices[i].uuid);
    }
    free(devices);
    size_t needed = complete ? str_copy(buf, size, strbuf_cstr(&joined)) : 0;
    strbuf_fini(&joined);
    return needed;
}
