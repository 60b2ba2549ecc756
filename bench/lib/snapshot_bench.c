/*
 * bench-lib-snapshot: the cost of nvt_snapshot_take(NVT_SAMPLE_DEFAULT) on the 8-GPU, 20-process
 * scenario, against a floor measured in the same run: a loop that makes only the same NVML calls
 * (through function pointers of the same loaded driver) and reads the same proc data the
 * cheapest honest way, without parsing it: kept descriptors read again with one pread each, as
 * the library does, and status and cmdline only when first seen or 10 s old (bench_floor.h).  Also
 * prints NVML calls per snapshot (from the simulator's call counts) and the resident memory the
 * library adds beyond the NVML library's own.  Prints figures; never fails on a time.
 *
 *   usage: bench-lib-snapshot [ROUNDS]
 *
 * The scenario's stand-in pids come from NVT_STANDIN_<i> (scripts/standins.sh); when those are
 * not set, the benchmark forks 20 idle children of its own to stand in.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_floor.h"
#include "bench_util.h"
#include "util/sys/clock.h"

#define STANDINS 20
#define BATCH    20

/* The simulator's call counts ("name count" lines), read into a fixed table. */
struct calls {
    char names[128][64];
    unsigned long counts[128];
    size_t n;
};

static bool read_calls(const char *path, struct calls *out) {
    memset(out, 0, sizeof(*out));
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        return false;
    }
    char line[160];
    while (out->n < 128 && fgets(line, sizeof(line), in) != NULL) {
        char *space = strchr(line, ' ');
        if (space == NULL || (size_t)(space - line) >= sizeof(out->names[0])) {
            continue;
        }
        memcpy(out->names[out->n], line, (size_t)(space - line));
        out->names[out->n][space - line] = '\0';
        out->counts[out->n++] = strtoul(space + 1, NULL, 10);
    }
    fclose(in);
    return out->n > 0;
}

static unsigned long count_of(const struct calls *calls, const char *name) {
    for (size_t i = 0; i < calls->n; i++) {
        if (strcmp(calls->names[i], name) == 0) {
            return calls->counts[i];
        }
    }
    return 0;
}

/* Calls in `after` beyond `before`: the total, and the most any device-level entry point got. */
static unsigned long difference(const struct calls *before, const struct calls *after,
                                unsigned long *most) {
    unsigned long total = 0;
    *most = 0;
    for (size_t i = 0; i < after->n; i++) {
        unsigned long extra = after->counts[i] - count_of(before, after->names[i]);
        total += extra;
        if (strncmp(after->names[i], "nvmlDevice", 10) == 0 &&
            strncmp(after->names[i], "nvmlDeviceGetCount", 18) != 0 && extra > *most) {
            *most = extra;
        }
    }
    return total;
}

/* NVML calls of one open/close cycle with `snapshots` snapshots (the driver is unloaded at
 * nvt_close, so its counters restart with every cycle). */
static bool cycle_calls(const char *path, int snapshots, struct calls *out) {
    remove(path);
    nvt_context *ctx = NULL;
    if (nvt_open(NULL, &ctx) != NVT_OK) {
        return false;
    }
    for (int i = 0; i < snapshots; i++) {
        struct nvt_snapshot *snap = NULL;
        if (nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap) == NVT_OK) {
            nvt_snapshot_free(snap);
        }
    }
    nvt_close(ctx);
    return read_calls(path, out);
}

static void report_calls(unsigned devices) {
    char path[] = "/tmp/nvt-bench-calls.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        return;
    }
    close(fd);
    setenv("NVML_SIM_CALLS_FILE", path, 1);
    static struct calls open_only;
    static struct calls one;
    static struct calls two;
    bool counted = cycle_calls(path, 0, &open_only) && cycle_calls(path, 1, &one) &&
                   cycle_calls(path, 2, &two);
    unsetenv("NVML_SIM_CALLS_FILE");
    remove(path);
    if (!counted) {
        printf("NVML calls:         (no call counts: is the simulated driver loaded?)\n");
        return;
    }
    unsigned long most_first;
    unsigned long most_later;
    unsigned long first = difference(&open_only, &one, &most_first);
    unsigned long later = difference(&one, &two, &most_later);
    unsigned long open_close = 0;
    for (size_t i = 0; i < open_only.n; i++) {
        open_close += open_only.counts[i];
    }
    printf("NVML calls:         first snapshot %lu, later snapshots %lu (target <= 150; nvitop "
           "1.7: 206 for one `nvitop -1`); open+close %lu\n",
           first, later, open_close);
    printf("repeated queries:   %s (at most %lu calls per device-level entry point, %u devices)\n",
           most_later <= devices ? "none" : "SOME", most_later, devices);
}

int main(int argc, char **argv) {
    int rounds = 15;
    if (argc > 1) {
        char *end = NULL;
        long value = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || value < 3 || value > 10000) {
            fprintf(stderr, "usage: bench-lib-snapshot [ROUNDS]   (3..10000)\n");
            return 2;
        }
        rounds = (int)value;
    }
    if (getenv("NVML_SIM_SCENARIO") == NULL) {
        setenv("NVML_SIM_SCENARIO", NVT_BENCH_SCENARIO, 1);
    }
    pid_t standins[STANDINS];
    size_t standin_count = bench_start_standins(standins, STANDINS);

    long rss_start = bench_rss_kib();
    struct bench_floor *floor = NULL;
    if (bench_floor_open(&floor) != 0) {
        fprintf(stderr, "bench-lib-snapshot: cannot load NVML (LD_LIBRARY_PATH?)\n");
        bench_stop_standins(standins, standin_count);
        return 1;
    }
    long rss_nvml = bench_rss_kib();
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "bench-lib-snapshot: %s\n", nvt_strerror(status));
        bench_floor_close(floor);
        bench_stop_standins(standins, standin_count);
        return 1;
    }
    struct nvt_snapshot *snap = NULL;
    size_t processes = 0;
    unsigned device_count = nvt_device_count(ctx);
    for (int i = 0; i < 5; i++) { /* warm up both, and settle the library's memory */
        nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap);
        processes = snap != NULL ? snap->process_count : 0;
        nvt_snapshot_free(snap);
        bench_floor_pass(floor);
    }
    long rss_lib = bench_rss_kib();

    double *ours = calloc((size_t)rounds, sizeof(double));
    double *base = calloc((size_t)rounds, sizeof(double));
    for (int r = 0; r < rounds && ours != NULL && base != NULL; r++) {
        double start = clock_monotonic_s();
        for (int i = 0; i < BATCH; i++) {
            nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap);
            nvt_snapshot_free(snap);
        }
        ours[r] = (clock_monotonic_s() - start) / BATCH;
        start = clock_monotonic_s();
        for (int i = 0; i < BATCH; i++) {
            bench_floor_pass(floor);
        }
        base[r] = (clock_monotonic_s() - start) / BATCH;
    }
    if (ours != NULL && base != NULL) {
        double ours_us = bench_median(ours, (size_t)rounds) * 1e6;
        double base_us = bench_median(base, (size_t)rounds) * 1e6;
        printf("scenario:           %s, %u GPUs, %zu GPU processes\n", getenv("NVML_SIM_SCENARIO"),
               nvt_device_count(ctx), processes);
        printf("snapshot (DEFAULT): %.1f us (median of %d rounds of %d)\n", ours_us, rounds, BATCH);
        printf("floor (same NVML calls, same proc data through kept descriptors, no parsing): "
               "%.1f us\n",
               base_us);
        printf("ratio:              %.2fx (target <= 1.5x)\n", ours_us / base_us);
    }
    printf("resident memory:    %ld KiB at start, +%ld KiB with NVML loaded, +%ld KiB more with "
           "a context and 5 snapshots (target <= 1024 KiB)\n",
           rss_start, rss_nvml - rss_start, rss_lib - rss_nvml);
    free(ours);
    free(base);
    nvt_close(ctx);
    bench_floor_close(floor);
    /* Last, so that the memory figures above start from a process that never ran the library. */
    report_calls(device_count);
    bench_stop_standins(standins, standin_count);
    return 0;
}
