/*
 * Loading the NVML library: dlopen, then dlsym of every entry point in NVML_ABI_FUNCTIONS into a
 * table of function pointers, plus the choice of the newest versioned variant of the entry points
 * that have several.  No other logic lives here; nvml_backend.c decides what to call.
 */
#ifndef NVITOP_SRC_LIB_NVML_NVML_LOADER_H
#define NVITOP_SRC_LIB_NVML_NVML_LOADER_H

#include <nvitop/status.h>

#include "nvml/nvml_abi.h"

/* Every entry point of the ABI list; NULL when the library lacks the symbol. */
struct nvml_api {
#define NVML_API_FIELD(name, params) nvmlReturn_t(*name) params;
    NVML_ABI_FUNCTIONS(NVML_API_FIELD)
#undef NVML_API_FIELD
    const char *(*nvmlErrorString)(nvmlReturn_t result);
};

/* The loaded library: the raw table and the preferred variant of each versioned entry point. */
struct nvml_lib {
    void *dl;
    struct nvml_api api;
    nvmlReturn_t (*init)(void);                   /* nvmlInit_v2, else nvmlInit */
    nvmlReturn_t (*device_count)(unsigned int *); /* nvmlDeviceGetCount_v2, else plain */
    nvmlReturn_t (*handle_by_index)(unsigned int, nvmlDevice_t *);
    nvmlReturn_t (*handle_by_bus_id)(const char *, nvmlDevice_t *);
    nvmlReturn_t (*cuda_driver_version)(int *);
    /* nvmlDeviceGetPciInfo_v3, else _v2 (both fill nvmlPciInfo_t); when both are missing,
     * pci_info_legacy is the unversioned call that fills the old layout. */
    nvmlReturn_t (*pci_info)(nvmlDevice_t, nvmlPciInfo_t *);
    nvmlReturn_t (*pci_info_legacy)(nvmlDevice_t, nvmlPciInfo_v1_t *);
};

/*
 * Load the library: path when not NULL, else $NVITOP_NVML_LIBRARY when set and not empty (read
 * with secure_getenv: ignored in set-user-id programs), else the defaults of nvml_default.h
 * ("libnvidia-ml.so.1", then "libnvidia-ml.so" on Linux).  Returns NVT_ERR_LIBRARY_NOT_FOUND when
 * nothing loads.  Does not initialise NVML.  Thread-safe (dlopen is); *out is owned by the caller,
 * who releases it with nvml_loader_close().
 */
nvt_status nvml_loader_open(const char *path, struct nvml_lib *out);

/*
 * Why nvml_loader_open(path) would not give an NVML library, naming where the path came from
 * ("NVITOP_NVML_LIBRARY=/x.so: <dlerror>", "nvml_library_path=/x.so: not an NVML library ..."):
 * written like snprintf, returns the length of the whole text, 0 ("") when the library loads and
 * has nvmlInit.  Thread-safe.
 */
size_t nvml_loader_describe(const char *path, char *buf, size_t size);

/* Unload the library (after nvmlShutdown).  Accepts a zeroed struct. */
void nvml_loader_close(struct nvml_lib *lib);

#endif /* NVITOP_SRC_LIB_NVML_NVML_LOADER_H */
