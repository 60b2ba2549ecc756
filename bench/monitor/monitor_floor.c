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
#include "util/clock.h"

#define DEVICE_PERIOD_S 1.0
#define SLOW_PERIOD_S   5.0

int main(int argc, char **argv) {
    double duration = 0.0;
    double interval = 0.0;
    int bad = bench_duration_interval(argc, argv, &duration, &interval);
    if (bad != 0) {
        return bad;
    }
    nvt_context *ctx = bench_open(argv[0]);
    if (ctx == NULL) {
        return 1;
    }
    /* The monitor's schedule for --interval INTERVAL (src/tui/tui.c): devices and host every
     * second (every INTERVAL when shorter), the process list every INTERVAL, the slow device
     * fields every five seconds. */
    double period = interval < DEVICE_PERIOD_S ? interval : DEVICE_PERIOD_S;
    double start = clock_monotonic_s();
    double next = start;
    double next_processes = start;
    double next_slow = start;
    long snapshots = 0;
    double steady_cpu = bench_cpu_s();
    while (clock_monotonic_s() - start < duration) {
        double now = clock_monotonic_s();
        struct nvt_snapshot *snap = NULL;
        unsigned flags = NVT_SAMPLE_HOST | NVT_SAMPLE_DEVICES_FAST;
        if (now >= next_slow) {
            flags = (flags & ~(unsigned)NVT_SAMPLE_DEVICES_FAST) | NVT_SAMPLE_DEVICES;
            next_slow += SLOW_PERIOD_S;
        }
        if (now >= next_processes) {
            flags |= NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
            next_processes += interval;
        }
        if (nvt_snapshot_take(ctx, flags, &snap) == NVT_OK) {
            snapshots++;
        }
        nvt_snapshot_free(snap);
        if (snapshots == 1) {
            steady_cpu = bench_cpu_s();
        }
        next += period;
        bench_sleep_until(next);
    }
    printf("cpu_s=%.3f rss_kib=%ld snapshots=%ld\n", bench_cpu_s() - steady_cpu, bench_rss_kib(),
           snapshots);
    nvt_close(ctx);
    return 0;
}
