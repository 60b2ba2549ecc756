/*
 * bench-record: the recording's size and costs on the 8-GPU, 20-process scenario (the simulator's
 * values move with its clock; the host data of the 20 stand-ins are real).
 *
 *   1. Size and CPU: FRAMES snapshots (default 120, 0.1 s apart) are taken as nvitop-record takes
 *      them (its flags, plus the ancestors of the GPU processes through the cache it keeps, read
 *      again after 60 s: at most once in this run, against every 60 frames at 1 s) and appended
 *      to a file.  Prints bytes per frame and the 24-hour size at 1 s, and the CPU time recording
 *      adds (ancestors, encoding, compression, storing) as a ratio of the snapshots' own CPU time
 *      (the floor; target at most 0.10).
 *   2. Replay: a HOURS-hour file at 1 s (default 24) is written from those snapshots in turn
 *      with consecutive times; then the time to open it and decode the first frame (target
 *      100 ms), the slowest of 50 jumps to random moments (target 50 ms) and the reader's memory
 *      (how much the resident memory grew from before the open to after the jumps).
 *
 *   usage: bench-record [FRAMES [HOURS [KEYFRAME_EVERY [ZSTD_LEVEL]]]]
 *
 * Prints figures; never fails on a time.  The stand-ins are forked here unless NVT_STANDIN_1 is
 * set.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "record/codec/fields.h"
#include "record/file/reader.h"
#include "record/file/writer.h"
#include "record/related.h"
#include "util/sys/clock.h"

#define STANDINS 20
/* nvitop-record's flags (src/cmd/nvitop-record/main.c). */
#define FLAGS (NVT_SAMPLE_ALL & ~(unsigned)(NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK))

static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Fields of a table whose value differs between two structs, and the bytes their encodings take
 * (what a field-level delta would have to store). */
static void count_changed(const struct field_table *table, const void *a, const void *b,
                          size_t *fields, size_t *bytes) {
    for (size_t i = 0; i < table->count; i++) {
        const struct field *f = &table->fields[i];
        if (memcmp((const char *)a + f->offset, (const char *)b + f->offset, f->size) != 0) {
            struct field_table one = {f, 1};
            struct strbuf out = STRBUF_INIT;
            fields_encode(&out, &one, b);
            (*fields)++;
            *bytes += out.len;
            strbuf_fini(&out);
        }
    }
}

static void changed_between(const struct nvt_snapshot *a, const struct nvt_snapshot *b,
                            size_t *fields, size_t *bytes) {
    for (size_t i = 0; i < a->device_count && i < b->device_count; i++) {
        count_changed(&fields_device_state, &a->devices[i].state, &b->devices[i].state, fields,
                      bytes);
    }
    for (size_t i = 0; i < a->process_count && i < b->process_count; i++) {
        count_changed(&fields_gpu_process, &a->processes[i], &b->processes[i], fields, bytes);
        count_changed(&fields_host_process, &a->processes[i].host, &b->processes[i].host, fields,
                      bytes);
    }
    count_changed(&fields_host_state, &a->host, &b->host, fields, bytes);
}

struct taken {
    struct nvt_snapshot *snap;
    struct frame *copy; /* holds the ancestors for part 2 (those of the cache are replaced) */
};

/* Open path and decode its first frame; the milliseconds it took, the median of 5 (-1: failed). */
static double median_open_ms(const char *path) {
    double ms[5];
    for (size_t k = 0; k < 5; k++) {
        char error[512];
        double t0 = clock_monotonic_s();
        struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
        struct frame *frame = NULL;
        if (r == NULL || !rec_reader_frame(r, 0, &frame, error, sizeof(error))) {
            fprintf(stderr, "bench-record: %s\n", error);
            rec_reader_close(r);
            return -1;
        }
        ms[k] = (clock_monotonic_s() - t0) * 1e3;
        frame_free(frame);
        rec_reader_close(r);
    }
    for (size_t i = 1; i < 5; i++) { /* insertion sort of five */
        for (size_t j = i; j > 0 && ms[j - 1] > ms[j]; j--) {
            double swap = ms[j];
            ms[j] = ms[j - 1];
            ms[j - 1] = swap;
        }
    }
    return ms[2];
}

/* A copy of path in dir whose first record marker after each of count evenly spread offsets is
 * zeroed (a damaged record header).  NULL when it cannot be made. */
static char *damage_copy(const char *dir, const char *path, size_t count) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        return NULL;
    }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    unsigned char *data = size > 0 ? malloc((size_t)size) : NULL;
    bool ok = data != NULL && fread(data, 1, (size_t)size, in) == (size_t)size;
    fclose(in);
    char *out = NULL;
    if (ok) {
        for (size_t k = 1; k <= count; k++) {
            for (size_t at = (size_t)size * k / (count + 1); at + 4 <= (size_t)size; at++) {
                if (memcmp(data + at, "NVRF", 4) == 0) {
                    memset(data + at, 0, 4);
                    break;
                }
            }
        }
        size_t len = strlen(dir) + sizeof("/damaged.nvtrec");
        out = malloc(len);
        FILE *f =
            out != NULL ? (snprintf(out, len, "%s/damaged.nvtrec", dir), fopen(out, "wb")) : NULL;
        ok = f != NULL && fwrite(data, 1, (size_t)size, f) == (size_t)size;
        if (f != NULL) {
            ok = fclose(f) == 0 && ok;
        }
        if (!ok) {
            free(out);
            out = NULL;
        }
    }
    free(data);
    return out;
}

int main(int argc, char **argv) {
    size_t frames = argc > 1 ? strtoul(argv[1], NULL, 10) : 120;
    double hours = argc > 2 ? strtod(argv[2], NULL) : 24.0;
    unsigned keyframe_every = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
    int level = argc > 4 ? atoi(argv[4]) : 0;
    if (frames == 0) {
        frames = 1;
    }
    pid_t pids[STANDINS];
    size_t standins = 0;
    nvt_context *ctx =
        bench_open_machine("bench-record", "h100-8gpu.json", pids, STANDINS, &standins);
    if (ctx == NULL) {
        return 1;
    }
    char dir[] = "/tmp/bench-record-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        return 1;
    }
    char path[256];
    snprintf(path, sizeof(path), "%s/a.nvtrec", dir);
    struct rec_writer_options wo = {
        .interval_s = 1.0, .keyframe_every = keyframe_every, .level = level};
    char error[512];
    struct rec_writer *w = rec_writer_open(path, &wo, error, sizeof(error));
    if (w == NULL) {
        fprintf(stderr, "bench-record: %s\n", error);
        return 1;
    }
    /* 1. Size and CPU. */
    struct taken *taken = calloc(frames, sizeof(*taken));
    double snap_cpu = 0;
    double record_cpu = 0;
    double related_cpu = 0;
    /* The writer's count, not the file's size: a running writer reserves room past its end. */
    unsigned long long start_size = rec_writer_size(w);
    struct related_cache ancestors = RELATED_CACHE_INIT; /* kept between frames as nvitop-record */
    for (size_t i = 0; i < frames; i++) {
        double c0 = bench_process_cpu_s();
        nvt_snapshot_take(ctx, FLAGS, &taken[i].snap);
        double c1 = bench_process_cpu_s();
        struct related related;
        related_read_cached(ctx, &ancestors, taken[i].snap, clock_monotonic_s(), RELATED_MAX_AGE_S,
                            &related);
        double c15 = bench_process_cpu_s();
        related_cpu += c15 - c1;
        rec_writer_append(w, taken[i].snap, related.items, related.count, error, sizeof(error));
        double c2 = bench_process_cpu_s();
        taken[i].copy = frame_copy(taken[i].snap, related.items, related.count);
        related_fini(&related);
        snap_cpu += c1 - c0;
        record_cpu += c2 - c1;
        struct timespec pause_ts = {0, 100000000L};
        nanosleep(&pause_ts, NULL);
    }
    double per_frame = (double)(rec_writer_size(w) - start_size) / (double)frames;
    rec_writer_close(w);
    const char *scenario = getenv("NVML_SIM_SCENARIO");
    const char *slash = scenario != NULL ? strrchr(scenario, '/') : NULL;
    size_t processes = taken[0].snap->process_count;
    printf("bench-record: %zu frames of %s (%zu GPU processes): %.0f bytes/frame "
           "(keyframe every %u, zstd level %d)\n",
           frames,
           slash != NULL      ? slash + 1
           : scenario != NULL ? scenario
                              : "?",
           processes, per_frame, keyframe_every ? keyframe_every : 300, level ? level : 3);
    printf("bench-record: 24 h at 1 s: %.1f MB (target 30 MB)\n", per_frame * 86400 / 1e6);
    printf("bench-record: CPU per frame: snapshot %.3f ms (floor), recording %.3f ms (ancestors "
           "%.3f ms): ratio %.3f (target 0.10)\n",
           snap_cpu * 1e3 / (double)frames, record_cpu * 1e3 / (double)frames,
           related_cpu * 1e3 / (double)frames, record_cpu / snap_cpu);
    if (processes > 0) {
        printf("bench-record: per process and frame: recording %.2f us, snapshot %.2f us, "
               "%.1f bytes\n",
               record_cpu * 1e6 / (double)frames / (double)processes,
               snap_cpu * 1e6 / (double)frames / (double)processes, per_frame / (double)processes);
    }
    size_t changed = 0;
    size_t changed_bytes = 0;
    for (size_t i = 1; i < frames; i++) {
        changed_between(taken[i - 1].snap, taken[i].snap, &changed, &changed_bytes);
    }
    if (frames > 1) {
        printf("bench-record: fields that change from one frame to the next: %.1f a frame, "
               "%.0f bytes encoded (before compression)\n",
               (double)changed / (double)(frames - 1),
               (double)changed_bytes / (double)(frames - 1));
    }
    /* 2. A long file, then open, first frame and jumps. */
    unlink(path);
    w = rec_writer_open(path, &wo, error, sizeof(error));
    size_t total = hours * 3600 >= 1.0 ? (size_t)(hours * 3600) : 1;
    double t0 = 1.7e9;
    for (size_t i = 0; i < total && w != NULL; i++) {
        struct taken *t = &taken[i % frames];
        double saved = t->snap->timestamp;
        t->snap->timestamp = t0 + (double)i;
        rec_writer_append(w, t->snap, t->copy->related, t->copy->related_count, error,
                          sizeof(error));
        t->snap->timestamp = saved;
    }
    rec_writer_close(w);
    printf("bench-record: %.1f h file: %.1f MB\n", hours, (double)file_size(path) / 1e6);
    long rss0 = bench_rss_kib();
    double o0 = clock_monotonic_s();
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    struct frame *frame = NULL;
    if (r == NULL || !rec_reader_frame(r, 0, &frame, error, sizeof(error))) {
        fprintf(stderr, "bench-record: %s\n", error);
        return 1;
    }
    double o1 = clock_monotonic_s();
    frame_free(frame);
    double worst = 0;
    srand(7);
    for (int k = 0; k < 50; k++) {
        double t = t0 + (double)(rand() % (int)total);
        double j0 = clock_monotonic_s();
        size_t i = rec_reader_find(r, t);
        if (!rec_reader_frame(r, i, &frame, error, sizeof(error))) {
            fprintf(stderr, "bench-record: %s\n", error);
            return 1;
        }
        double j1 = clock_monotonic_s();
        frame_free(frame);
        worst = j1 - j0 > worst ? j1 - j0 : worst;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("bench-record: open + first frame %.1f ms (target 100 ms), slowest jump %.1f ms "
           "(target 50 ms), reader memory %.1f MiB (RSS growth from the open to after the jumps), "
           "peak RSS %.1f MiB (the whole benchmark)\n",
           (o1 - o0) * 1e3, worst * 1e3, (double)(bench_rss_kib() - rss0) / 1024.0,
           (double)ru.ru_maxrss / 1024.0);
    rec_reader_close(r);
    /* 3. Resync costs only where there is damage: the open of the undamaged file against the
     * same file with 16 record headers damaged, spread over it (medians of 5 opens). */
    double clean = median_open_ms(path);
    char *damaged = damage_copy(dir, path, 16);
    if (damaged != NULL) {
        double hurt = median_open_ms(damaged);
        printf("bench-record: open + first frame, median of 5: undamaged %.1f ms, with 16 damaged "
               "record headers (each found again by resync) %.1f ms\n",
               clean, hurt);
        unlink(damaged);
        free(damaged);
    }
    unlink(path);
    rmdir(dir);
    for (size_t i = 0; i < frames; i++) {
        frame_free(taken[i].copy);
        nvt_snapshot_free(taken[i].snap);
    }
    free(taken);
    related_cache_fini(&ancestors);
    nvt_close(ctx);
    bench_stop_standins(pids, standins);
    return 0;
}
