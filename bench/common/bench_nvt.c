#include "bench_nvt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "util/sys/clock.h"

nvt_context *bench_open(const char *program) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "%s: %s\n", program, nvt_strerror(status));
        return NULL;
    }
    return ctx;
}

nvt_context *bench_open_machine(const char *program, const char *scenario, pid_t *pids, size_t max,
                                size_t *standins) {
    *standins = bench_start_standins(pids, max);
    bench_default_scenario(scenario);
    nvt_context *ctx = bench_open(program);
    if (ctx == NULL) {
        bench_stop_standins(pids, *standins);
        *standins = 0;
    }
    return ctx;
}

int bench_floor_start(int argc, char **argv, double *duration, double *interval,
                      nvt_context **ctx) {
    int bad = bench_duration_interval(argc, argv, duration, interval);
    if (bad != 0) {
        return bad;
    }
    *ctx = bench_open(argv[0]);
    return *ctx == NULL ? 1 : 0;
}

void bench_floor_loop(nvt_context *ctx, double duration, double period,
                      unsigned (*flags_at)(double now, void *arg), void *arg) {
    const char *warmup_text = getenv("NVT_BENCH_WARMUP_S");
    double warmup = warmup_text != NULL ? strtod(warmup_text, NULL) : 0.0;
    if (!(warmup > 0.0 && warmup < duration)) {
        warmup = 0.0;
    }
    double start = clock_monotonic_s();
    double next = start;
    long snapshots = 0;
    long counted = 0;
    double steady_cpu = bench_cpu_s();
    while (clock_monotonic_s() - start < duration) {
        bool warm = clock_monotonic_s() - start >= warmup;
        struct nvt_snapshot *snap = NULL;
        if (nvt_snapshot_take(ctx, flags_at(clock_monotonic_s(), arg), &snap) == NVT_OK) {
            snapshots++;
            counted += warm ? 1 : 0;
        }
        nvt_snapshot_free(snap);
        if (warm && counted == 1) {
            steady_cpu = bench_cpu_s();
        }
        next += period;
        bench_sleep_until(next);
    }
    printf("cpu_s=%.3f rss_kib=%ld snapshots=%ld\n", bench_cpu_s() - steady_cpu, bench_rss_kib(),
           snapshots);
}
