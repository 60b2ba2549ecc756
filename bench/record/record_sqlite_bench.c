/*
 * bench-record-sqlite: the same frames as bench-record stored in SQLite instead of our format, in
 * the layouts of sqlite_store.h (normalized rows; one row per frame with its keyframe encoding,
 * raw or zstd; our format 2's keyframes and patches as rows), each in WAL mode with one
 * transaction per frame (docs/architecture.md, "Why our format and not SQLite").
 *
 *   1. CPU: FRAMES snapshots (default 120, 0.1 s apart) are taken as bench-record takes them
 *      (nvitop-record's flags, the ancestors through its cache) and stored in every layout.
 *      Prints the CPU time each layout's storing adds, with the ancestors as bench-record
 *      counts them, as a ratio of the snapshots' own CPU time (the floor; target at most 0.10).
 *   2. Size and seeks: HOURS hours at 1 s (default 1) are appended from those frames in turn
 *      with consecutive times, one transaction each.  Prints the database's bytes per frame and
 *      the 24-hour size at 1 s extrapolated from it, after a WAL checkpoint (how a recorder
 *      would leave it) and after a VACUUM; and the median and slowest of 50 seeks to random
 *      moments through the index on time (reading the whole frame).
 *
 *   usage: bench-record-sqlite [FRAMES [HOURS [PAGE_SIZE]]]
 *
 * PAGE_SIZE: SQLite's page size in bytes (default 4096, its own); a blob larger than a quarter of
 * a page leaves the rest of it unused, larger pages waste less.
 *
 * Prints figures; never fails on a time.  Compare with bench-record run in the same session.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "record/codec/frame.h"
#include "record/related.h"
#include "sqlite_store.h"
#include "util/sys/clock.h"

#define STANDINS 20
#define SEEKS    50
/* nvitop-record's flags (src/cmd/nvitop-record/main.c), as bench-record. */
#define FLAGS (NVT_SAMPLE_ALL & ~(unsigned)(NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK))

static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Part 2 for one layout: fills the store, measures its size and seeks.  False after a message. */
static bool long_run(struct sq_store *store, const char *path, struct frame *const *copies,
                     size_t frames, size_t stored, double hours, double t0) {
    char error[512];
    size_t total = (size_t)(hours * 3600);
    for (size_t i = 0; i < total; i++) {
        struct frame *f = copies[i % frames];
        double saved = f->snap.timestamp;
        f->snap.timestamp = t0 + (double)i;
        bool ok = sq_append(store, &f->snap, f->related, f->related_count, error, sizeof(error));
        f->snap.timestamp = saved;
        if (!ok) {
            fprintf(stderr, "bench-record-sqlite: %s\n", error);
            return false;
        }
    }
    stored += total;
    if (!sq_compact(store, false, error, sizeof(error))) {
        fprintf(stderr, "bench-record-sqlite: %s\n", error);
        return false;
    }
    double kept = (double)file_size(path) / (double)stored;
    double times[SEEKS];
    srand(7);
    for (int k = 0; k < SEEKS; k++) {
        double t = t0 + (double)(rand() % (int)(total > 0 ? total : 1));
        double j0 = clock_monotonic_s();
        if (!sq_seek(store, t, error, sizeof(error))) {
            fprintf(stderr, "bench-record-sqlite: %s\n", error);
            return false;
        }
        times[k] = clock_monotonic_s() - j0;
    }
    double worst = 0;
    for (int k = 0; k < SEEKS; k++) {
        worst = times[k] > worst ? times[k] : worst;
    }
    double median = bench_median(times, SEEKS);
    if (!sq_compact(store, true, error, sizeof(error))) {
        fprintf(stderr, "bench-record-sqlite: %s\n", error);
        return false;
    }
    double vacuumed = (double)file_size(path) / (double)stored;
    printf("  size: %.0f bytes/frame, 24 h at 1 s %.1f MB (after a checkpoint); after VACUUM "
           "%.0f bytes/frame, %.1f MB (target 30 MB)\n",
           kept, kept * 86400 / 1e6, vacuumed, vacuumed * 86400 / 1e6);
    if (sq_payload(store) > 0) {
        printf("  blobs stored: %.0f bytes/frame (the rest is SQLite's pages, row headers and the "
               "index on time)\n",
               (double)sq_payload(store) / (double)stored);
    }
    printf("  seek to a random moment of %.1f h: median %.2f ms, slowest %.2f ms (target 50 ms)\n",
           hours, median * 1e3, worst * 1e3);
    return true;
}

int main(int argc, char **argv) {
    size_t frames = argc > 1 ? strtoul(argv[1], NULL, 10) : 120;
    double hours = argc > 2 ? strtod(argv[2], NULL) : 1.0;
    frames = frames == 0 ? 1 : frames;
    unsigned page_size = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
    hours = hours > 0 ? hours : 1.0;
    pid_t pids[STANDINS];
    size_t standins = 0;
    nvt_context *ctx =
        bench_open_machine("bench-record-sqlite", "h100-8gpu.json", pids, STANDINS, &standins);
    char dir[] = "/tmp/bench-record-sqlite-XXXXXX";
    if (ctx == NULL || mkdtemp(dir) == NULL) {
        bench_stop_standins(pids, standins);
        nvt_close(ctx);
        return 1;
    }
    char paths[SQ_LAYOUTS][300];
    struct sq_store *stores[SQ_LAYOUTS] = {NULL};
    char error[512];
    int status = 0;
    for (int l = 0; l < SQ_LAYOUTS && status == 0; l++) {
        snprintf(paths[l], sizeof(paths[l]), "%s/%s.db", dir, sq_layout_name(l));
        stores[l] = sq_open(paths[l], l, page_size, error, sizeof(error));
        if (stores[l] == NULL) {
            fprintf(stderr, "bench-record-sqlite: %s\n", error);
            status = 1;
        }
    }
    /* 1. CPU. */
    struct frame **copies = calloc(frames, sizeof(*copies));
    double snap_cpu = 0;
    double related_cpu = 0;
    double store_cpu[SQ_LAYOUTS] = {0};
    double last_time = 0;
    struct related_cache ancestors = RELATED_CACHE_INIT;
    for (size_t i = 0; i < frames && status == 0 && copies != NULL; i++) {
        struct nvt_snapshot *snap = NULL;
        double c0 = bench_process_cpu_s();
        nvt_snapshot_take(ctx, FLAGS, &snap);
        double c1 = bench_process_cpu_s();
        struct related related;
        related_read_cached(ctx, &ancestors, snap, clock_monotonic_s(), RELATED_MAX_AGE_S,
                            &related);
        snap_cpu += c1 - c0;
        related_cpu += bench_process_cpu_s() - c1;
        for (int l = 0; l < SQ_LAYOUTS && status == 0; l++) {
            double s0 = bench_process_cpu_s();
            if (!sq_append(stores[l], snap, related.items, related.count, error, sizeof(error))) {
                fprintf(stderr, "bench-record-sqlite: %s\n", error);
                status = 1;
            }
            store_cpu[l] += bench_process_cpu_s() - s0;
        }
        copies[i] = frame_copy(snap, related.items, related.count);
        last_time = snap->timestamp;
        related_fini(&related);
        nvt_snapshot_free(snap);
        struct timespec pause_ts = {0, 100000000L};
        nanosleep(&pause_ts, NULL);
    }
    if (status == 0 && copies != NULL) {
        printf("bench-record-sqlite: SQLite %s, %zu frames of h100-8gpu (%zu GPU processes, %zu "
               "ancestors), page size %u, WAL, synchronous=NORMAL, one transaction per frame\n",
               sqlite3_libversion(), frames, copies[0]->snap.process_count,
               copies[0]->related_count, page_size != 0 ? page_size : 4096);
    }
    /* 2. Size and seeks, layout by layout. */
    for (int l = 0; l < SQ_LAYOUTS && status == 0 && copies != NULL; l++) {
        double add = related_cpu + store_cpu[l];
        printf("%s: CPU per frame: snapshot %.3f ms (floor), recording %.3f ms (ancestors %.3f "
               "ms): ratio %.3f (target 0.10)\n",
               sq_layout_name(l), snap_cpu * 1e3 / (double)frames, add * 1e3 / (double)frames,
               related_cpu * 1e3 / (double)frames, add / snap_cpu);
        fflush(stdout);
        if (!long_run(stores[l], paths[l], copies, frames, frames, hours, last_time + 1)) {
            status = 1;
        }
    }
    for (int l = 0; l < SQ_LAYOUTS; l++) {
        sq_close(stores[l]);
        unlink(paths[l]);
    }
    rmdir(dir);
    for (size_t i = 0; i < frames && copies != NULL; i++) {
        frame_free(copies[i]);
    }
    free(copies);
    related_cache_fini(&ancestors);
    nvt_close(ctx);
    bench_stop_standins(pids, standins);
    return status;
}
