/*
 * Conventions shared by every public header of libnvitop.
 *
 * N/A ("not applicable") is not an error: a field the driver or the OS cannot provide holds a
 * sentinel.  Integers use the NVT_NA_* values below, measured doubles use NaN, strings are empty.
 * Use the nvt_is_na_* helpers rather than comparing by hand, and nvt_format_u32() / _u64() /
 * _i32() (<nvitop/format.h>) to print a field, so that N/A never prints as 4294967295.
 *
 * Manual: nvt_status(3); overview libnvitop(3).
 */
#ifndef NVITOP_COMMON_H
#define NVITOP_COMMON_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memset, for the inline *_init() helpers */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NVT_BUILDING_LIBRARY) && defined(_WIN32)
#define NVT_API __declspec(dllexport)
#elif defined(NVT_BUILDING_LIBRARY)
#define NVT_API __attribute__((visibility("default")))
#else
#define NVT_API
#endif

#define NVT_NA_U64  UINT64_MAX
#define NVT_NA_U32  UINT32_MAX
#define NVT_NA_I32  INT32_MIN
#define NVT_NA_SIZE SIZE_MAX

/* Size of the fixed string buffers in public structs (NVML's largest buffer is 96 bytes). */
#define NVT_NAME_LEN         96
#define NVT_UUID_LEN         96
#define NVT_BUS_ID_LEN       32
#define NVT_SHORT_STRING_LEN 32
#define NVT_VERSION_LEN      80
#define NVT_NVLINK_MAX_LINKS 18

typedef struct nvt_context nvt_context;
typedef struct nvt_device nvt_device;

static inline bool nvt_is_na_u64(uint64_t value) {
    return value == NVT_NA_U64;
}

static inline bool nvt_is_na_u32(uint32_t value) {
    return value == NVT_NA_U32;
}

static inline bool nvt_is_na_i32(int32_t value) {
    return value == NVT_NA_I32;
}

static inline bool nvt_is_na_double(double value) {
    return isnan(value);
}

/*
 * Free any array or block the library hands out (CUDA device lists, process lists, environments,
 * pid maps, host states; snapshots and host processes too, though nvt_snapshot_free() and
 * nvt_host_process_free() say the same).  Use this rather than free(): the library and the program
 * may use different allocators.  Accepts NULL.  Thread-safe (any thread, once per block).
 */
NVT_API void nvt_free(void *block);

/* A driver setting that is on, off or unknown (NVML's nvmlEnableState_t plus N/A). */
enum nvt_feature {
    NVT_FEATURE_NA = -1,
    NVT_FEATURE_DISABLED = 0,
    NVT_FEATURE_ENABLED = 1
};

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_COMMON_H */
