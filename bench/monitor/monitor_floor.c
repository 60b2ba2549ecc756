/*
 * bench-monitor-floor: the least a monitor can do at the same cadence, as the floor the monitor
 * benchmark compares against: take the snapshots the monitor takes with --interval INTERVAL
 * (memory, utilisation and host every second, the slow device fields every five seconds, the
 * process list every INTERVAL) for DURATION seconds, without a terminal, drawing or a second
 * thread, then print its own CPU time and resident memory.
 *
 *   usage: bench-monitor-floor DURATION INTERVAL
 *
 * Output (one line): "cpu_s=<user+system seconds> rss_kib=<VmRSS> snapshots=<count>", where
 * the CPU time counts from the first snapshot on (steady state, as the monitor is measured).
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "util/sys/clock.h"

#define DEVICE_PERIOD_S 1.0
#define SLOW_PERIOD_S   5.0

/* When the process list and the slow device fields are due next. */
struct schedule {
    double interval;
    double next_processes;
    double next_slow;
};

static unsigned monitor_flags(double now, void *arg) {
    struct schedule *schedule = arg;
    unsigned flags = NVT_SAMPLE_HOST | NVT_SAMPLE_DEVICES_FAST;
    if (now >= schedule->next_slow) {
        flags = (flags & ~(unsigned)NVT_SAMPLE_DEVICES_FAST) | NVT_SAMPLE_DEVICES;
        schedule->next_slow += SLOW_PERIOD_S;
    }
    if (now >= schedule->next_processes) {
        flags |= NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
        schedule->next_processes += schedule->interval;
    }
    return flags;
}

int main(int argc, char **argv) {
    double duration = 0.0;
    double interval = 0.0;
    nvt_context *ctx = NULL;
    int bad = bench_floor_start(argc, argv, &duration, &interval, &ctx);
    if (bad != 0) {
        return bad;
    }
    /* The monitor's schedule for --interval INTERVAL (src/tui/tui.c): devices and host every
     * second (every INTERVAL when shorter), the process list every INTERVAL, the slow device
     * fields every five seconds. */
    double period = interval < DEVICE_PERIOD_S ? interval : DEVICE_PERIOD_S;
    double start = clock_monotonic_s();
    struct schedule schedule = {interval, start, start};
    bench_floor_loop(ctx, duration, period, monitor_flags, &schedule);
    nvt_close(ctx);
    return 0;
}
