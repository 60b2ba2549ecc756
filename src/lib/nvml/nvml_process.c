/*
 * GPU process lists: compute, graphics and MPS-compute lists merged by pid, with the element
 * layout chosen by the driver generation (docs/nvitop-behaviour.md §9) and one buffer for every
 * device, kept at the longest list's size so that one call per list usually suffices.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/process.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/array.h"

/* The buffer holds elements of the largest layout, so a change of layout needs no reallocation. */
#define ELEMENT_MAX   sizeof(nvmlProcessInfo_v3_t)
#define INITIAL_COUNT 64U
#define MAX_RETRIES   4

enum list_kind {
    LIST_COMPUTE,
    LIST_GRAPHICS,
    LIST_MPS
};

static size_t element_size(enum nvml_process_layout layout) {
    switch (layout) {
    case NVML_LAYOUT_V3_32:
        return sizeof(nvmlProcessInfo_v3_t);
    case NVML_LAYOUT_V1:
        return sizeof(nvmlProcessInfo_v1_t);
    default:
        return sizeof(nvmlProcessInfo_v2_t);
    }
}

static enum nvml_process_layout fallback_layout(const struct nvml_api *api,
                                                enum nvml_process_layout from) {
    if (from <= NVML_LAYOUT_V3_24 && api->nvmlDeviceGetComputeRunningProcesses_v2 != NULL) {
        return NVML_LAYOUT_V2;
    }
    if (from <= NVML_LAYOUT_V2 && api->nvmlDeviceGetComputeRunningProcesses != NULL) {
        return NVML_LAYOUT_V1;
    }
    return NVML_LAYOUT_NONE;
}

/* nvitop's rule (docs/nvitop-behaviour.md §9), by the entry points the driver library exports: the
 * 32-byte _v3 element only on drivers with ConfComputeMemSizeInfo but without
 * RunningProcessDetailList (R535), whose header still had the protected-memory field. */
static void decide_layout(struct nvml_backend *backend) {
    const struct nvml_api *api = &backend->lib.api;
    if (api->nvmlDeviceGetComputeRunningProcesses_v3 != NULL) {
        bool v3_32 = api->nvmlDeviceGetConfComputeMemSizeInfo != NULL &&
                     api->nvmlDeviceGetRunningProcessDetailList == NULL;
        backend->layout = v3_32 ? NVML_LAYOUT_V3_32 : NVML_LAYOUT_V3_24;
        return;
    }
    backend->layout = fallback_layout(api, NVML_LAYOUT_V3_24);
}

static nvmlReturn_t call_list(const struct nvml_api *api, enum nvml_process_layout layout,
                              enum list_kind kind, nvmlDevice_t handle, unsigned int *count,
                              void *buffer) {
    nvmlReturn_t (*v3)(nvmlDevice_t, unsigned int *, void *) = NULL;
    nvmlReturn_t (*v2)(nvmlDevice_t, unsigned int *, nvmlProcessInfo_v2_t *) = NULL;
    nvmlReturn_t (*v1)(nvmlDevice_t, unsigned int *, nvmlProcessInfo_v1_t *) = NULL;
    switch (kind) {
    case LIST_COMPUTE:
        v3 = api->nvmlDeviceGetComputeRunningProcesses_v3;
        v2 = api->nvmlDeviceGetComputeRunningProcesses_v2;
        v1 = api->nvmlDeviceGetComputeRunningProcesses;
        break;
    case LIST_GRAPHICS:
        v3 = api->nvmlDeviceGetGraphicsRunningProcesses_v3;
        v2 = api->nvmlDeviceGetGraphicsRunningProcesses_v2;
        v1 = api->nvmlDeviceGetGraphicsRunningProcesses;
        break;
    case LIST_MPS:
        v3 = api->nvmlDeviceGetMPSComputeRunningProcesses_v3;
        v2 = api->nvmlDeviceGetMPSComputeRunningProcesses_v2;
        v1 = api->nvmlDeviceGetMPSComputeRunningProcesses;
        break;
    }
    switch (layout) {
    case NVML_LAYOUT_V3_32:
    case NVML_LAYOUT_V3_24:
        return v3 != NULL ? v3(handle, count, buffer) : NVML_ERROR_FUNCTION_NOT_FOUND;
    case NVML_LAYOUT_V2:
        return v2 != NULL ? v2(handle, count, buffer) : NVML_ERROR_FUNCTION_NOT_FOUND;
    case NVML_LAYOUT_V1:
        return v1 != NULL ? v1(handle, count, buffer) : NVML_ERROR_FUNCTION_NOT_FOUND;
    default:
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    }
}

static bool grow_buffer(struct nvml_backend *backend, unsigned capacity) {
    if (capacity <= backend->proc_capacity && backend->proc_buffer != NULL) {
        return true;
    }
    unsigned char *buffer = realloc(backend->proc_buffer, (size_t)capacity * ELEMENT_MAX);
    if (buffer == NULL) {
        return false;
    }
    backend->proc_buffer = buffer;
    backend->proc_capacity = capacity;
    return true;
}

static struct nvml_process *find_or_add(struct nvml_process_list *list, uint32_t pid) {
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].pid == pid) {
            return &list->items[i];
        }
    }
    if (list->count == list->capacity) {
        size_t capacity = list->capacity == 0 ? 16 : list->capacity * 2;
        struct nvml_process *items = realloc(list->items, capacity * sizeof(*items));
        if (items == NULL) {
            return NULL;
        }
        list->items = items;
        list->capacity = capacity;
    }
    struct nvml_process *process = &list->items[list->count++];
    memset(process, 0xFF, sizeof(*process)); /* every number N/A */
    process->pid = pid;
    process->type = 0;
    return process;
}

/* Add the count elements in the backend's buffer to the list.  Returns false when out of memory. */
static bool merge(const struct nvml_backend *backend, unsigned count, unsigned type,
                  struct nvml_process_list *list, bool *memory_na_seen) {
    enum nvml_process_layout layout = backend->layout;
    size_t stride = element_size(layout);
    for (unsigned i = 0; i < count; i++) {
        const unsigned char *element = backend->proc_buffer + (size_t)i * stride;
        unsigned int pid;
        unsigned long long memory;
        memcpy(&pid, element + offsetof(nvmlProcessInfo_v2_t, pid), sizeof(pid));
        memcpy(&memory, element + offsetof(nvmlProcessInfo_v2_t, usedGpuMemory), sizeof(memory));
        struct nvml_process *process = find_or_add(list, pid);
        if (process == NULL) {
            return false;
        }
        process->type |= type;
        process->gpu_memory_bytes = memory; /* NVML_VALUE_NOT_AVAILABLE_ULL is NVT_NA_U64 */
        if (memory == NVML_VALUE_NOT_AVAILABLE_ULL) {
            *memory_na_seen = true;
        }
        if (layout != NVML_LAYOUT_V1) {
            unsigned int gi;
            unsigned int ci;
            memcpy(&gi, element + offsetof(nvmlProcessInfo_v2_t, gpuInstanceId), sizeof(gi));
            memcpy(&ci, element + offsetof(nvmlProcessInfo_v2_t, computeInstanceId), sizeof(ci));
            process->gpu_instance_id = gi;
            process->compute_instance_id = ci;
        }
    }
    return true;
}

/* One list of the device into the backend's buffer.  Returns the number of elements read (0 on
 * driver errors); *oom is set when the buffer cannot grow, *lost when the GPU fell off the bus. */
static unsigned read_list(struct nvml_backend *backend, struct nvml_device *device,
                          enum list_kind kind, bool *oom, bool *lost) {
    if (!grow_buffer(backend, INITIAL_COUNT)) {
        *oom = true;
        return 0;
    }
    for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
        if (backend->layout == NVML_LAYOUT_NONE) {
            return 0;
        }
        unsigned int count = backend->proc_capacity;
        nvmlReturn_t result = call_list(&backend->lib.api, backend->layout, kind, device->handle,
                                        &count, backend->proc_buffer);
        if (result == NVML_SUCCESS) {
            return count <= backend->proc_capacity ? count : backend->proc_capacity;
        }
        if (result == NVML_ERROR_INSUFFICIENT_SIZE) {
            /* Processes may start between two calls: leave room for a few more. */
            if (count > (1U << 20) || !grow_buffer(backend, 2 * count + 5)) {
                *oom = count <= (1U << 20);
                return 0;
            }
            continue;
        }
        if (result == NVML_ERROR_FUNCTION_NOT_FOUND && kind == LIST_COMPUTE) {
            /* Not implemented (NVML's meaning of the code): the compute list decides the
             * generation; an older one may lack only MPS. */
            backend->layout = fallback_layout(&backend->lib.api, backend->layout);
            continue;
        }
        *lost = result == NVML_ERROR_GPU_IS_LOST;
        return 0; /* NO_PERMISSION and the like: no processes, as nvitop shows */
    }
    return 0;
}

static int compare_pid(const void *a, const void *b) {
    uint32_t pa = ((const struct nvml_process *)a)->pid;
    uint32_t pb = ((const struct nvml_process *)b)->pid;
    return (pa > pb) - (pa < pb);
}

nvt_status nvml_device_processes(struct nvml_backend *backend, struct nvml_device *device,
                                 struct nvml_process_list *out) {
    out->count = 0;
    if (device->handle == NULL) {
        return NVT_OK;
    }
    if (backend->layout == NVML_LAYOUT_UNDECIDED) {
        decide_layout(backend);
    }
    static const struct {
        enum list_kind kind;
        unsigned type;
    } lists[] = {
        {LIST_COMPUTE, NVT_PROCESS_COMPUTE},
        {LIST_GRAPHICS, NVT_PROCESS_GRAPHICS},
        {LIST_MPS, NVT_PROCESS_COMPUTE},
    };
    bool memory_na_seen = false;
    for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
        bool oom = false;
        bool lost = false;
        unsigned count = read_list(backend, device, lists[i].kind, &oom, &lost);
        if (oom) {
            return NVT_ERR_NO_MEMORY;
        }
        if (lost) {
            out->count = 0;
            return NVT_ERR_GPU_IS_LOST;
        }
        if (!merge(backend, count, lists[i].type, out, &memory_na_seen)) {
            return NVT_ERR_NO_MEMORY;
        }
    }
    if (out->count == 0) {
        return NVT_OK;
    }
    qsort(out->items, out->count, sizeof(out->items[0]), compare_pid);
    return nvml_apply_process_utilization(backend, device, out, memory_na_seen);
}
