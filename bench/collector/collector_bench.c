/*
 * bench-collector: the CPU cost of the metric collector sampling in the background every 0.25 s
 * (an active tag, a collect every second, as nvitop-collect's rows do) on the 8-GPU, 20-process
 * scenario, against a floor measured in the same run: a thread taking the same snapshots
 * (nvt_snapshot_take with the collector's flags) at the same rate and doing nothing else.  Target:
 * at most 1.5x the floor.  CPU time is the whole process's (CLOCK_PROCESS_CPUTIME_ID), so threads
 * that come and go are counted.  Prints figures; never fails on a time.
 *
 *   usage: bench-collector [SECONDS]   (per measurement; default 10)
 *
 * The scenario's stand-in pids come from NVT_STANDIN_<i> (scripts/standins.sh); when those are not
 * set, the benchmark forks 20 idle children of its own (they are then the collector's descendants,
 * so their per-process keys are collected too, the costlier case).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_util.h"
#include "util/sys/clock.h"

#define STANDINS   20
#define INTERVAL_S 0.25
#define SNAPSHOT_FLAGS                                                                             \
    (NVT_SAMPLE_DEVICES | NVT_SAMPLE_HOST | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES)

/* The floor: snapshots every INTERVAL_S on a thread of its own, nothing else. */
struct floor_run {
    nvt_context *ctx;
    double seconds;
    int snapshots;
};

static void *floor_thread(void *arg) {
    struct floor_run *run = arg;
    double start = clock_monotonic_s();
    for (int k = 0; k * INTERVAL_S < run->seconds; k++) {
        bench_sleep_until(start + k * INTERVAL_S);
        struct nvt_snapshot *snap = NULL;
        if (nvt_snapshot_take(run->ctx, SNAPSHOT_FLAGS, &snap) == NVT_OK) {
            run->snapshots++;
        }
        nvt_snapshot_free(snap);
    }
    return NULL;
}

/* The floor's CPU time (-1 when the driver cannot be opened); *snapshots taken and *gpus and
 * *processes of the first one. */
static double measure_floor(double seconds, int *snapshots, size_t *gpus, size_t *processes) {
    struct floor_run run = {.seconds = seconds};
    if (nvt_open(NULL, &run.ctx) != NVT_OK) {
        return -1.0;
    }
    /* Warm-up: the first snapshot reads static facts once. */
    struct nvt_snapshot *snap = NULL;
    if (nvt_snapshot_take(run.ctx, SNAPSHOT_FLAGS, &snap) == NVT_OK) {
        *gpus = snap->device_count;
        *processes = snap->process_count;
        nvt_snapshot_free(snap);
    }
    double cpu0 = bench_process_cpu_s();
    pthread_t thread;
    pthread_create(&thread, NULL, floor_thread, &run);
    pthread_join(thread, NULL);
    double cpu = bench_process_cpu_s() - cpu0;
    nvt_close(run.ctx);
    *snapshots = run.snapshots;
    return cpu;
}

/* The collector: its own sampling thread at INTERVAL_S; this thread collects once a second. */
static double measure_collector(double seconds, size_t *keys) {
    nvt_collector *c = NULL;
    struct nvt_collector_options opts;
    nvt_collector_options_init(&opts);
    opts.interval_s = INTERVAL_S;
    if (nvt_collector_create(&opts, &c) != NVT_OK) {
        return -1.0;
    }
    (void)nvt_collector_sample(c); /* warm-up, as for the floor (no tag yet: nothing kept) */
    double cpu0 = bench_process_cpu_s();
    double start = clock_monotonic_s();
    nvt_collector_activate(c, "bench");
    *keys = 0;
    for (int s = 1; s <= (int)seconds; s++) {
        bench_sleep_until(start + s);
        struct nvt_metric *metrics = NULL;
        size_t count = 0;
        if (nvt_collector_collect(c, &metrics, &count) == NVT_OK) {
            *keys = count;
        }
        nvt_metrics_free(metrics);
    }
    bench_sleep_until(start + seconds);
    nvt_collector_deactivate(c, NULL);
    double cpu = bench_process_cpu_s() - cpu0;
    nvt_collector_destroy(c);
    return cpu;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 10.0;
    if (!(seconds >= 1.0)) {
        fprintf(stderr, "usage: bench-collector [SECONDS >= 1]\n");
        return 2;
    }
    pid_t pids[STANDINS];
    size_t standins = bench_start_standins(pids, STANDINS);
    int snapshots = 0;
    size_t keys = 0;
    size_t gpus = 0;
    size_t processes = 0;
    double floor = measure_floor(seconds, &snapshots, &gpus, &processes);
    double collector = measure_collector(seconds, &keys);
    bench_stop_standins(pids, standins);
    if (floor < 0.0 || collector < 0.0) {
        fprintf(stderr, "bench-collector: cannot open the driver (NVML_SIM_SCENARIO? "
                        "LD_LIBRARY_PATH?)\n");
        return 1;
    }
    printf("bench-collector: %.0f s each, sampling every %.2f s, %zu GPUs, %zu GPU processes\n",
           seconds, INTERVAL_S, gpus, processes);
    printf("floor (snapshots alone):  %.3f ms CPU/s (%d snapshots, %.0f us each)\n",
           floor * 1000.0 / seconds, snapshots, snapshots > 0 ? floor * 1e6 / snapshots : 0.0);
    printf("collector (tag active):   %.3f ms CPU/s (%zu keys per collect, a collect per second)\n",
           collector * 1000.0 / seconds, keys);
    printf("ratio collector / floor:  %.2f (target <= 1.5)\n",
           floor > 0.0 ? collector / floor : 0.0);
    /* Per GPU process and sample, for the comparison across scenario sizes (scripts/bench.sh). */
    double samples = seconds / INTERVAL_S;
    if (processes > 0) {
        printf("per process:              collector %.2f us, floor %.2f us a sample\n",
               collector * 1e6 / samples / (double)processes,
               floor * 1e6 / samples / (double)processes);
    }
    return 0;
}
