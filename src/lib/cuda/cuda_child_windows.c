/*
 * The CUDA helper process on Windows: not built yet (docs/windows.md), so a CUDA_VISIBLE_DEVICES
 * value is resolved from NVML alone, as when the CUDA driver is missing on Linux.
 */
#include <stddef.h>

#include "cuda/cuda_child.h"

nvt_status cuda_child_uuids(const char *library, const char *value, char **uuids) {
    (void)library;
    (void)value;
    *uuids = NULL;
    return NVT_ERR_LIBRARY_NOT_FOUND;
}
