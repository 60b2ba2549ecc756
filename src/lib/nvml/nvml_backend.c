/*
 * The NVML back-end's life cycle: load and initialise once, driver facts, device handles, the
 * report of missing entry points, and the mapping of NVML return codes to statuses.
 */
#include "nvml/nvml_backend.h"

#include <stdlib.h>
#include <string.h>

#include "nvml/nvml_private.h"
#include "util/text/str.h"

nvt_status nvml_status_from_return(int nvml_return) {
    switch ((nvmlReturn_t)nvml_return) {
    case NVML_SUCCESS:
        return NVT_OK;
    case NVML_ERROR_UNINITIALIZED:
        return NVT_ERR_UNINITIALIZED;
    case NVML_ERROR_INVALID_ARGUMENT:
        return NVT_ERR_INVALID_ARGUMENT;
    case NVML_ERROR_NOT_SUPPORTED:
        return NVT_ERR_NOT_SUPPORTED;
    case NVML_ERROR_NO_PERMISSION:
        return NVT_ERR_NO_PERMISSION;
    case NVML_ERROR_NOT_FOUND:
        return NVT_ERR_NOT_FOUND;
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return NVT_ERR_DRIVER_NOT_LOADED;
    case NVML_ERROR_TIMEOUT:
        return NVT_ERR_TIMEOUT;
    case NVML_ERROR_LIBRARY_NOT_FOUND:
        return NVT_ERR_LIBRARY_NOT_FOUND;
    case NVML_ERROR_FUNCTION_NOT_FOUND:
        return NVT_ERR_FUNCTION_NOT_FOUND;
    case NVML_ERROR_GPU_IS_LOST:
        return NVT_ERR_GPU_IS_LOST;
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
        return NVT_ERR_LIB_RM_VERSION_MISMATCH;
    case NVML_ERROR_UNKNOWN:
        return NVT_ERR_NVML_UNKNOWN;
    default:
        return NVT_ERR_NVML;
    }
}

nvmlReturn_t nvml_note(struct nvml_backend *backend, const char *name, nvmlReturn_t result) {
    if (result != NVML_ERROR_FUNCTION_NOT_FOUND) {
        return result;
    }
    for (size_t i = 0; i < backend->missing_count; i++) {
        if (strcmp(backend->missing[i], name) == 0) {
            return result;
        }
    }
    if (backend->missing_count < NVML_MISSING_MAX) {
        backend->missing[backend->missing_count++] = name;
    }
    return result;
}

void nvml_copy_string(char *dst, size_t size, const char *src, nvmlReturn_t result) {
    if (result != NVML_SUCCESS) {
        dst[0] = '\0';
        return;
    }
    str_copy(dst, size, src);
}

/*
 * FUNCTION_NOT_FOUND means "this version of NVML does not implement the function" (NVML's
 * documentation), whether the symbol is missing or answers so: the older variant takes over for
 * good.
 */
static nvmlReturn_t call_init(struct nvml_lib *lib) {
    nvmlReturn_t result = lib->init();
    if (result == NVML_ERROR_FUNCTION_NOT_FOUND && lib->api.nvmlInit != NULL &&
        lib->init != lib->api.nvmlInit) {
        lib->init = lib->api.nvmlInit;
        result = lib->init();
    }
    return result;
}

static nvmlReturn_t call_count(struct nvml_lib *lib, unsigned int *count) {
    if (lib->device_count == NULL) {
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    nvmlReturn_t result = lib->device_count(count);
    if (result == NVML_ERROR_FUNCTION_NOT_FOUND && lib->api.nvmlDeviceGetCount != NULL &&
        lib->device_count != lib->api.nvmlDeviceGetCount) {
        lib->device_count = lib->api.nvmlDeviceGetCount;
        result = lib->device_count(count);
    }
    return result;
}

static nvmlReturn_t call_cuda_version(struct nvml_lib *lib, int *version) {
    if (lib->cuda_driver_version == NULL) {
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    nvmlReturn_t result = lib->cuda_driver_version(version);
    if (result == NVML_ERROR_FUNCTION_NOT_FOUND &&
        lib->api.nvmlSystemGetCudaDriverVersion != NULL &&
        lib->cuda_driver_version != lib->api.nvmlSystemGetCudaDriverVersion) {
        lib->cuda_driver_version = lib->api.nvmlSystemGetCudaDriverVersion;
        result = lib->cuda_driver_version(version);
    }
    return result;
}

static nvmlReturn_t call_handle(struct nvml_lib *lib, unsigned int index, nvmlDevice_t *handle) {
    if (lib->handle_by_index == NULL) {
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    }
    nvmlReturn_t result = lib->handle_by_index(index, handle);
    if (result == NVML_ERROR_FUNCTION_NOT_FOUND && lib->api.nvmlDeviceGetHandleByIndex != NULL &&
        lib->handle_by_index != lib->api.nvmlDeviceGetHandleByIndex) {
        lib->handle_by_index = lib->api.nvmlDeviceGetHandleByIndex;
        result = lib->handle_by_index(index, handle);
    }
    return result;
}

nvt_status nvml_backend_open(const char *library_path, struct nvml_backend **out) {
    struct nvml_backend *backend = calloc(1, sizeof(*backend));
    if (backend == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    nvt_status status = nvml_loader_open(library_path, &backend->lib);
    if (status != NVT_OK) {
        free(backend);
        return status;
    }
    if (backend->lib.init == NULL) {
        /* A library without nvmlInit is not NVML. */
        nvml_loader_close(&backend->lib);
        free(backend);
        return NVT_ERR_LIBRARY_NOT_FOUND;
    }
    nvmlReturn_t result = call_init(&backend->lib);
    if (result != NVML_SUCCESS) {
        nvml_loader_close(&backend->lib);
        free(backend);
        return nvml_status_from_return(result);
    }
    backend->initialised = true;
    backend->layout = NVML_LAYOUT_UNDECIDED;
    *out = backend;
    return NVT_OK;
}

size_t nvml_backend_library_error(const char *library_path, char *buf, size_t size) {
    return nvml_loader_describe(library_path, buf, size);
}

void nvml_backend_close(struct nvml_backend *backend) {
    if (backend == NULL) {
        return;
    }
    if (backend->initialised && backend->lib.api.nvmlShutdown != NULL) {
        backend->lib.api.nvmlShutdown();
    }
    nvml_loader_close(&backend->lib);
    free(backend->proc_buffer);
    free(backend);
}

void nvml_backend_system_info(struct nvml_backend *backend, struct nvt_system_info *out) {
    char buffer[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
    nvmlReturn_t result;

    result = NVML_QUERY(backend, nvmlSystemGetDriverVersion, buffer, sizeof(buffer));
    nvml_copy_string(out->driver_version, sizeof(out->driver_version), buffer, result);
    result = NVML_QUERY(backend, nvmlSystemGetNVMLVersion, buffer, sizeof(buffer));
    nvml_copy_string(out->nvml_version, sizeof(out->nvml_version), buffer, result);

    int cuda = 0;
    result = call_cuda_version(&backend->lib, &cuda);
    nvml_note(backend, "nvmlSystemGetCudaDriverVersion", result);
    out->cuda_driver_version = result == NVML_SUCCESS ? cuda : NVT_NA_I32;

    unsigned int count = 0;
    result = call_count(&backend->lib, &count);
    nvml_note(backend, "nvmlDeviceGetCount", result);
    out->device_count = result == NVML_SUCCESS ? count : 0;
}

size_t nvml_backend_missing(const struct nvml_backend *backend, const char **names, size_t max) {
    for (size_t i = 0; i < backend->missing_count && i < max; i++) {
        names[i] = backend->missing[i];
    }
    return backend->missing_count;
}

static nvt_status device_alloc(bool is_mig, struct nvml_device **out) {
    struct nvml_device *device = calloc(1, sizeof(*device));
    if (device == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    device->is_mig = is_mig;
    *out = device;
    return NVT_OK;
}

/* A refused handle keeps the device, without a handle, so that the index stays listed (nvitop
 * shows "ERROR: GPU is Lost" / "ERROR: Unknown"); the status says what the driver answered. */
static nvt_status handle_status_from(nvmlReturn_t result) {
    return nvml_status_from_return(result);
}

nvt_status nvml_device_open(struct nvml_backend *backend, uint32_t index,
                            struct nvml_device **out) {
    struct nvml_device *device;
    nvt_status status = device_alloc(false, &device);
    if (status != NVT_OK) {
        return status;
    }
    nvmlDevice_t handle = NULL;
    nvmlReturn_t result = call_handle(&backend->lib, index, &handle);
    nvml_note(backend, "nvmlDeviceGetHandleByIndex", result);
    device->handle_status = handle_status_from(result);
    device->handle = result == NVML_SUCCESS ? handle : NULL;
    *out = device;
    return NVT_OK;
}

nvt_status nvml_device_reopen(struct nvml_backend *backend, uint32_t index, const char *uuid,
                              const struct nvml_device *old, struct nvml_device **out) {
    *out = NULL;
    nvmlDevice_t handle = NULL;
    nvmlReturn_t result = NVML_ERROR_FUNCTION_NOT_FOUND;
    if (uuid != NULL && uuid[0] != '\0') {
        result = NVML_QUERY_QUIET(backend, nvmlDeviceGetHandleByUUID, uuid, &handle);
    }
    if (result == NVML_ERROR_FUNCTION_NOT_FOUND) {
        result = call_handle(&backend->lib, index, &handle);
    }
    if (result != NVML_SUCCESS) {
        return nvml_status_from_return(result);
    }
    if (old->handle == handle) {
        return NVT_OK; /* back under its old handle: what was learnt of it still holds */
    }
    nvt_status status = device_alloc(false, out);
    if (status == NVT_OK) {
        (*out)->handle_status = NVT_OK;
        (*out)->handle = handle;
    }
    return status;
}

nvt_status nvml_device_open_mig(struct nvml_backend *backend, const struct nvml_device *parent,
                                uint32_t k, struct nvml_device **out) {
    if (parent->handle == NULL) {
        return NVT_ERR_NOT_FOUND;
    }
    nvmlDevice_t handle = NULL;
    nvmlReturn_t result =
        NVML_QUERY_QUIET(backend, nvmlDeviceGetMigDeviceHandleByIndex, parent->handle, k, &handle);
    if (result != NVML_SUCCESS && result != NVML_ERROR_GPU_IS_LOST) {
        return result == NVML_ERROR_NOT_FOUND ? NVT_ERR_NOT_FOUND : nvml_status_from_return(result);
    }
    struct nvml_device *device;
    nvt_status status = device_alloc(true, &device);
    if (status != NVT_OK) {
        return status;
    }
    device->handle_status = handle_status_from(result);
    device->handle = result == NVML_SUCCESS ? handle : NULL;
    *out = device;
    return NVT_OK;
}

void nvml_device_close(struct nvml_device *device) {
    if (device == NULL) {
        return;
    }
    free(device->util_recent);
    free(device);
}

bool nvml_device_same_handle(const struct nvml_device *a, const struct nvml_device *b) {
    return a->handle != NULL && a->handle == b->handle;
}

nvt_status nvml_device_handle_status(const struct nvml_device *device) {
    return device->handle_status;
}

const char *nvml_device_driver_model(struct nvml_backend *backend,
                                     const struct nvml_device *device) {
    nvmlDriverModel_t model = NVML_DRIVER_WDDM;
    nvmlDriverModel_t pending = NVML_DRIVER_WDDM;
    if (device->handle_status != NVT_OK ||
        NVML_QUERY_QUIET(backend, nvmlDeviceGetDriverModel, device->handle, &model, &pending) !=
            NVML_SUCCESS) {
        return "N/A";
    }
    switch (model) {
    case NVML_DRIVER_WDDM:
        return "WDDM";
    case NVML_DRIVER_WDM:
        return "WDM";
    default:
        return "N/A";
    }
}

void *nvml_device_raw_handle(const struct nvml_device *device) {
    return device->handle_status == NVT_OK ? (void *)device->handle : NULL;
}
