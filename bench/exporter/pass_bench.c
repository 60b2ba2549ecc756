/*
 * bench-exporter-pass: the CPU cost of one exporter pass (snapshot, host I/O lists, containers,
 * rendering) against the snapshot alone, in one process with a precise CPU clock, to show what
 * the exporter adds to the floor.  Use a scenario without call latencies (exporter_bench.py
 * writes one).
 *
 *   usage: bench-exporter-pass PASSES
 *
 * Output (one line): "snapshot_ms=<CPU per snapshot> pass_ms=<CPU per pass> bytes=<text size>".
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "exporter.h"

int main(int argc, char **argv) {
    long passes = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
    if (passes <= 0) {
        fprintf(stderr, "usage: %s PASSES\n", argv[0]);
        return 2;
    }
    nvt_context *ctx = bench_open(argv[0]);
    if (ctx == NULL) {
        return 1;
    }
    struct exporter exporter = {.ctx = ctx, .hostname = "bench"};
    size_t bytes = 0;
    for (int warm = 0; warm < 3; warm++) {
        char *text = NULL;
        if (exporter_pass(&exporter, &text, &bytes, NULL) == NVT_OK) {
            free(text);
        }
    }
    double start = bench_process_cpu_s() * 1e3;
    for (long i = 0; i < passes; i++) {
        struct nvt_snapshot *snap = NULL;
        if (nvt_snapshot_take(ctx, EXPORTER_SAMPLE_FLAGS, &snap) == NVT_OK) {
            nvt_snapshot_free(snap);
        }
    }
    double snapshot_ms = (bench_process_cpu_s() * 1e3 - start) / (double)passes;
    start = bench_process_cpu_s() * 1e3;
    for (long i = 0; i < passes; i++) {
        char *text = NULL;
        if (exporter_pass(&exporter, &text, &bytes, NULL) == NVT_OK) {
            free(text);
        }
    }
    double pass_ms = (bench_process_cpu_s() * 1e3 - start) / (double)passes;
    printf("snapshot_ms=%.4f pass_ms=%.4f bytes=%zu\n", snapshot_ms, pass_ms, bytes);
    exporter_fini(&exporter);
    nvt_close(ctx);
    return 0;
}
