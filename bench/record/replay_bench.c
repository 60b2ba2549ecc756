/*
 * bench-replay: the replay monitor (`nvitop --replay`) on long recordings of the 8-GPU,
 * 20-process scenario (the simulator's values move with its clock; the host data of the 20
 * stand-ins are real).  SNAPSHOTS snapshots (default 60, 0.1 s apart) are written in turn, one a
 * second with consecutive times, into a 1-hour file (the floor), an HOURS-hour file (default 24)
 * and a directory of DAYS daily files of 24 hours each (default 7; nvitop-record's output, read
 * as one recording; 0 leaves it out).  For each recording a child process, which holds nothing
 * else, opens the monitor's recorded source and measures:
 *
 *   * open + first frame drawn: the reader's index, the source, the monitor's state, the first
 *     frame decoded and the main screen drawn on a 50x160 canvas (target 100 ms);
 *   * the slowest of 50 jumps to random moments typed with the `@` key, each decoded and drawn
 *     (target 50 ms);
 *   * an event search (`n`) from the first frame, which decodes frames until the next change or
 *     for an hour of frames at most (the benchmark's frames repeat: there is no event);
 *   * its resident memory afterwards (VmRSS; target under 16 MiB whatever the file's length).
 *
 * Ratios against the 1-hour file show what the length costs.  Prints figures; never fails on a
 * time.
 *
 *   usage: bench-replay [SNAPSHOTS [HOURS [DAYS]]]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_nvt.h"
#include "bench_util.h"
#include "record/file/reader.h"
#include "record/file/writer.h"
#include "record/related.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/replay/replay_source.h"
#include "util/sys/clock.h"

#define STANDINS 20
#define JUMPS    50
#define ROWS     50
#define COLS     160
/* nvitop-record's flags (src/cmd/nvitop-record/main.c). */
#define FLAGS (NVT_SAMPLE_ALL & ~(unsigned)(NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK))

struct taken {
    struct nvt_snapshot *snap;
    struct related related;
};

/* What a child measured on one file. */
struct figures {
    double open_ms;
    double worst_jump_ms;
    double median_jump_ms;
    double event_ms;
    long event_frame; /* where the search left the replay */
    long rss_kib;
    size_t frames;
};

static bool write_file(const char *path, const struct taken *taken, size_t count, double hours,
                       double t0) {
    struct rec_writer_options wo = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    char error[512];
    unlink(path);
    struct rec_writer *w = rec_writer_open(path, &wo, error, sizeof(error));
    if (w == NULL) {
        fprintf(stderr, "bench-replay: %s\n", error);
        return false;
    }
    size_t total = (size_t)(hours * 3600);
    for (size_t i = 0; i < total; i++) {
        const struct taken *t = &taken[i % count];
        double saved = t->snap->timestamp;
        t->snap->timestamp = t0 + (double)i;
        rec_writer_append(w, t->snap, t->related.items, t->related.count, error, sizeof(error));
        t->snap->timestamp = saved;
    }
    rec_writer_close(w);
    return true;
}

/* A directory of days daily files (nvitop-record's names), each 24 hours from t0 on. */
static bool write_days(const char *dir, const struct taken *taken, size_t count, unsigned days,
                       double t0) {
    for (unsigned d = 0; d < days; d++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/nvitop-2023-11-%02u-000.nvtrec", dir, 15 + d);
        if (!write_file(path, taken, count, 24.0, t0 + 86400.0 * d)) {
            return false;
        }
    }
    return true;
}

static double dir_mb(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    double mb = 0.0;
    while (d != NULL && (e = readdir(d)) != NULL) {
        char path[512];
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        mb += e->d_name[0] != '.' && stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0.0;
    }
    if (d != NULL) {
        closedir(d);
    }
    return mb;
}

static void remove_days(const char *dir, unsigned days) {
    for (unsigned d = 0; d < days; d++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/nvitop-2023-11-%02u-000.nvtrec", dir, 15 + d);
        unlink(path);
    }
    rmdir(dir);
}

/* Hand the source's new frame to the monitor and draw the main screen. */
static void take_and_draw(struct tui_app *app, const struct tui_source *source,
                          struct canvas *canvas) {
    bool jumped = false;
    struct nvt_snapshot *snap = source->ops->take(source->impl, &jumped);
    if (snap != NULL) {
        if (jumped) {
            app_source_jumped(app);
        }
        app_set_snapshot(app, snap, snap->timestamp);
    }
    app_draw(app, canvas, clock_monotonic_s(), app_wall_time(app));
}

static void type_keys(const struct tui_source *source, const char *text) {
    for (const char *p = text; *p != '\0'; p++) {
        source->ops->key(source->impl, (unsigned char)*p, clock_monotonic_s());
    }
}

/* The measurements of one file, in this (child) process. */
static bool measure(const char *path, double t0, struct figures *out) {
    memset(out, 0, sizeof(*out));
    struct tui_config config;
    memset(&config, 0, sizeof(config));
    config.view.thresholds = (struct view_thresholds){10, 75, 10, 80};
    config.view.user_name = "bench";
    double a = clock_monotonic_s();
    char error[512];
    struct rec_reader *reader = rec_reader_open(path, error, sizeof(error));
    if (reader == NULL) {
        fprintf(stderr, "bench-replay: %s\n", error);
        return false;
    }
    out->frames = rec_reader_count(reader);
    struct tui_source source;
    replay_source_open(&source, reader, 0, NULL);
    config.source = &source;
    struct tui_app app;
    struct canvas *canvas = canvas_create(ROWS, COLS);
    if (canvas == NULL || !app_init(&app, &config)) {
        return false;
    }
    app.source = &source;
    app.rows = ROWS;
    app.cols = COLS;
    take_and_draw(&app, &source, canvas);
    out->open_ms = (clock_monotonic_s() - a) * 1e3;

    double jumps[JUMPS];
    srand(7);
    for (int k = 0; k < JUMPS; k++) {
        char text[64];
        snprintf(text, sizeof(text), "@@%.0f\n", t0 + (double)(rand() % (int)out->frames));
        double j0 = clock_monotonic_s();
        type_keys(&source, text);
        take_and_draw(&app, &source, canvas);
        jumps[k] = (clock_monotonic_s() - j0) * 1e3;
        out->worst_jump_ms = jumps[k] > out->worst_jump_ms ? jumps[k] : out->worst_jump_ms;
    }
    out->median_jump_ms = bench_median(jumps, JUMPS);

    type_keys(&source, "@@0\n"); /* before the start: stays; then the first frame */
    char first[64];
    snprintf(first, sizeof(first), "@@%.0f\n", t0);
    type_keys(&source, first);
    take_and_draw(&app, &source, canvas);
    double e0 = clock_monotonic_s();
    type_keys(&source, "n");
    take_and_draw(&app, &source, canvas);
    out->event_ms = (clock_monotonic_s() - e0) * 1e3;
    out->event_frame = app.snap != NULL ? (long)(app.snap->timestamp - t0) : -1;
    out->rss_kib = bench_rss_kib();
    app_fini(&app);
    canvas_destroy(canvas);
    source.ops->stop(source.impl, 0.0);
    rec_reader_close(reader);
    return true;
}

/* Measure in a child, so that its memory is the replay's alone. */
static bool measure_in_child(const char *path, double t0, struct figures *out) {
    int fds[2];
    if (pipe(fds) != 0) {
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        struct figures f;
        bool ok = measure(path, t0, &f);
        ssize_t n = ok ? write(fds[1], &f, sizeof(f)) : -1;
        _exit(n == (ssize_t)sizeof(f) ? 0 : 1);
    }
    close(fds[1]);
    ssize_t n = pid > 0 ? read(fds[0], out, sizeof(*out)) : -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0) {
        waitpid(pid, &status, 0);
    }
    return n == (ssize_t)sizeof(*out) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static double file_mb(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        return dir_mb(path);
    }
    return stat(path, &st) == 0 ? (double)st.st_size / 1e6 : 0.0;
}

static void print_ratios(const char *name, const struct figures *f, const struct figures *floor) {
    printf("bench-replay: %s against the 1-hour file: open %.2fx, slowest jump %.2fx, RSS "
           "%.2fx; targets: open 100 ms (24 hours), jump 50 ms, RSS 16 MiB\n",
           name, f->open_ms / floor->open_ms, f->worst_jump_ms / floor->worst_jump_ms,
           (double)f->rss_kib / (double)floor->rss_kib);
}

static void print_figures(const char *name, const char *path, const struct figures *f) {
    printf("bench-replay: %s (%zu frames, %.1f MB): open + first frame drawn %.1f ms, jumps "
           "median %.2f ms slowest %.2f ms, event search %.1f ms (to frame %ld), RSS %.1f MiB\n",
           name, f->frames, file_mb(path), f->open_ms, f->median_jump_ms, f->worst_jump_ms,
           f->event_ms, f->event_frame, (double)f->rss_kib / 1024.0);
}

int main(int argc, char **argv) {
    size_t count = argc > 1 ? strtoul(argv[1], NULL, 10) : 60;
    double hours = argc > 2 ? strtod(argv[2], NULL) : 24.0;
    unsigned days = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 7;
    days = days > 14 ? 14 : days; /* names within one month */
    count = count == 0 ? 1 : count;
    pid_t pids[STANDINS];
    size_t standins = 0;
    nvt_context *ctx =
        bench_open_machine("bench-replay", "h100-8gpu.json", pids, STANDINS, &standins);
    if (ctx == NULL) {
        return 1;
    }
    struct taken *taken = calloc(count, sizeof(*taken));
    for (size_t i = 0; taken != NULL && i < count; i++) {
        nvt_snapshot_take(ctx, FLAGS, &taken[i].snap);
        related_read(ctx, taken[i].snap, &taken[i].related);
        struct timespec pause_ts = {0, 100000000L};
        nanosleep(&pause_ts, NULL);
    }
    char dir[] = "/tmp/bench-replay-XXXXXX";
    if (taken == NULL || mkdtemp(dir) == NULL) {
        return 1;
    }
    char floor_path[256];
    char long_path[256];
    char days_path[256];
    snprintf(floor_path, sizeof(floor_path), "%s/1h.nvtrec", dir);
    snprintf(long_path, sizeof(long_path), "%s/long.nvtrec", dir);
    snprintf(days_path, sizeof(days_path), "%s/days", dir);
    double t0 = 1.7e9;
    struct figures floor_figures;
    struct figures long_figures;
    struct figures days_figures;
    bool ok = write_file(floor_path, taken, count, 1.0, t0) &&
              write_file(long_path, taken, count, hours, t0) &&
              measure_in_child(floor_path, t0, &floor_figures) &&
              measure_in_child(long_path, t0, &long_figures);
    bool days_ok = ok && days > 0 && mkdir(days_path, 0700) == 0 &&
                   write_days(days_path, taken, count, days, t0) &&
                   measure_in_child(days_path, t0, &days_figures);
    ok = ok && (days == 0 || days_ok);
    if (ok) {
        char name[32];
        char days_name[48];
        snprintf(name, sizeof(name), "%.0f-hour file", hours);
        snprintf(days_name, sizeof(days_name), "%u-day directory", days);
        print_figures("1-hour file (floor)", floor_path, &floor_figures);
        print_figures(name, long_path, &long_figures);
        if (days > 0) {
            print_figures(days_name, days_path, &days_figures);
        }
        print_ratios(name, &long_figures, &floor_figures);
        if (days > 0) {
            print_ratios(days_name, &days_figures, &floor_figures);
        }
    } else {
        fprintf(stderr, "bench-replay: a measurement failed\n");
    }
    unlink(floor_path);
    unlink(long_path);
    remove_days(days_path, days);
    rmdir(dir);
    for (size_t i = 0; i < count; i++) {
        related_fini(&taken[i].related);
        nvt_snapshot_free(taken[i].snap);
    }
    free(taken);
    nvt_close(ctx);
    bench_stop_standins(pids, standins);
    return ok ? 0 : 1;
}
