/*
 * Status codes returned by every fallible libnvitop call.  NVT_OK is 0.  Numbers never change
 * meaning once released.  The messages of the NVML-derived codes are NVML's own strings, so that
 * programs print what nvitop prints (e.g. "NVML ERROR: Driver Not Loaded").
 *
 * Manual: nvt_status(3); overview libnvitop(3).
 */
#ifndef NVITOP_STATUS_H
#define NVITOP_STATUS_H

#include <nvitop/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values are part of the ABI: new codes are appended, none is ever renumbered. */
enum nvt_status_code {
    NVT_OK = 0,
    NVT_ERR_INVALID_ARGUMENT = 1,
    NVT_ERR_NO_MEMORY = 2,
    NVT_ERR_LIBRARY_NOT_FOUND = 3,
    NVT_ERR_FUNCTION_NOT_FOUND = 4,
    NVT_ERR_DRIVER_NOT_LOADED = 5,
    NVT_ERR_LIB_RM_VERSION_MISMATCH = 6,
    NVT_ERR_NO_PERMISSION = 7,
    NVT_ERR_UNINITIALIZED = 8,
    NVT_ERR_NOT_SUPPORTED = 9,
    NVT_ERR_NOT_FOUND = 10,
    NVT_ERR_GPU_IS_LOST = 11,
    NVT_ERR_NVML_UNKNOWN = 12,
    NVT_ERR_NVML = 13,
    NVT_ERR_TIMEOUT = 14,
    NVT_ERR_NO_SUCH_PROCESS = 15,
    NVT_ERR_IO = 16,
    NVT_ERR_PARSE = 17,
    NVT_ERR_CUDA = 18,
    NVT_ERR_OUT_OF_RANGE = 19,
};

typedef enum nvt_status_code nvt_status;

/* Human-readable message for a status.  Never NULL; thread-safe; the string is static. */
NVT_API const char *nvt_strerror(nvt_status status);

/* The status's symbolic name without the NVT_ prefix, e.g. "ERR_GPU_IS_LOST".  Never NULL.
 * Static string; pure and thread-safe. */
NVT_API const char *nvt_status_name(nvt_status status);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_STATUS_H */
