/*
 * Asking the CUDA driver which devices a CUDA_VISIBLE_DEVICES value selects, in a child process,
 * so that CUDA is never initialised in the caller (a monitor must not hold a CUDA context).
 */
#ifndef NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H
#define NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H

#include <nvitop/status.h>

/* How long the child may take (cuInit on GPUs without persistence mode takes seconds). */
#define CUDA_CHILD_TIMEOUT_MS 30000

/*
 * Fork a child that loads the CUDA driver library (library, or "libcuda.so.1" then "libcuda.so"
 * when NULL), sets CUDA_VISIBLE_DEVICES to value (unsets it for NULL), calls cuInit(0) and reports
 * the UUIDs of the visible devices.  On NVT_OK *uuids is a malloc'ed comma-separated list of
 * lower-case UUIDs without prefix ("" when CUDA sees no device); the caller frees it.
 * NVT_ERR_LIBRARY_NOT_FOUND when the child could not load the library, NVT_ERR_CUDA for any other
 * failure (including the timeout), NVT_ERR_NO_MEMORY.  Thread-safe as fork() is; the child only
 * calls the loader, the CUDA driver, write() and _exit().
 */
nvt_status cuda_child_uuids(const char *library, const char *value, char **uuids);

#endif /* NVITOP_SRC_LIB_CUDA_CUDA_CHILD_H */
