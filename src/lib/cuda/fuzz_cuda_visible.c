/*
 * libFuzzer target for the CUDA_VISIBLE_DEVICES resolution: any text against a fixed table with
 * a plain GPU, a MIG-enabled GPU and a MIG-capable one.  The first byte picks the mode.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_visible.h"
#include "util/array.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct cuda_mig_entry migs[] = {
    {0, 1, 0, "MIG-37b51284-1df4-5451-979d-3231ccb0822e"},
    {2, 13, 0, "MIG-d184f67c-c95f-5ef2-a935-b69bb2cd6d7e"},
};

static const struct cuda_gpu_entry gpus[] = {
    {0, "GPU-2a7c1a4e-5f3b-4c1d-9e8f-0123456789ab", false, false, NULL, 0},
    {1, "GPU-3eb79704-1571-707c-aee8-f43ce747313d", true, true, migs, 2},
    {2, "GPU-3eb79704-0000-4000-8000-00000000cafe", true, false, NULL, 0},
    {3, "", false, false, NULL, 0}, /* a lost GPU */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const struct cuda_table table = {gpus, ARRAY_SIZE(gpus)};
    char *value = malloc(size);
    if (value == NULL) {
        return 0;
    }
    memcpy(value, data + 1, size - 1);
    value[size - 1] = '\0';
    struct nvt_cuda_device out[8];
    size_t count = cuda_visible_resolve(value, &table, (data[0] & 1) != 0, out);
    if (count != SIZE_MAX && count > cuda_visible_max(&table)) { /* SIZE_MAX: out of memory */
        abort();
    }
    char joined[512];
    size_t n = 0;
    if (cuda_visible_from_uuids(value, &table, out, &n, joined, sizeof(joined)) &&
        n > cuda_visible_max(&table)) {
        abort();
    }
    free(value);
    return 0;
}
