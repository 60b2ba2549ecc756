/*
 * bench-exporter-floor: the least an exporter can do at the same cadence, as the floor the
 * exporter benchmark compares against: take the snapshots nvitop-exporter takes (the same
 * EXPORTER_SAMPLE_FLAGS) every INTERVAL seconds for DURATION seconds, with no host I/O lists, no
 * rendering and no server, then print its own CPU time and resident memory.
 *
 *   usage: bench-exporter-floor DURATION INTERVAL
 *
 * Output (one line): "cpu_s=<user+system seconds> rss_kib=<VmRSS> snapshots=<count>", the CPU
 * time counted from the first snapshot on (steady state, as the exporter is measured).
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "exporter.h"

/* Every snapshot is the exporter's. */
static unsigned exporter_flags(double now, void *arg) {
    (void)now;
    (void)arg;
    return EXPORTER_SAMPLE_FLAGS;
}

int main(int argc, char **argv) {
    double duration = 0.0;
    double interval = 0.0;
    nvt_context *ctx = NULL;
    int bad = bench_floor_start(argc, argv, &duration, &interval, &ctx);
    if (bad != 0) {
        return bad;
    }
    bench_floor_loop(ctx, duration, interval, exporter_flags, NULL);
    nvt_close(ctx);
    return 0;
}
