/*
 * Counting calls per entry point, so that benchmarks can report how many NVML calls a refresh
 * costs.  The counts are dumped as "name count" lines to the file named by NVML_SIM_CALLS_FILE
 * at the last nvmlShutdown, at process exit and when a call begins a stall (sim_latency.h).
 */
#ifndef NVITOP_SIM_MODEL_SIM_CALLS_H
#define NVITOP_SIM_MODEL_SIM_CALLS_H

#include <stdbool.h>

#include "nvml/nvml_abi.h"

#define SIM_CALL_ID(name, params) SIM_CALL_##name,
enum sim_call_id {
    NVML_ABI_FUNCTIONS(SIM_CALL_ID)
    NVML_ABI_MONITOR_FUNCTIONS(SIM_CALL_ID) SIM_CALL_nvmlErrorString,
    SIM_CALL_COUNT
};
#undef SIM_CALL_ID

/* Adds one to the entry point's counter.  Lock-free, thread-safe. */
void sim_calls_count(enum sim_call_id id);

/* Finds the entry point named `name` (nvmlErrorString included).  Pure, thread-safe. */
bool sim_calls_find(const char *name, enum sim_call_id *id);

/* Writes the counters to $NVML_SIM_CALLS_FILE (if set), replacing the file atomically.
 * Thread-safe; errors are ignored (counting must never break a client). */
void sim_calls_dump(void);

#endif /* NVITOP_SIM_MODEL_SIM_CALLS_H */
