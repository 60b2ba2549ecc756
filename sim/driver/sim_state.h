/*
 * The driver's state: the initialisation count, the current model, the simulated clock and the
 * file watch, behind one reader-writer lock.  Every export brackets its work with
 * sim_begin*() / sim_end(): queries share the lock, init, shutdown and reloads take it
 * exclusively.  A call's latency from the scenario is slept after the lock is released.
 */
#ifndef NVITOP_SIM_DRIVER_SIM_STATE_H
#define NVITOP_SIM_DRIVER_SIM_STATE_H

#include <stdbool.h>

#include "model/sim_calls.h"
#include "model/sim_model.h"

/* One query in progress: what it may read until sim_end(). */
struct sim_query {
    const struct sim_model *model;
    const struct sim_device *device; /* the physical device (the parent of a MIG device) */
    const struct sim_mig *mig;       /* the MIG device, or NULL for a physical handle */
    unsigned int index;              /* the physical device's index */
    unsigned int mig_slot;           /* 0 for the GPU, k + 1 for MIG slot k */
    double t_s;                      /* simulated seconds, for evaluating numbers */
    double elapsed_s;                /* real seconds since the first init, for counters */
    bool frozen;                     /* t_s is fixed (scenario clock or NVML_SIM_TIME) */
    bool locked;
    double latency_s; /* the scenario's "call_latency" for this entry point, slept in sim_end */
};

/* nvmlInit*: counts the call, loads the scenario on the first init, sleeps the call's latency
 * when it succeeds.  Returns NVML's codes. */
nvmlReturn_t sim_init(enum sim_call_id id);

/* nvmlShutdown: drops one reference (after the call's latency); the last one frees the model
 * and dumps call counts. */
nvmlReturn_t sim_shutdown(void);

/*
 * Starts a query that needs an initialised driver: counts the call, picks up a changed scenario
 * file, takes the shared lock.  Returns NVML_SUCCESS or NVML_ERROR_UNINITIALIZED.  Call sim_end()
 * in every case.
 */
nvmlReturn_t sim_begin(struct sim_query *q, enum sim_call_id id);

/*
 * Starts a query on a device handle: as sim_begin, then INVALID_ARGUMENT for a bad handle or
 * when `args_ok` is false (a NULL out-pointer), GPU_IS_LOST for a slot the scenario no longer
 * has or a lost GPU.
 */
nvmlReturn_t sim_begin_device(struct sim_query *q, enum sim_call_id id, nvmlDevice_t device,
                              bool args_ok);

/* The same, but MIG handles get NOT_SUPPORTED: for queries that only physical GPUs answer. */
nvmlReturn_t sim_begin_gpu(struct sim_query *q, enum sim_call_id id, nvmlDevice_t device,
                           bool args_ok);

/* Whether GPU `index` of the query's model is lost now ("lost", or "lost_after_queries" used
 * up).  For handle lookups, which do not go through sim_begin_device. */
bool sim_device_gone(const struct sim_query *q, unsigned int index);

/* The reset generation ("resets") of GPU `index` in the current model, 0 for an index it does not
 * have: the plane of the GPU's handles (sim_handle.h).  Called during a query (the lock held). */
unsigned int sim_device_resets(unsigned int index);

/* Ends a query: releases the lock if held, then sleeps the call's latency (sim_latency.h), and
 * returns `ret`, for `return sim_end(&q, ret)`. */
nvmlReturn_t sim_end(struct sim_query *q, nvmlReturn_t ret);

#endif /* NVITOP_SIM_DRIVER_SIM_STATE_H */
