/*
 * The one list of status codes with their messages, private to the library: status.c expands it
 * into the message and name tables and checks it against the enum of <nvitop/status.h> (public
 * headers have no function-like macros).
 * X(name, value, message)
 */
#ifndef NVITOP_SRC_LIB_STATUS_LIST_H
#define NVITOP_SRC_LIB_STATUS_LIST_H

#define NVT_STATUS_LIST(X)                                                                         \
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

#endif /* NVITOP_SRC_LIB_STATUS_LIST_H */
