/*
 * nvitop-record: the headless recorder.  Takes a snapshot every --interval seconds with the
 * ancestors of its GPU processes and appends it to daily files in a directory (rotation and
 * retention, src/record/record_dir.h) or to one file.  SIGINT, SIGTERM and SIGHUP stop it after
 * the current frame; SIGKILL leaves at most one torn record, which the next start cuts before
 * appending a new segment.  See nvitop-record(1) and docs/recording.md.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvitop/nvitop.h>

#include "cmd/nvitop-record/test_clock.h"
#include "record/file/writer.h"
#include "record/record_dir.h"
#include "record/related.h"
#include "record/sample_flags.h"
#include "util/sys/clock.h"
#include "util/sys/nofile.h"
#include "util/text/parse.h"

#define PROG "nvitop-record"

struct record_options {
    const char *dir;
    const char *file;
    double interval_s;
    unsigned retain_days;
    unsigned long long retain_bytes;
    unsigned keyframe_every;
    unsigned long long count; /* 0: until a signal */
    bool group_read;          /* files 0640 and directories 0750 instead of 0600 and 0700 */
};

static void usage(FILE *out) {
    fprintf(out,
            "usage: " PROG " (-o DIR | -f FILE) [--interval SEC] [--retain-days N]\n"
            "                     [--retain-bytes SIZE] [--keyframe-every N] [--count N]\n"
            "                     [--group-read]\n"
            "\n"
            "Record GPU, process and host snapshots for `nvitop --replay`.\n"
            "\n"
            "options:\n"
            "  -h, --help            show this help message and exit\n"
            "  -V, --version         show program's version number and exit\n"
            "  -o DIR, --output DIR  write daily files nvitop-YYYY-MM-DD-NNN.nvtrec (UTC dates)\n"
            "                        into DIR, created when missing\n"
            "  -f FILE, --file FILE  append to one recording file instead\n"
            "  -i SEC, --interval SEC\n"
            "                        seconds between snapshots (default 1, at least 0.25)\n"
            "  --retain-days N       keep files of the last N days (default 7; 0: no limit)\n"
            "  --retain-bytes SIZE   keep the directory under SIZE bytes (e.g. 500M, 2GiB;\n"
            "                        default no limit)\n"
            "  --keyframe-every N    frames between keyframes (default 300)\n"
            "  -n N, --count N       stop after N snapshots (default: until SIGINT/SIGTERM)\n"
            "  --group-read          let the file's group read the recordings (files 0640,\n"
            "                        new directories 0750; default 0600 and 0700: they hold\n"
            "                        user names and command lines)\n");
}

/* 0 to run, 1 for an error, 2 for --help/--version (exit 0). */
static int parse(int argc, char **argv, struct record_options *o) {
    static const struct option longs[] = {{"help", no_argument, NULL, 'h'},
                                          {"version", no_argument, NULL, 'V'},
                                          {"output", required_argument, NULL, 'o'},
                                          {"file", required_argument, NULL, 'f'},
                                          {"interval", required_argument, NULL, 'i'},
                                          {"retain-days", required_argument, NULL, 'd'},
                                          {"retain-bytes", required_argument, NULL, 'b'},
                                          {"keyframe-every", required_argument, NULL, 'k'},
                                          {"count", required_argument, NULL, 'n'},
                                          {"group-read", no_argument, NULL, 'g'},
                                          {NULL, 0, NULL, 0}};
    *o = (struct record_options){NULL, NULL, 1.0, 7, 0, REC_KEYFRAME_EVERY_DEFAULT, 0, false};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hVo:f:i:n:", longs, NULL)) != -1) {
        uint64_t u = 0;
        switch (c) {
        case 'h':
            usage(stdout);
            return 2;
        case 'V':
            printf(PROG " %s\n", NVT_VERSION_STRING);
            return 2;
        case 'o':
            o->dir = optarg;
            break;
        case 'g':
            o->group_read = true;
            break;
        case 'f':
            o->file = optarg;
            break;
        case 'i':
            if (parse_double(optarg, &o->interval_s) != 0 || !(o->interval_s >= 0.25) ||
                o->interval_s > 86400) {
                fprintf(stderr,
                        PROG ": --interval: expected seconds from 0.25 to 86400, got '%s'\n",
                        optarg);
                return 1;
            }
            break;
        case 'd':
        case 'k':
        case 'n':
            if (parse_u64(optarg, 10, &u) != 0 || u > UINT32_MAX || (c == 'k' && u == 0)) {
                fprintf(stderr, PROG ": %s: expected a%s number, got '%s'\n",
                        c == 'd'   ? "--retain-days"
                        : c == 'k' ? "--keyframe-every"
                                   : "--count",
                        c == 'k' ? " positive" : "", optarg);
                return 1;
            }
            if (c == 'd') {
                o->retain_days = (unsigned)u;
            } else if (c == 'k') {
                o->keyframe_every = (unsigned)u;
            } else {
                o->count = u;
            }
            break;
        case 'b':
            if (nvt_parse_bytes(optarg, &u) != NVT_OK || u == 0) {
                fprintf(stderr, PROG ": --retain-bytes: expected a size such as 500M, got '%s'\n",
                        optarg);
                return 1;
            }
            o->retain_bytes = u;
            break;
        case ':':
            fprintf(stderr, PROG ": %s needs a value\n", argv[optind - 1]);
            return 1;
        default:
            fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", argv[optind - 1]);
            return 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, PROG ": unexpected argument '%s' (see --help)\n", argv[optind]);
        return 1;
    }
    if ((o->dir == NULL) == (o->file == NULL)) {
        fprintf(stderr, PROG ": give one of --output DIR and --file FILE (see --help)\n");
        return 1;
    }
    return 0;
}

struct sink {
    struct rec_dir *dir;
    struct rec_writer *file; /* NULL while -f's file could not be opened for a full disk */
    const char *path;        /* -f's */
    const struct rec_writer_options *options;
    bool full; /* the disk was full at the last frame (said once) */
};

static bool sink_append(struct sink *s, const struct nvt_snapshot *snap, const struct related *r,
                        char *error, size_t size) {
    if (s->dir != NULL) {
        return rec_dir_append(s->dir, snap, r->items, r->count, error, size);
    }
    if (s->file == NULL && (s->file = rec_writer_open(s->path, s->options, error, size)) == NULL) {
        return false;
    }
    return rec_writer_append(s->file, snap, r->items, r->count, error, size);
}

/* After a frame: a full disk (ENOSPC, EDQUOT) is said once and the recorder goes on, trying again
 * each interval; recording again is said once too.  False for any other error. */
static bool sink_after(struct sink *s, bool ok, int err, const char *error, double interval_s) {
    if (ok) {
        if (s->full) {
            fprintf(stderr, PROG ": recording again (a new segment starts here)\n");
            s->full = false;
        }
        return true;
    }
    if (!rec_disk_full(err)) {
        fprintf(stderr, PROG ": %s\n", error);
        return false;
    }
    if (!s->full) {
        fprintf(stderr, PROG ": %s: not recording until there is room (trying again every %g s)\n",
                error, interval_s);
        s->full = true;
    }
    return true;
}

/* Wait until the monotonic deadline or a stop signal; true when a signal asked to stop. */
static bool wait_until(const sigset_t *set, double deadline) {
    for (int rounds = 0; rounds < 1000; rounds++) {
        double left = deadline - clock_monotonic_s();
        if (left <= 0) {
            return false;
        }
        struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
        int sig = sigtimedwait(set, NULL, &ts);
        if (sig > 0) {
            return true;
        }
        if (sig < 0 && errno == EAGAIN) {
            return false;
        }
    }
    return false;
}

/* The writer's notes (what it found in an existing file), one line on standard error. */
static void say_note(void *arg, const char *text) {
    (void)arg;
    fprintf(stderr, PROG ": note: %s\n", text);
}

static int record(const struct record_options *o, const sigset_t *set) {
    struct test_clock test_clock = {NULL, 0};
    const char *test_times = secure_getenv("NVITOP_RECORD_TEST_TIMES");
    char error[512] = "";
    if (test_times != NULL && !test_clock_parse(test_times, &test_clock, error, sizeof(error))) {
        fprintf(stderr, PROG ": %s\n", error);
        return 1;
    }
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, PROG ": cannot open the NVIDIA driver: %s\n", nvt_strerror(status));
        test_clock_fini(&test_clock);
        return 1;
    }
    struct rec_writer_options wo = {.interval_s = o->interval_s,
                                    .keyframe_every = o->keyframe_every,
                                    .mode = o->group_read ? 0640 : 0600,
                                    .note = say_note};
    struct rec_dir_limits limits = {o->retain_days, o->retain_bytes};
    struct sink sink = {NULL, NULL, o->file, &wo, false};
    if (o->dir != NULL) {
        sink.dir = rec_dir_open(o->dir, &wo, &limits, error, sizeof(error));
    } else {
        sink.file = rec_writer_open(o->file, &wo, error, sizeof(error));
        if (sink.file == NULL && rec_disk_full(errno)) {
            sink_after(&sink, false, errno, error, o->interval_s); /* says it, sets full */
        }
    }
    if (sink.dir == NULL && sink.file == NULL && !sink.full) {
        fprintf(stderr, PROG ": %s\n", error);
        nvt_close(ctx);
        test_clock_fini(&test_clock);
        return 1;
    }
    int code = 0;
    double next = clock_monotonic_s();
    struct related_cache ancestors = RELATED_CACHE_INIT;
    for (unsigned long long n = 0; o->count == 0 || n < o->count; n++) {
        struct nvt_snapshot *snap = NULL;
        if (nvt_snapshot_take(ctx, REC_SAMPLE_FLAGS, &snap) != NVT_OK) {
            fprintf(stderr, PROG ": cannot take a snapshot: out of memory\n");
            code = 1;
            break;
        }
        if (test_clock.run_count > 0) {
            snap->timestamp = test_clock_time(&test_clock, n);
        }
        struct related related;
        related_read_cached(ctx, &ancestors, snap, clock_monotonic_s(), RELATED_MAX_AGE_S,
                            &related);
        bool ok = sink_append(&sink, snap, &related, error, sizeof(error));
        int err = errno;
        related_fini(&related);
        nvt_snapshot_free(snap);
        if (!sink_after(&sink, ok, err, error, o->interval_s)) {
            code = 1;
            break;
        }
        next += o->interval_s;
        if (clock_monotonic_s() > next + o->interval_s) {
            next = clock_monotonic_s(); /* fell behind (a stalled driver): do not catch up */
        }
        if ((o->count == 0 || n + 1 < o->count) && test_clock.run_count == 0 &&
            wait_until(set, next)) {
            break;
        }
    }
    related_cache_fini(&ancestors);
    test_clock_fini(&test_clock);
    rec_dir_close(sink.dir);
    rec_writer_close(sink.file);
    nvt_close(ctx);
    return code;
}

int main(int argc, char **argv) {
    struct record_options o;
    int code = parse(argc, argv, &o);
    if (code != 0) {
        return code == 2 ? 0 : 2;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    /* A descriptor kept open per GPU process (docs/performance.md, "A thousand GPU processes"). */
    nofile_raise_soft_limit();
    return record(&o, &set);
}
