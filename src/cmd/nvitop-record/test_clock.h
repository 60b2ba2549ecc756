/*
 * nvitop-record's settable clock, for tests only (docs/recording.md, "Testing"): when the
 * environment variable NVITOP_RECORD_TEST_TIMES is set, frame n is stamped with the n-th time of
 * its list instead of the time its snapshot was taken, and the recorder does not wait between
 * frames.  The list is comma-separated runs "T" (one frame at T seconds since the epoch) or
 * "T+STEPxN" (N frames from T, STEP seconds apart), so that a test writes a day, a clock stepped
 * back or a DST change in a fraction of a second.  Pure once parsed; one thread.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_RECORD_TEST_CLOCK_H
#define NVITOP_SRC_CMD_NVITOP_RECORD_TEST_CLOCK_H

#include <stdbool.h>
#include <stddef.h>

struct test_clock_run {
    double start;
    double step;
    unsigned long long count;
};

struct test_clock {
    struct test_clock_run *runs;
    size_t run_count;
};

/* Parse text (the variable's value) into *c.  False with a message in error. */
bool test_clock_parse(const char *text, struct test_clock *c, char *error, size_t error_size);

/* Frame n's time; past the list, the last time plus n's distance from it in last steps.  The
 * list has at least one run. */
double test_clock_time(const struct test_clock *c, unsigned long long n);

void test_clock_fini(struct test_clock *c);

#endif /* NVITOP_SRC_CMD_NVITOP_RECORD_TEST_CLOCK_H */
