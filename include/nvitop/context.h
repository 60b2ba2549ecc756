/*
 * The library context: one loaded NVML driver (initialised once), the host back-end, and the
 * caches that make repeated sampling cheap (static device facts, previous CPU counters, the uid ->
 * user name map, the per-device process-utilisation cursors).
 *
 * A context is used by one thread at a time.  Open one context per thread that samples; data
 * crosses threads by copy (snapshots are immutable and may be read from any thread).
 */
#ifndef NVITOP_CONTEXT_H
#define NVITOP_CONTEXT_H

#include <nvitop/common.h>
#include <nvitop/status.h>

/* Environment variable naming the NVML library to load instead of the default search. */
#define NVT_ENV_NVML_LIBRARY "NVITOP_NVML_LIBRARY"

struct nvt_options {
    /* NVML shared library to dlopen.  NULL: $NVITOP_NVML_LIBRARY if set, else
     * "libnvidia-ml.so.1", then "libnvidia-ml.so" (the system's search path, as NVIDIA's own
     * bindings do). */
    const char *nvml_library_path;
    /* Root of the proc file system.  NULL: "/proc".  Tests point it at fixture trees. */
    const char *proc_root;
    /* CUDA driver library used to resolve CUDA_VISIBLE_DEVICES in a child process.  NULL:
     * "libcuda.so.1", then "libcuda.so".  "" disables the CUDA path (pure NVML resolution). */
    const char *cuda_library_path;
    /* Open even when NVML cannot be loaded or initialised: the context then has no GPUs, host
     * sampling still works, and nvt_context_gpu_status() tells why.  Default false: nvt_open
     * fails with the NVML status. */
    bool allow_no_gpu;
    /* Open the host back-end only: NVML is neither loaded nor initialised, the context has no
     * GPUs and nvt_context_gpu_status() is NVT_ERR_NOT_SUPPORTED.  For a second context that reads
     * the proc file system in another thread (a monitor's UI thread: tree view, environment)
     * without initialising the driver twice in one process.  Default false. */
    bool host_only;
};

/* Facts about the driver, read once when the context is opened. */
struct nvt_system_info {
    char driver_version[NVT_VERSION_LEN]; /* e.g. "535.104.05"; "" when N/A */
    char nvml_version[NVT_VERSION_LEN];   /* e.g. "12.535.104.05"; "" when N/A */
    int32_t cuda_driver_version;          /* e.g. 12020; NVT_NA_I32 when N/A */
    uint32_t device_count;                /* physical devices; 0 on error */
};

/*
 * Open a context.  opts may be NULL for defaults.  On success *out receives a context the caller
 * closes with nvt_close().  Failures: NVT_ERR_LIBRARY_NOT_FOUND (no NVML library),
 * NVT_ERR_DRIVER_NOT_LOADED, NVT_ERR_LIB_RM_VERSION_MISMATCH, NVT_ERR_NO_PERMISSION, other NVML
 * init errors, NVT_ERR_NO_MEMORY.  Thread-safe (each call makes its own context).
 */
NVT_API nvt_status nvt_open(const struct nvt_options *opts, nvt_context **out);

/* Close a context (shuts NVML down once, unloads it).  Accepts NULL. */
NVT_API void nvt_close(nvt_context *ctx);

/* The driver facts read at open.  Valid until nvt_close().  Never NULL for an open context. */
NVT_API const struct nvt_system_info *nvt_system_info(const nvt_context *ctx);

/* NVT_OK when GPUs are reachable; otherwise why not (only with opts->allow_no_gpu or
 * opts->host_only). */
NVT_API nvt_status nvt_context_gpu_status(const nvt_context *ctx);

/*
 * Names of NVML functions the loaded driver lacks that the library needed and could not replace
 * by an older variant, for the end-of-run "FunctionNotFound" report.  Writes up to max pointers to
 * static strings and returns how many exist in total.
 */
NVT_API size_t nvt_missing_functions(const nvt_context *ctx, const char **names, size_t max);

#endif /* NVITOP_CONTEXT_H */
