/*
 * A stand-in for the CUDA driver library (libcuda.so.1), for testing the child process that asks
 * CUDA which devices a CUDA_VISIBLE_DEVICES value selects.  Its devices are the UUIDs listed in
 * $FAKE_CUDA_UUIDS (32 hex digits with dashes, comma-separated, in CUDA order);
 * CUDA_VISIBLE_DEVICES selects among them by ordinal or by a "GPU-" prefix of the UUID, stopping
 * at the first entry it cannot resolve.  $FAKE_CUDA_INIT_ERROR makes cuInit fail with that code.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 16

struct fake_uuid {
    unsigned char bytes[16];
};

int cuInit(unsigned int flags);
int cuDeviceGetCount(int *count);
int cuDeviceGet(int *device, int ordinal);
int cuDeviceGetUuid_v2(struct fake_uuid *uuid, int device);

static char uuids[MAX_DEVICES][40];
static int all_count;
static int visible[MAX_DEVICES];
static int visible_count;

static void load_uuids(void) {
    const char *list = getenv("FAKE_CUDA_UUIDS");
    all_count = 0;
    while (list != NULL && *list != '\0' && all_count < MAX_DEVICES) {
        size_t len = strcspn(list, ",");
        snprintf(uuids[all_count++], sizeof(uuids[0]), "%.*s", (int)len, list);
        list += len + (list[len] == ',');
    }
}

static int resolve(const char *item, size_t len) {
    if (len > 0 && isdigit((unsigned char)item[0])) {
        int ordinal = atoi(item);
        return ordinal < all_count ? ordinal : -1;
    }
    if (len > 4 && strncmp(item, "GPU-", 4) == 0) {
        for (int i = 0; i < all_count; i++) {
            if (strncmp(uuids[i], item + 4, len - 4) == 0) {
                return i;
            }
        }
    }
    return -1;
}

int cuInit(unsigned int flags) {
    (void)flags;
    const char *error = getenv("FAKE_CUDA_INIT_ERROR");
    if (error != NULL) {
        return atoi(error);
    }
    load_uuids();
    const char *value = getenv("CUDA_VISIBLE_DEVICES");
    visible_count = 0;
    if (value == NULL) {
        for (int i = 0; i < all_count; i++) {
            visible[visible_count++] = i;
        }
        return 0;
    }
    while (visible_count < MAX_DEVICES) {
        size_t len = strcspn(value, ",");
        int found = resolve(value, len);
        if (found < 0) {
            break;
        }
        visible[visible_count++] = found;
        if (value[len] == '\0') {
            break;
        }
        value += len + 1;
    }
    return 0;
}

int cuDeviceGetCount(int *count) {
    *count = visible_count;
    return 0;
}

int cuDeviceGet(int *device, int ordinal) {
    if (ordinal < 0 || ordinal >= visible_count) {
        return 101;
    }
    *device = visible[ordinal];
    return 0;
}

int cuDeviceGetUuid_v2(struct fake_uuid *uuid, int device) {
    const char *text = uuids[device];
    size_t n = 0;
    for (size_t i = 0; text[i] != '\0' && n < 16; i++) {
        if (text[i] == '-') {
            continue;
        }
        unsigned int byte = 0;
        if (sscanf(text + i, "%2x", &byte) != 1) {
            return 1;
        }
        uuid->bytes[n++] = (unsigned char)byte;
        i++;
    }
    return n == 16 ? 0 : 1;
}

/* The CUDA runtime's version query too (libcudart), so that one stand-in library serves
 * nvt_cuda_runtime_version(): $FAKE_CUDART_VERSION, else 12040; a negative value fails. */
int cudaRuntimeGetVersion(int *version);

int cudaRuntimeGetVersion(int *version) {
    const char *text = getenv("FAKE_CUDART_VERSION");
    int value = text != NULL ? atoi(text) : 12040;
    if (value < 0) {
        return 35; /* cudaErrorInsufficientDriver */
    }
    *version = value;
    return 0;
}
