/*
 * dlopen + dlsym of the NVML entry points.  The library is never linked at build time, so the same
 * binary runs against any driver generation (or the simulator) and reports a missing driver as a
 * status instead of failing to start.
 */
#include "nvml/nvml_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/context.h>

#include "nvml/nvml_default.h"
#include "util/sys/dl.h"

/* The library named by the caller or the environment; NULL for the default search.  A set-user-id
 * program ignores the environment (secure_getenv), so that nobody loads code into it. */
static const char *chosen_path(const char *path) {
    if (path != NULL) {
        return path;
    }
    const char *env = secure_getenv(NVT_ENV_NVML_LIBRARY);
    return env != NULL && env[0] != '\0' ? env : NULL;
}

static void *open_first(const char *path) {
    path = chosen_path(path);
    if (path != NULL) {
        return dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    return nvml_default_open();
}

static void choose_variants(struct nvml_lib *lib) {
    const struct nvml_api *api = &lib->api;

    lib->init = api->nvmlInit_v2 != NULL ? api->nvmlInit_v2 : api->nvmlInit;
    lib->device_count =
        api->nvmlDeviceGetCount_v2 != NULL ? api->nvmlDeviceGetCount_v2 : api->nvmlDeviceGetCount;
    lib->handle_by_index = api->nvmlDeviceGetHandleByIndex_v2 != NULL
                               ? api->nvmlDeviceGetHandleByIndex_v2
                               : api->nvmlDeviceGetHandleByIndex;
    lib->handle_by_bus_id = api->nvmlDeviceGetHandleByPciBusId_v2 != NULL
                                ? api->nvmlDeviceGetHandleByPciBusId_v2
                                : api->nvmlDeviceGetHandleByPciBusId;
    lib->cuda_driver_version = api->nvmlSystemGetCudaDriverVersion_v2 != NULL
                                   ? api->nvmlSystemGetCudaDriverVersion_v2
                                   : api->nvmlSystemGetCudaDriverVersion;
    lib->pci_info = api->nvmlDeviceGetPciInfo_v3 != NULL ? api->nvmlDeviceGetPciInfo_v3
                                                         : api->nvmlDeviceGetPciInfo_v2;
    lib->pci_info_legacy = lib->pci_info == NULL ? api->nvmlDeviceGetPciInfo : NULL;
}

nvt_status nvml_loader_open(const char *path, struct nvml_lib *out) {
    memset(out, 0, sizeof(*out));
    void *dl = open_first(path);
    if (dl == NULL) {
        return NVT_ERR_LIBRARY_NOT_FOUND;
    }
    out->dl = dl;
#define NVML_RESOLVE(name, params) dl_function(dl, #name, &out->api.name, sizeof(out->api.name));
    NVML_ABI_FUNCTIONS(NVML_RESOLVE)
#undef NVML_RESOLVE
    dl_function(dl, "nvmlErrorString", &out->api.nvmlErrorString, sizeof(out->api.nvmlErrorString));
    choose_variants(out);
    return NVT_OK;
}

size_t nvml_loader_describe(const char *path, char *buf, size_t size) {
    const char *chosen = chosen_path(path);
    const char *origin = path != NULL ? "nvml_library_path" : NVT_ENV_NVML_LIBRARY;
    int needed = 0;
    void *dl = open_first(path);
    if (dl == NULL) {
        const char *why = dlerror();
        why = why != NULL ? why : "cannot be loaded";
        needed = chosen != NULL ? snprintf(buf, size, "%s=%s: %s", origin, chosen, why)
                                : snprintf(buf, size, "%s: %s", nvml_default_names, why);
    } else {
        void (*init)(void) = NULL;
        if (!dl_function(dl, "nvmlInit_v2", &init, sizeof(init))) {
            dl_function(dl, "nvmlInit", &init, sizeof(init));
        }
        if (init == NULL) {
            needed = snprintf(buf, size, "%s=%s: not an NVML library (it has no nvmlInit)",
                              chosen != NULL ? origin : "library",
                              chosen != NULL ? chosen : "libnvidia-ml.so.1");
        } else if (size > 0) {
            buf[0] = '\0';
        }
        dlclose(dl);
    }
    return needed > 0 ? (size_t)needed : 0;
}

void nvml_loader_close(struct nvml_lib *lib) {
    if (lib->dl != NULL) {
        dlclose(lib->dl);
    }
    memset(lib, 0, sizeof(*lib));
}
