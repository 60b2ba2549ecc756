/*
 * nvitop-cuda-probe: the helper program libnvitop starts (posix_spawn, see cuda_child.c) to ask
 * the CUDA driver which devices CUDA_VISIBLE_DEVICES selects, so that CUDA is never loaded or
 * initialised in the library's caller.
 *
 * Usage: nvitop-cuda-probe [LIBRARY]   (LIBRARY: the CUDA driver library to load; default
 * "libcuda.so.1", then "libcuda.so").  CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER come from the
 * environment, which the library makes minimal.  Output on stdout: one line per visible device,
 * its UUID as 32 hex digits grouped 8-4-4-4-12, then "END"; or nothing, with exit status
 * CUDA_PROBE_NO_LIBRARY or CUDA_PROBE_FAILED (cuda_child.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cuda/cuda_child.h"
#include "util/sys/dl.h"

/* CUDA error codes after which CUDA sees no device at all (docs/nvitop-behaviour.md §5.5). */
#define CUDA_ERROR_INVALID_DEVICE                 101
#define CUDA_ERROR_NO_DEVICE                      100
#define CUDA_ERROR_SYSTEM_DRIVER_MISMATCH         803
#define CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE 804

struct cuda_uuid {
    unsigned char bytes[16];
};

typedef int (*cu_init_fn)(unsigned int);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_uuid_fn)(struct cuda_uuid *, int);

static void write_all(const char *text, size_t len) {
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, text, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            _exit(CUDA_PROBE_FAILED);
        }
        text += n;
        len -= (size_t)n;
    }
}

static void write_uuid(const struct cuda_uuid *uuid) {
    static const char hex[] = "0123456789abcdef";
    char line[40];
    size_t n = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            line[n++] = '-';
        }
        line[n++] = hex[uuid->bytes[i] >> 4];
        line[n++] = hex[uuid->bytes[i] & 0xF];
    }
    line[n++] = '\n';
    write_all(line, n);
}

static void *open_library(const char *library) {
    if (library != NULL) {
        return dlopen(library, RTLD_NOW | RTLD_LOCAL);
    }
    void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return dl != NULL ? dl : dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
}

/* Close every descriptor but the standard three.  The library already has posix_spawn close
 * them where the C library can (glibc 2.34 and later); elsewhere this is the only guard. */
static void close_others(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (close_range(3, ~0U, 0) == 0) {
        return;
    }
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++) {
        close((int)fd);
    }
}

int main(int argc, char **argv) {
    close_others();
    void *dl = open_library(argc > 1 ? argv[1] : NULL);
    if (dl == NULL) {
        return CUDA_PROBE_NO_LIBRARY;
    }
    cu_init_fn cu_init;
    cu_count_fn cu_count;
    cu_get_fn cu_get;
    cu_uuid_fn cu_uuid;
    dl_function(dl, "cuInit", &cu_init, sizeof(cu_init));
    dl_function(dl, "cuDeviceGetCount", &cu_count, sizeof(cu_count));
    dl_function(dl, "cuDeviceGet", &cu_get, sizeof(cu_get));
    dl_function(dl, "cuDeviceGetUuid_v2", &cu_uuid, sizeof(cu_uuid));
    if (cu_uuid == NULL) {
        dl_function(dl, "cuDeviceGetUuid", &cu_uuid, sizeof(cu_uuid));
    }
    if (cu_init == NULL || cu_count == NULL || cu_get == NULL || cu_uuid == NULL) {
        return CUDA_PROBE_FAILED;
    }
    int result = cu_init(0);
    if (result == CUDA_ERROR_NO_DEVICE || result == CUDA_ERROR_INVALID_DEVICE ||
        result == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
        result == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
        write_all("END\n", 4);
        _exit(0);
    }
    int count = 0;
    if (result != 0 || cu_count(&count) != 0 || count < 0) {
        return CUDA_PROBE_FAILED;
    }
    for (int i = 0; i < count; i++) {
        int device = 0;
        struct cuda_uuid uuid;
        if (cu_get(&device, i) != 0 || cu_uuid(&uuid, device) != 0) {
            return CUDA_PROBE_FAILED;
        }
        write_uuid(&uuid);
    }
    write_all("END\n", 4);
    /* _exit: the CUDA driver's exit handlers have nothing to do for us; skipping them is quicker.
     */
    _exit(0);
}
