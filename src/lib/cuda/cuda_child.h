/*
 * Asking the CUDA driver which devices a CUDA_VISIBLE_DEVICES value selects, in a helper process
 * (nvitop-cuda-probe, cuda_probe.c), so that CUDA is never loaded or initialised in the caller (a
 * monitor must not hold a CUDA context) and nothing of the caller's process state (threads,
 * locks, descriptors, atfork handlers, environment) matters.
 */
#ifndef NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H
#define NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H

#include <nvitop/status.h>

/* How long the helper may take (cuInit on GPUs without persistence mode takes seconds). */
#define CUDA_CHILD_TIMEOUT_MS 30000

/* Environment variable naming the helper program instead of the installed one (build trees,
 * tests); read with secure_getenv, so ignored in set-user-id programs. */
#define CUDA_PROBE_ENV "NVITOP_CUDA_PROBE"

/* Exit statuses of the helper besides 0. */
#define CUDA_PROBE_NO_LIBRARY 40
#define CUDA_PROBE_FAILED     41

/*
 * Start the helper (posix_spawn: no fork of the caller, no atfork handlers; stdin and stderr on
 * /dev/null, stdout a pipe, every other descriptor closed; an environment of CUDA_VISIBLE_DEVICES
 * = value (absent for NULL), CUDA_DEVICE_ORDER and LD_LIBRARY_PATH when the caller has them).  It
 * loads library (NULL: "libcuda.so.1", then "libcuda.so"), calls cuInit(0) and reports the UUIDs
 * of the visible devices.  On NVT_OK *uuids is a malloc'ed comma-separated list of lower-case
 * UUIDs without prefix ("" when CUDA sees no device); the caller frees it.
 * NVT_ERR_LIBRARY_NOT_FOUND when the helper or the CUDA library is missing, NVT_ERR_CUDA for any
 * other failure (including the timeout), NVT_ERR_NO_MEMORY.  Thread-safe.
 */
nvt_status cuda_child_uuids(const char *library, const char *value, char **uuids);

#endif /* NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H */
