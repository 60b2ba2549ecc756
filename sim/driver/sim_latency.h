/*
 * A call's latency from the scenario ("call_latency", docs/scenarios.md): the entry point sleeps
 * that long before it answers, so that clients can be tested against a driver that blocks or
 * stalls.  The sleep happens after the query has released the driver's lock, so other threads'
 * calls, reloads and shutdowns never wait for it.
 */
#ifndef NVITOP_SIM_DRIVER_SIM_LATENCY_H
#define NVITOP_SIM_DRIVER_SIM_LATENCY_H

#include "model/sim_calls.h"

/* A call sleeping at least this long is a stall: before it sleeps, the call counts are written
 * to NVML_SIM_CALLS_FILE, so that a watcher (a test) can see that the stall has begun.  Shorter
 * latencies are not announced: a file write would be a noticeable part of their cost. */
#define SIM_STALL_ANNOUNCE_S 1.0

/*
 * Sleeps `seconds` (nothing for 0) on the monotonic clock; a signal handler that interrupts the
 * sleep does not shorten it.  Must be called without the driver's lock.  Thread-safe.
 */
void sim_latency_wait(double seconds);

#endif /* NVITOP_SIM_DRIVER_SIM_LATENCY_H */
