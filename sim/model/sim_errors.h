/*
 * NVML return codes by name: scenario files inject errors as "NOT_SUPPORTED", "GPU_IS_LOST", …
 * (NVML's names without the NVML_ERROR_ prefix).  nvmlErrorString lives beside this table.
 */
#ifndef NVITOP_SIM_MODEL_SIM_ERRORS_H
#define NVITOP_SIM_MODEL_SIM_ERRORS_H

#include <stdbool.h>

#include "nvml/nvml_abi.h"

/* Looks up an error by name; returns false for an unknown name (and for "SUCCESS", which is not
 * an error).  Pure, thread-safe. */
bool sim_error_from_name(const char *name, nvmlReturn_t *error);

#endif /* NVITOP_SIM_MODEL_SIM_ERRORS_H */
