#include "driver/sim_latency.h"

#include <errno.h>
#include <math.h>
#include <time.h>

void sim_latency_wait(double seconds) {
    if (!(seconds > 0.0)) {
        return;
    }
    if (seconds >= SIM_STALL_ANNOUNCE_S) {
        sim_calls_dump();
    }
    /* An absolute deadline: restarting after a signal handler neither shortens nor stretches
     * the total. */
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    double whole = (double)(time_t)seconds;
    long nanos = (long)ceil((seconds - whole) * 1e9); /* never shorter than asked */
    deadline.tv_sec += (time_t)whole;
    deadline.tv_nsec += nanos;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {
    }
}
