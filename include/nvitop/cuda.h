/*
 * CUDA ordinals: which devices a CUDA program would see for a CUDA_VISIBLE_DEVICES value, in
 * CUDA order (docs/nvitop-behaviour.md §5.5).
 *
 * When the CUDA driver library is installed, a helper program (nvitop-cuda-probe, started with
 * posix_spawn; never this process: CUDA must not be initialised in a monitor) loads it, applies
 * the value and reports the UUIDs of the visible devices; this honours CUDA_DEVICE_ORDER and
 * abbreviated UUIDs exactly as CUDA does.  Without the helper or libcuda a pure-NVML resolution is
 * used: integers are NVML indices; full and abbreviated GPU-/MIG- UUIDs are matched against the
 * driver's devices.
 *
 * Manual: nvt_device(3); overview libnvitop(3).
 */
#ifndef NVITOP_CUDA_H
#define NVITOP_CUDA_H

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvt_cuda_device {
    uint32_t cuda_index; /* position in the visible list */
    uint32_t index;      /* NVML index of the physical device (the parent for MIG) */
    uint32_t mig_index;  /* NVT_NA_U32 for a physical device */
    char uuid[NVT_UUID_LEN];
};

/*
 * Resolve a CUDA_VISIBLE_DEVICES value.  value NULL means unset (all devices).  Invalid input is
 * not an error: like CUDA, the list is cut at the first invalid entry, a duplicate empties it, and
 * at most one MIG device is visible.  On success *out is an array of *count entries freed with
 * nvt_free() (may be NULL when *count is 0).
 *
 * With a CUDA driver library this forks a short-lived child and waits for it (up to 30 s, as
 * cuInit may take seconds on GPUs without persistence mode); a context remembers when the library
 * is missing and does not fork again.  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_cuda_visible_devices(nvt_context *ctx, const char *value,
                                            struct nvt_cuda_device **out, size_t *count);

/*
 * The normalized form of a CUDA_VISIBLE_DEVICES value: the comma-joined full UUIDs of the devices
 * it selects ("" for none).  Writes at most size bytes including the NUL and returns the length
 * the full result needs (like snprintf).
 * Uses the context (it may run the CUDA child): one thread at a time. */
NVT_API size_t nvt_cuda_normalize_visible_devices(nvt_context *ctx, const char *value, char *buf,
                                                  size_t size);

/*
 * The device a CUDA program sees as ordinal cuda_index for a CUDA_VISIBLE_DEVICES value (NULL:
 * unset), as a handle owned by the context (nvitop's CudaDevice(cuda_index)): a physical or MIG
 * device.  NVT_ERR_OUT_OF_RANGE when the ordinal is not visible (CUDA's "invalid device ordinal"),
 * else as nvt_cuda_visible_devices().  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_device_by_cuda_index(nvt_context *ctx, const char *visible_devices,
                                            uint32_t cuda_index, nvt_device **out);

/*
 * The other way (nvitop's Device.cuda_index): the CUDA ordinal of a device handle (physical or MIG)
 * under a CUDA_VISIBLE_DEVICES value (NULL: unset), matched by UUID.  NVT_ERR_NOT_FOUND, *out
 * NVT_NA_U32, when the device is not visible (a GPU with MIG enabled is not: its MIG device is),
 * else as nvt_cuda_visible_devices().  Uses the context: one thread at a time.
 */
NVT_API nvt_status nvt_device_cuda_index(nvt_context *ctx, const char *visible_devices,
                                         nvt_device *device, uint32_t *out);

/*
 * A CUDA version number as nvitop prints it: 12040 -> "12.4", 11041 -> "11.4.1" (the third part
 * only when it is not 0), "N/A" for NVT_NA_I32.  Use it for nvt_system_info()'s
 * cuda_driver_version and for nvt_cuda_runtime_version().  snprintf-like: writes at most size
 * bytes including the NUL and returns the full length.  Pure; thread-safe.
 */
NVT_API size_t nvt_cuda_version_string(char *buf, size_t size, int32_t version);

/*
 * The version of the CUDA runtime library (libcudart) installed, e.g. 12040, from its
 * cudaRuntimeGetVersion (nvitop's cuda_runtime_version()).  library_path NULL searches
 * "libcudart.so", then the .so.13, .so.12 and .so.11.0 runtimes on the system's library path.  The
 * library is loaded into this process for the call and unloaded; it does not initialise CUDA.
 * NVT_ERR_LIBRARY_NOT_FOUND, NVT_ERR_FUNCTION_NOT_FOUND, or NVT_ERR_CUDA when it answers an error;
 * *out is NVT_NA_I32 then.  Thread-safe (no context).
 */
NVT_API nvt_status nvt_cuda_runtime_version(const char *library_path, int32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_CUDA_H */
