/*
 * Process lists and per-process utilisation samples, in the element layout each entry point
 * (and driver generation) uses.
 */
#ifndef NVITOP_SIM_DRIVER_SIM_PROCS_H
#define NVITOP_SIM_DRIVER_SIM_PROCS_H

#include "driver/sim_state.h"

enum sim_layout {
    SIM_LAYOUT_V1,     /* nvmlProcessInfo_v1_t, 16 bytes */
    SIM_LAYOUT_V2,     /* nvmlProcessInfo_v2_t, 24 bytes */
    SIM_LAYOUT_V3,     /* nvmlProcessInfo_v3_t, 32 bytes (R535's _v3) */
    SIM_LAYOUT_DETAIL, /* nvmlProcessDetail_v1_t */
};

/*
 * Lists the processes of `types` (enum sim_process_type bits) on the query's device, NVML style:
 * when *count is too small (a NULL buffer with *count == 0 asks for the size) stores the needed
 * count and returns INSUFFICIENT_SIZE; an empty list is SUCCESS with *count 0.  A GPU lists its
 * own processes and those of its MIG devices; a MIG device only its own.
 */
nvmlReturn_t sim_procs_list(const struct sim_query *q, unsigned int types, enum sim_layout layout,
                            unsigned int *count, void *buf);

/* nvmlDeviceGetProcessUtilization: one sample per process that has utilisation in the
 * scenario, stamped now; NOT_FOUND when there is none. */
nvmlReturn_t sim_procs_utilization(const struct sim_query *q,
                                   nvmlProcessUtilizationSample_t *samples, unsigned int *count,
                                   unsigned long long last_seen_us);

#endif /* NVITOP_SIM_DRIVER_SIM_PROCS_H */
