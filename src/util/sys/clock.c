#include "util/sys/clock.h"

#include <time.h>

static struct timespec now(clockid_t id) {
    struct timespec ts = {0, 0};
    /* clock_gettime cannot fail for these clocks with a valid pointer. */
    (void)clock_gettime(id, &ts);
    return ts;
}

uint64_t clock_monotonic_ns(void) {
    struct timespec ts = now(CLOCK_MONOTONIC);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

double clock_monotonic_s(void) {
    struct timespec ts = now(CLOCK_MONOTONIC);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_wall_s(void) {
    struct timespec ts = now(CLOCK_REALTIME);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
