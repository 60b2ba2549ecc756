/*
 * Clocks.  Monotonic time measures intervals (never jumps); wall time stamps data for people.
 * Thread-safe.
 */
#ifndef NVITOP_SRC_UTIL_SYS_CLOCK_H
#define NVITOP_SRC_UTIL_SYS_CLOCK_H

#include <stdint.h>

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t clock_monotonic_ns(void);

/* Seconds of CLOCK_MONOTONIC, as a double. */
double clock_monotonic_s(void);

/* Seconds since the epoch (CLOCK_REALTIME), with sub-second precision. */
double clock_wall_s(void);

#endif /* NVITOP_SRC_UTIL_SYS_CLOCK_H */
