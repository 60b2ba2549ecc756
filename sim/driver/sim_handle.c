#include "driver/sim_handle.h"

#include <stdint.h>

#include "driver/sim_state.h"

/* The NVML header leaves this type opaque; here it is only a distinct address. */
struct nvmlDevice_st {
    unsigned int reserved[2];
};

#define SIM_HANDLE_COLUMNS     (1 + SIM_MAX_MIG_SLOTS)
#define SIM_HANDLE_GENERATIONS (1 + SIM_MAX_RESETS)

static const struct nvmlDevice_st sim_handles[SIM_HANDLE_GENERATIONS][SIM_MAX_DEVICES]
                                             [SIM_HANDLE_COLUMNS];

nvmlDevice_t sim_handle_of(unsigned int index, unsigned int mig_slot) {
    /* Clients never write through handles; the table is const to make sure we don't either. */
    return (nvmlDevice_t)(uintptr_t)&sim_handles[sim_device_resets(index)][index][mig_slot];
}

bool sim_handle_decode(nvmlDevice_t handle, unsigned int *index, unsigned int *mig_slot,
                       unsigned int *generation) {
    uintptr_t p = (uintptr_t)handle;
    uintptr_t base = (uintptr_t)sim_handles;
    if (p < base || p >= base + sizeof(sim_handles)) {
        return false;
    }
    uintptr_t offset = p - base;
    if (offset % sizeof(struct nvmlDevice_st) != 0) {
        return false;
    }
    uintptr_t n = offset / sizeof(struct nvmlDevice_st);
    *mig_slot = (unsigned int)(n % SIM_HANDLE_COLUMNS);
    n /= SIM_HANDLE_COLUMNS;
    *index = (unsigned int)(n % SIM_MAX_DEVICES);
    *generation = (unsigned int)(n / SIM_MAX_DEVICES);
    return true;
}
