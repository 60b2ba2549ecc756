/*
 * Helpers shared by the export files: the common shapes of a device query (one number, one
 * flag, one string), so that each exported function stays one short call.
 */
#ifndef NVITOP_SIM_DRIVER_SIM_EXPORT_H
#define NVITOP_SIM_DRIVER_SIM_EXPORT_H

#include <stddef.h>

#include "driver/sim_state.h"

/* Reads the sim_num at `offset` in the physical device into *out (rounded).  MIG handles get
 * NOT_SUPPORTED. */
nvmlReturn_t sim_export_uint(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                             unsigned int *out);

/* The same for a 0/1 field, as nvmlEnableState_t. */
nvmlReturn_t sim_export_flag(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                             nvmlEnableState_t *out);

/* Copies the sim_text at `offset` in the physical device (MIG: NOT_SUPPORTED). */
nvmlReturn_t sim_export_text(enum sim_call_id id, nvmlDevice_t device, size_t offset, char *buf,
                             unsigned int length);

#endif /* NVITOP_SIM_DRIVER_SIM_EXPORT_H */
