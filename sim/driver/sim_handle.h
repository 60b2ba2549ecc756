/*
 * Device handles.  A handle is the address of a fixed slot in a static table (one plane per reset
 * generation, in it one row per device index, one column for the GPU and one per MIG slot), so
 * handles stay valid across scenario reloads and can be checked without being dereferenced.  A
 * GPU reset ("resets" raised in the scenario) moves the GPU to another plane: lookups hand out
 * new handles, and the old ones answer GPU_IS_LOST (sim_begin_device).
 */
#ifndef NVITOP_SIM_DRIVER_SIM_HANDLE_H
#define NVITOP_SIM_DRIVER_SIM_HANDLE_H

#include <stdbool.h>

#include "model/sim_model.h"

/* The handle of device `index` (mig_slot 0) or of its MIG slot `mig_slot - 1`, in the device's
 * current reset generation (sim_device_resets).  Called during a query; the caller keeps
 * index < SIM_MAX_DEVICES and mig_slot <= SIM_MAX_MIG_SLOTS. */
nvmlDevice_t sim_handle_of(unsigned int index, unsigned int mig_slot);

/* Decodes a handle; returns false for NULL and for anything that is not one of ours. */
bool sim_handle_decode(nvmlDevice_t handle, unsigned int *index, unsigned int *mig_slot,
                       unsigned int *generation);

#endif /* NVITOP_SIM_DRIVER_SIM_HANDLE_H */
