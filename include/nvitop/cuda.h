/*
 * CUDA ordinals: which devices a CUDA program would see for a CUDA_VISIBLE_DEVICES value, in
 * CUDA order (SPEC.md §5.5).
 *
 * When the CUDA driver library is installed, a helper program (nvitop-cuda-probe, started with
 * posix_spawn; never this process: CUDA must not be initialised in a monitor) loads it, applies
 * the value and reports the UUIDs of the visible devices; this honours CUDA_DEVICE_ORDER and
 * abbreviated UUIDs exactly as CUDA does.  Without the helper or libcuda a pure-NVML resolution is
 * used: integers are NVML indices; full and abbreviated GPU-/MIG- UUIDs are matched against the
 * driver's devices.
 */
#ifndef NVITOP_CUDA_H
#define NVITOP_CUDA_H

#include <nvitop/common.h>
#include <nvitop/status.h>

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
 * free() (may be NULL when *count is 0).
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
 */
NVT_API size_t nvt_cuda_normalize_visible_devices(nvt_context *ctx, const char *value, char *buf,
                                                  size_t size);

#endif /* NVITOP_CUDA_H */
