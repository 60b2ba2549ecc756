/*
 * Printing recorded frames (replay.h).
 */
#include "cmd/nvitop/modes/replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/nvitop/modes/run_config.h"
#include "cmd/nvitop/output/json.h"
#include "cmd/nvitop/output/messages.h"
#include "cmd/nvitop/output/report.h"
#include "record/file/reader.h"
#include "record/when.h"
#include "tui/replay/replay_source.h"
#include "tui/tui.h"
#include "util/xalloc.h"

/* A time this far after the last frame still shows the last frame (a recorder samples every
 * second or so; the exact end of its last interval is not recorded). */
#define END_SLACK_S 60.0

/* The physical devices to show: all of the frame's, or the valid ones of --only (the invalid ones
 * get nvitop's message, as live). */
static size_t shown_indices(const struct nvitop_options *o, const struct nvt_snapshot *snap,
                            uint32_t *indices, struct messages *messages) {
    uint32_t physical = 0;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (snap->devices[slot].parent == NVT_NA_SIZE) {
            physical++;
        }
    }
    size_t count = 0;
    for (uint32_t i = 0; i < physical; i++) {
        bool wanted = !o->only_given;
        for (size_t k = 0; o->only_given && k < o->only_count; k++) {
            wanted = wanted || o->only[k] == (long long)i;
        }
        if (wanted) {
            indices[count++] = i;
        }
    }
    long long *invalid = xcalloc(o->only_count + 1, sizeof(*invalid));
    size_t invalid_count = 0;
    for (size_t k = 0; o->only_given && k < o->only_count; k++) {
        if (o->only[k] < 0 || o->only[k] >= (long long)physical) {
            invalid[invalid_count++] = o->only[k];
        }
    }
    messages_invalid_indices(messages, invalid, invalid_count);
    free(invalid);
    return count;
}

static bool print_frame(const struct nvitop_options *o, const struct tui_settings *settings,
                        bool color, const struct frame *frame, bool line) {
    const struct nvt_snapshot *snap = &frame->snap;
    uint32_t *indices = xcalloc(snap->device_count + 1, sizeof(*indices));
    struct messages messages;
    messages_init(&messages, color);
    size_t count = shown_indices(o, snap, indices, &messages);
    struct view_config config;
    run_config_build(o, settings, color, geteuid() == 0, indices, count, &config);
    bool ok;
    if (o->output == NVITOP_OUTPUT_JSON) {
        ok = line ? json_print_line(stdout, snap, &config) : json_print(stdout, snap, &config);
    } else {
        ok = report_print_at(stdout, snap, &config, report_terminal_columns(), snap->timestamp);
    }
    /* As live: the message follows the output and makes the exit status 1. */
    if (messages_print(&messages)) {
        ok = false;
    }
    messages_fini(&messages);
    free(indices);
    return ok;
}

static bool parse_time(const struct rec_reader *r, const char *option, const char *text,
                       double *out) {
    char error[256];
    double first = rec_reader_first_time(r);
    double last = rec_reader_last_time(r);
    if (!when_parse(text, first, last, out, error, sizeof(error))) {
        fprintf(stderr, "nvitop: %s: %s\n", option, error);
        return false;
    }
    return true;
}

static void range_text(const struct rec_reader *r, char *out, size_t size) {
    char a[64];
    char b[64];
    when_format(rec_reader_first_time(r), a, sizeof(a));
    when_format(rec_reader_last_time(r), b, sizeof(b));
    snprintf(out, size, "from %s to %s", a, b);
}

/* The frame for --at (or the last one). */
static bool pick_frame(const struct rec_reader *r, const struct nvitop_options *o, size_t *out) {
    size_t count = rec_reader_count(r);
    if (o->at == NULL) {
        *out = count - 1;
        return true;
    }
    double t = 0;
    if (!parse_time(r, "--at", o->at, &t)) {
        return false;
    }
    size_t matches = 0;
    size_t i = rec_reader_find_at(r, t, &matches);
    if (i == (size_t)-1 && floor(t) == floor(rec_reader_first_time(r))) {
        i = rec_reader_find_at(r, rec_reader_first_time(r),
                               &matches); /* the first frame's second */
    }
    if (i == (size_t)-1 || (matches == 0 && t > rec_reader_last_time(r) + END_SLACK_S)) {
        char when[64];
        char range[160];
        when_format(t, when, sizeof(when));
        range_text(r, range, sizeof(range));
        fprintf(stderr, "nvitop: --at %s (%s) is outside the recording (%s)\n", o->at, when, range);
        return false;
    }
    double other = 0;
    if (o->at[0] != '@' && strchr(o->at, 'Z') == NULL && when_twice(t, &other)) {
        char when[64];
        when_format(t, when, sizeof(when));
        fprintf(stderr,
                "nvitop: note: %s occurs twice (the clocks went back); showing the %s one "
                "(@%.0f); the %s one is --at @%.0f\n",
                when, other > t ? "first" : "second", t, other > t ? "second" : "first", other);
    }
    if (matches > 1) {
        char when[64];
        when_format(t, when, sizeof(when));
        fprintf(stderr,
                "nvitop: note: %s was recorded %zu times (the clock was set back); showing the "
                "latest, frame %zu of %zu\n",
                when, matches, i + 1, count);
    }
    if (t - rec_reader_time(r, i) > END_SLACK_S) {
        char a[64];
        char b[64];
        when_format(rec_reader_time(r, i), a, sizeof(a));
        when_format(t, b, sizeof(b));
        fprintf(stderr, "nvitop: note: nothing was recorded between %s and %s; showing %s\n", a, b,
                a);
    }
    *out = i;
    return true;
}

/* --to: with --from, a time of day is the first such moment after --from (--from 22:00 --to 02:00
 * runs over midnight, --from 00:00 --to 23:59 is the day of --from even when it is not over). */
static bool parse_to(const struct rec_reader *r, const struct nvitop_options *o, double from,
                     double *out) {
    if (o->from == NULL) {
        return parse_time(r, "--to", o->to, out);
    }
    char error[256];
    if (!when_parse_after(o->to, from, rec_reader_first_time(r), rec_reader_last_time(r), out,
                          error, sizeof(error))) {
        fprintf(stderr, "nvitop: --to: %s\n", error);
        return false;
    }
    return true;
}

/* A frame printed after one with a later time: the clock was set back while recording (an era,
 * reader.h).  One note for each such step among the frames printed. */
static void say_step(const struct rec_reader *r, size_t i, double before, double t) {
    char a[64];
    char b[64];
    when_format(before, a, sizeof(a));
    when_format(t, b, sizeof(b));
    fprintf(stderr,
            "nvitop: note: the clock was set back while recording, from %s to %s at frame %zu of "
            "%zu; frames are printed in the order they were recorded\n",
            a, b, i + 1, rec_reader_count(r));
}

static int print_range(struct rec_reader *r, const struct nvitop_options *o,
                       const struct tui_settings *settings, bool color) {
    size_t count = rec_reader_count(r);
    /* By default the whole recording: its earliest and latest times, which are not the first and
     * the last frame's when the clock was set back while recording. */
    double from = rec_reader_first_time(r);
    double to = rec_reader_last_time(r);
    if ((o->from != NULL && !parse_time(r, "--from", o->from, &from)) ||
        (o->to != NULL && !parse_to(r, o, from, &to))) {
        return 1;
    }
    size_t printed = 0;
    double last_printed = 0;
    for (size_t i = 0; i < count; i++) {
        double t = rec_reader_time(r, i);
        if (t < from || t > to) {
            continue;
        }
        if (printed > 0 && t < last_printed - REC_ERA_STEP_S) {
            say_step(r, i, last_printed, t);
        }
        struct frame *frame = NULL;
        char error[512];
        if (!rec_reader_frame(r, i, &frame, error, sizeof(error))) {
            /* The frames up to the next keyframe depend on this one: one warning for them all,
             * and the range goes on after them. */
            size_t next = rec_reader_next_key(r, i);
            size_t lost = 0;
            for (size_t j = i; j < next; j++) {
                double tj = rec_reader_time(r, j);
                lost += tj >= from && tj <= to;
            }
            fprintf(stderr, "nvitop: warning: %s: %zu frame%s lost\n", error, lost,
                    lost == 1 ? "" : "s");
            i = next - 1;
            continue;
        }
        bool ok = print_frame(o, settings, color, frame, true);
        frame_free(frame);
        if (!ok) {
            return 1;
        }
        printed++;
        last_printed = t;
    }
    if (printed == 0) {
        char range[160];
        range_text(r, range, sizeof(range));
        fprintf(stderr,
                "nvitop: no recorded frame between --from and --to (the recording runs %s)\n",
                range);
        return 1;
    }
    return 0;
}

/* What the open found (damage, skipped files), one warning a line. */
static void print_notes(const struct rec_reader *r) {
    const char *notes = rec_reader_warning(r);
    while (*notes != '\0') {
        const char *end = strchr(notes, '\n');
        int len = end != NULL ? (int)(end - notes) : (int)strlen(notes);
        fprintf(stderr, "nvitop: warning: %.*s\n", len, notes);
        notes += len + (end != NULL);
    }
}

/* The reader of the recording, with its warning said; NULL after a message. */
static struct rec_reader *open_recording(const char *path) {
    char error[512];
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    if (r == NULL) {
        fprintf(stderr, "nvitop: cannot replay: %s\n", error);
        return NULL;
    }
    print_notes(r);
    return r;
}

int replay_monitor(const struct nvitop_options *o, const struct tui_settings *settings,
                   const char *settings_path, bool color) {
    struct rec_reader *r = open_recording(o->replay);
    if (r == NULL) {
        return 1;
    }
    size_t start = 0; /* without --at, from the start, as atop -r */
    struct frame *frame = NULL;
    char error[512];
    if (o->at != NULL && !pick_frame(r, o, &start)) {
        rec_reader_close(r);
        return 1;
    }
    if (!rec_reader_frame(r, start, &frame, error, sizeof(error))) {
        fprintf(stderr, "nvitop: cannot replay: %s\n", error);
        rec_reader_close(r);
        return 1;
    }
    /* The devices to show, from the first frame shown (--only as live).  The report after the
     * monitor says which --only indices are invalid, once. */
    uint32_t *indices = xcalloc(frame->snap.device_count + 1, sizeof(*indices));
    struct messages messages;
    messages_init(&messages, color);
    size_t count = shown_indices(o, &frame->snap, indices, &messages);
    messages_fini(&messages);
    messages_init(&messages, color);
    frame_free(frame);
    struct view_config config;
    run_config_build(o, settings, color, geteuid() == 0, indices, count, &config);
    struct tui_source source;
    size_t shown = start;
    replay_source_open(&source, r, start, &shown);
    struct tui_config tui = {.view = config,
                             .readonly = o->readonly,
                             .settings = *settings,
                             .settings_path = settings_path,
                             .source = &source};
    char reason[256] = "";
    bool failed = tui_run(&tui, reason, sizeof(reason)) == TUI_FAILED;
    if (failed) {
        messages_addf(&messages, "ERROR: Failed to initialize `curses` (%s)", reason);
    }
    /* As after a live monitor (or instead of one that could not start): the report of the moment
     * shown last, as `nvitop -1 --replay FILE --at` that time prints it. */
    int code = 1;
    if (!rec_reader_frame(r, shown, &frame, error, sizeof(error))) {
        fprintf(stderr, "nvitop: cannot replay: %s\n", error);
    } else {
        code = print_frame(o, settings, color, frame, false) && !failed ? 0 : 1;
        frame_free(frame);
    }
    rec_reader_close(r);
    if (messages_print(&messages)) {
        code = 1;
    }
    messages_fini(&messages);
    free(indices);
    return code;
}

int replay_print(const struct nvitop_options *o, const struct tui_settings *settings, bool color) {
    char error[512];
    struct rec_reader *r = rec_reader_open(o->replay, error, sizeof(error));
    if (r == NULL) {
        fprintf(stderr, "nvitop: cannot replay: %s\n", error);
        return 1;
    }
    print_notes(r);
    int code = 1;
    size_t i = 0;
    if (o->from != NULL || o->to != NULL) {
        code = print_range(r, o, settings, color);
    } else if (pick_frame(r, o, &i)) {
        struct frame *frame = NULL;
        if (!rec_reader_frame(r, i, &frame, error, sizeof(error))) {
            fprintf(stderr, "nvitop: cannot replay: %s\n", error);
        } else {
            code = print_frame(o, settings, color, frame, false) ? 0 : 1;
            frame_free(frame);
        }
    }
    rec_reader_close(r);
    return code;
}
