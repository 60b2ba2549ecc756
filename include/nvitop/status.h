/*
 * Status codes returned by every fallible libnvitop call.  NVT_OK is 0.  Numbers never change
 * meaning once released.  The messages of the NVML-derived codes are NVML's own strings, so that
 * programs print what nvitop prints (e.g. "NVML ERROR: Driver Not Loaded").
 */
#ifndef NVITOP_STATUS_H
#define NVITOP_STATUS_H

#include <nvitop/common.h>

/* X(name, value, message): the one list that generates the enum, the names and the messages. */
#define NVT_STATUS_MAP(X)                                                                          \
    X(OK, 0, "Success")                                                                            \
    X(ERR_INVALID_ARGUMENT, 1, "Invalid Argument")                                                 \
    X(ERR_NO_MEMORY, 2, "Out of memory")                                                           \
    X(ERR_LIBRARY_NOT_FOUND, 3, "NVIDIA Management Library (NVML) not found")                      \
    X(ERR_FUNCTION_NOT_FOUND, 4, "Function Not Found")                                             \
    X(ERR_DRIVER_NOT_LOADED, 5, "Driver Not Loaded")                                               \
    X(ERR_LIB_RM_VERSION_MISMATCH, 6, "RM has detected an NVML/RM version mismatch.")              \
    X(ERR_NO_PERMISSION, 7, "Insufficient Permissions")                                            \
    X(ERR_UNINITIALIZED, 8, "Uninitialized")                                                       \
    X(ERR_NOT_SUPPORTED, 9, "Not Supported")                                                       \
    X(ERR_NOT_FOUND, 10, "Not Found")                                                              \
    X(ERR_GPU_IS_LOST, 11, "GPU is lost")                                                          \
    X(ERR_NVML_UNKNOWN, 12, "Unknown Error")                                                       \
    X(ERR_NVML, 13, "NVML returned an unexpected error")                                           \
    X(ERR_TIMEOUT, 14, "Timeout")                                                                  \
    X(ERR_NO_SUCH_PROCESS, 15, "No Such Process")                                                  \
    X(ERR_IO, 16, "Input/output error")                                                            \
    X(ERR_PARSE, 17, "Malformed input")                                                            \
    X(ERR_CUDA, 18, "CUDA error")                                                                  \
    X(ERR_OUT_OF_RANGE, 19, "Out of range")

enum nvt_status_code {
#define NVT_STATUS_ENUM(name, value, message) NVT_##name = (value),
    NVT_STATUS_MAP(NVT_STATUS_ENUM)
#undef NVT_STATUS_ENUM
};

typedef enum nvt_status_code nvt_status;

/* Human-readable message for a status.  Never NULL; thread-safe; the string is static. */
NVT_API const char *nvt_strerror(nvt_status status);

/* The status's symbolic name without the NVT_ prefix, e.g. "ERR_GPU_IS_LOST".  Never NULL. */
NVT_API const char *nvt_status_name(nvt_status status);

#endif /* NVITOP_STATUS_H */
