/*
 * CUDA versions as nvitop prints them, the CUDA runtime's version (libcudart), and the device
 * handle behind a CUDA ordinal.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/cuda.h>
#include <nvitop/device.h>

#include "util/sys/dl.h"

size_t nvt_cuda_version_string(char *buf, size_t size, int32_t version) {
    char text[32];
    if (nvt_is_na_i32(version) || version < 0) {
        snprintf(text, sizeof(text), "N/A");
    } else if (version % 10 != 0) {
        snprintf(text, sizeof(text), "%" PRId32 ".%" PRId32 ".%" PRId32, version / 1000,
                 version % 1000 / 10, version % 10);
    } else {
        snprintf(text, sizeof(text), "%" PRId32 ".%" PRId32, version / 1000, version % 1000 / 10);
    }
    return (size_t)snprintf(buf, size, "%s", text);
}

typedef int (*cudart_version_fn)(int *);

nvt_status nvt_cuda_runtime_version(const char *library_path, int32_t *out) {
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NVT_NA_I32;
    /* The unversioned name is what a CUDA toolkit installs; the versioned ones are what the
     * runtime packages of the current and previous major versions ship. */
    static const char *const defaults[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                           "libcudart.so.11.0"};
    void *dl = NULL;
    if (library_path != NULL) {
        dl = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    }
    for (size_t i = 0;
         library_path == NULL && dl == NULL && i < sizeof(defaults) / sizeof(*defaults); i++) {
        dl = dlopen(defaults[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (dl == NULL) {
        return NVT_ERR_LIBRARY_NOT_FOUND;
    }
    cudart_version_fn get_version = NULL;
    nvt_status status = NVT_ERR_FUNCTION_NOT_FOUND;
    if (dl_function(dl, "cudaRuntimeGetVersion", &get_version, sizeof(get_version))) {
        int version = 0;
        /* Answers from a constant in the library: CUDA is not initialised. */
        if (get_version(&version) == 0 && version > 0) {
            *out = version;
            status = NVT_OK;
        } else {
            status = NVT_ERR_CUDA;
        }
    }
    dlclose(dl);
    return status;
}

/* The MIG device of physical GPU `parent` whose slot number is mig_index. */
static nvt_status find_mig(nvt_device *parent, uint32_t mig_index, nvt_device **out) {
    uint32_t count = nvt_device_mig_count(parent);
    for (uint32_t k = 0; k < count; k++) {
        nvt_device *child = NULL;
        if (nvt_device_mig(parent, k, &child) == NVT_OK &&
            nvt_device_info(child)->mig_index == mig_index) {
            *out = child;
            return NVT_OK;
        }
    }
    return NVT_ERR_NOT_FOUND;
}

nvt_status nvt_device_by_cuda_index(nvt_context *ctx, const char *visible_devices,
                                    uint32_t cuda_index, nvt_device **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct nvt_cuda_device *devices = NULL;
    size_t count = 0;
    nvt_status status = nvt_cuda_visible_devices(ctx, visible_devices, &devices, &count);
    if (status != NVT_OK) {
        return status;
    }
    if (cuda_index >= count) {
        free(devices);
        return NVT_ERR_OUT_OF_RANGE; /* CUDA's "invalid device ordinal" */
    }
    const struct nvt_cuda_device *chosen = &devices[cuda_index];
    nvt_device *physical = NULL;
    status = nvt_device_by_index(ctx, chosen->index, &physical);
    if (status == NVT_OK && !nvt_is_na_u32(chosen->mig_index)) {
        status = find_mig(physical, chosen->mig_index, out);
    } else if (status == NVT_OK) {
        *out = physical;
    }
    free(devices);
    return status;
}

nvt_status nvt_device_cuda_index(nvt_context *ctx, const char *visible_devices, nvt_device *device,
                                 uint32_t *out) {
    if (ctx == NULL || device == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NVT_NA_U32;
    const struct nvt_device_info *info = nvt_device_info(device);
    struct nvt_cuda_device *devices = NULL;
    size_t count = 0;
    nvt_status status = nvt_cuda_visible_devices(ctx, visible_devices, &devices, &count);
    if (status != NVT_OK) {
        return status;
    }
    status = NVT_ERR_NOT_FOUND;
    for (size_t i = 0; i < count && info->uuid[0] != '\0'; i++) {
        if (strcmp(devices[i].uuid, info->uuid) == 0) {
            *out = devices[i].cuda_index;
            status = NVT_OK;
            break;
        }
    }
    free(devices);
    return status;
}
