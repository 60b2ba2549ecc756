/* The monotonic clock in seconds, for the deadlines of tests that wait for a positive sign
 * (never for timed assertions). */
#ifndef NVITOP_TESTS_SUPPORT_TEST_CLOCK_H
#define NVITOP_TESTS_SUPPORT_TEST_CLOCK_H

#include <time.h>

static inline double test_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif /* NVITOP_TESTS_SUPPORT_TEST_CLOCK_H */
