/*
 * The library context: the NVML driver loaded and initialised for this context, the host
 * back-end, and the caches that make repeated sampling cheap (static device facts, previous CPU
 * counters, the uid -> user name map, the per-device process-utilisation cursors).
 *
 * A context is used by one thread at a time.  Open one context per thread that samples; data
 * crosses threads by copy (snapshots are immutable and may be read from any thread).  Each context
 * calls dlopen and nvmlInit once when opened and nvmlShutdown and dlclose once when closed; NVML
 * counts its initialisations (it shuts down at the last nvmlShutdown) and is thread-safe, and
 * dlopen counts its handles, so contexts coexist without any process-wide state in libnvitop.
 *
 * Manual: nvt_context(3); overview libnvitop(3).
 */
#ifndef NVITOP_CONTEXT_H
#define NVITOP_CONTEXT_H

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Environment variable naming the NVML library to load instead of the default search. */
#define NVT_ENV_NVML_LIBRARY "NVITOP_NVML_LIBRARY"

/*
 * How to open a context.  Set it up with nvt_options_init() (which records the size of the struct
 * this program was compiled with in struct_size), then change the fields you need: a library of a
 * later minor version may have more fields and reads only the ones your struct_size covers, the
 * rest keep their defaults.
 */
struct nvt_options {
    size_t struct_size; /* sizeof(struct nvt_options) of the caller: nvt_options_init() sets it */
    /* NVML shared library to dlopen.  NULL: $NVITOP_NVML_LIBRARY if set (ignored by set-user-id
     * programs), else
     * "libnvidia-ml.so.1", then "libnvidia-ml.so" (the system's search path, as NVIDIA's own
     * bindings do). */
    const char *nvml_library_path;
    /* Root of the proc file system.  NULL: "/proc".  Tests point it at fixture trees. */
    const char *proc_root;
    /* CUDA driver library the helper program loads to resolve CUDA_VISIBLE_DEVICES (an absolute
     * path, or a name for the loader's search).  NULL: "libcuda.so.1", then "libcuda.so".  ""
     * disables the CUDA path (pure NVML resolution). */
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
    /* Host processes carry their command (the command line joined, as nvitop shows it) but not
     * the arguments it was joined from: cmdline NULL and cmdline_count 0 in this context's
     * snapshots and nvt_host_process_read().  For a monitor that shows only the command; at 1,000
     * processes its snapshots and cache hold about 0.2 MB less.  Default false. */
    bool command_only;
};

/* Defaults for every field (all NULL / false) and struct_size for this program's headers.  Inline,
 * so that the size is the caller's; pure. */
static inline void nvt_options_init(struct nvt_options *opts) {
    memset(opts, 0, sizeof(*opts));
    opts->struct_size = sizeof(struct nvt_options);
}

/* Facts about the driver, read once when the context is opened. */
struct nvt_system_info {
    char driver_version[NVT_VERSION_LEN]; /* e.g. "535.104.05"; "" when N/A */
    char nvml_version[NVT_VERSION_LEN];   /* e.g. "12.535.104.05"; "" when N/A */
    int32_t cuda_driver_version;          /* e.g. 12020; NVT_NA_I32 when N/A */
    uint32_t device_count;                /* physical devices; 0 on error */
};

/*
 * Open a context.  opts may be NULL for defaults; otherwise it is set up with nvt_options_init()
 * (NVT_ERR_INVALID_ARGUMENT when its struct_size is smaller than the first release's struct).  On
 * success *out receives a context the caller closes with nvt_close().  Failures:
 * NVT_ERR_LIBRARY_NOT_FOUND (no NVML library), NVT_ERR_DRIVER_NOT_LOADED,
 * NVT_ERR_LIB_RM_VERSION_MISMATCH, NVT_ERR_NO_PERMISSION, other NVML init errors,
 * NVT_ERR_NO_MEMORY.  Thread-safe (each call makes its own context).
 */
NVT_API nvt_status nvt_open(const struct nvt_options *opts, nvt_context **out);

/*
 * After nvt_open(opts) failed with NVT_ERR_LIBRARY_NOT_FOUND: why, for an error message, naming
 * the library and where its name came from, e.g. "NVITOP_NVML_LIBRARY=/opt/x.so: /opt/x.so:
 * cannot open shared object file: No such file or directory" or "nvml_library_path=/lib/libz.so.1:
 * not an NVML library (it has no nvmlInit)".  Loads the library again to find out.  Writes at most
 * size bytes (always NUL-terminated when size > 0) and returns the length of the whole text; 0
 * and "" when the library loads and is NVML.  opts may be NULL.  Thread-safe.
 */
NVT_API size_t nvt_nvml_library_error(const struct nvt_options *opts, char *buf, size_t size);

/* Close a context: its nvmlShutdown and dlclose (NVML and the library stay up for other
 * contexts), its caches and descriptors.  Accepts NULL.
 * Ends every use of the context, its device handles and what it lent (nvt_system_info()); call it
 * from the thread that owns the context, once. */
NVT_API void nvt_close(nvt_context *ctx);

/* The driver facts read at open.  Valid until nvt_close().  Never NULL for an open context.
 * Read-only after nvt_open(): any thread may call this and read the struct while the context is
 * open. */
NVT_API const struct nvt_system_info *nvt_system_info(const nvt_context *ctx);

/* NVT_OK when GPUs are reachable; otherwise why not (only with opts->allow_no_gpu or
 * opts->host_only).  Fixed at nvt_open(): any thread. */
NVT_API nvt_status nvt_context_gpu_status(const nvt_context *ctx);

/*
 * Names of NVML functions the loaded driver lacks that the library needed and could not replace
 * by an older variant, for the end-of-run "FunctionNotFound" report.  Writes up to max pointers to
 * static strings and returns how many exist in total.
 * The list grows while the context samples: one thread at a time, like the context. */
NVT_API size_t nvt_missing_functions(const nvt_context *ctx, const char **names, size_t max);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_CONTEXT_H */
