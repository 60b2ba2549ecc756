/*
 * Test support for the simulated driver: loads libnvidia-ml.so.1 the way clients do (dlopen by
 * its real name through LD_LIBRARY_PATH, or a variant by path) and resolves every NVML entry
 * point into a table, plus helpers for writing scenario files and capturing stderr.
 */
#ifndef NVITOP_TESTS_SUPPORT_SIM_SUPPORT_H
#define NVITOP_TESTS_SUPPORT_SIM_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "nvml/nvml_abi.h"

#define SIM_API_MEMBER(name, params) nvmlReturn_t(*name) params;
struct sim_api {
    void *handle;
    NVML_ABI_FUNCTIONS(SIM_API_MEMBER)
    NVML_ABI_MONITOR_FUNCTIONS(SIM_API_MEMBER)
    const char *(*nvmlErrorString)(nvmlReturn_t);
};
#undef SIM_API_MEMBER

/* Loads the driver: by its real name when `variant` is NULL, else
 * $NVT_BINARY_DIR/<variant>/libnvidia-ml.so.1.  Entry points the library lacks stay NULL.
 * Fails the test when the library cannot be loaded. */
void sim_api_load(struct sim_api *api, const char *variant);

/* Closes the library. */
void sim_api_unload(struct sim_api *api);

/* The path of a bundled scenario ($NVT_SCENARIO_DIR/<name>); returns a static buffer. */
const char *sim_scenario_path(const char *name);

/* Writes `text` to `path` atomically (temporary file + rename). */
void sim_write_file(const char *path, const char *text);

/* A fresh temporary directory for the test's files; returns a static buffer. */
const char *sim_temp_dir(void);

/* Runs `init` with stderr redirected, storing what was printed (NUL-terminated, truncated to
 * `size`) in `err`; returns init's result. */
nvmlReturn_t sim_init_capturing(const struct sim_api *api, char *err, size_t size);

#endif /* NVITOP_TESTS_SUPPORT_SIM_SUPPORT_H */
