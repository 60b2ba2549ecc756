/*
 * The replay monitor on a recording whose clock was set back an hour while recording (two eras,
 * docs/recording.md "Time"): a typed time of the first era is found from the second, playing goes
 * on from the first era into the second's first frame, and a minute back from the
 * second era stops at its first frame, then at the first era's last, instead of the recording's
 * first frame.  Recorded with the real writer, replayed through the real source.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"
#include "record/file/reader.h"
#include "record/file/writer.h"
#include "tui/replay/replay_source.h"
#include "tui_testutil.h"
#include "util/sys/clock.h"

#define ERA_FRAMES 10
#define T0         1700000000.0
#define STEP_BACK  3600.0

/* Frames 0-9 at T0 + i, then the clock set back an hour: frames 10-19 at T0 - 3600 + i. */
static double frame_time(size_t i) {
    return i < ERA_FRAMES ? T0 + (double)i : T0 - STEP_BACK + (double)(i - ERA_FRAMES);
}

struct fixture {
    char path[256];
    struct rec_reader *reader;
    struct tui_source source;
};

static int setup(void **state) {
    struct fixture *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    snprintf(f->path, sizeof(f->path), "/tmp/nvt-replay-eras-%ld.nvtrec", (long)getpid());
    unlink(f->path);
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
    struct rec_writer_options options = {.interval_s = 1.0};
    char error[512];
    struct rec_writer *w = rec_writer_open(f->path, &options, error, sizeof(error));
    assert_non_null(w);
    for (size_t i = 0; i < 2 * ERA_FRAMES; i++) {
        snap->timestamp = frame_time(i);
        assert_true(rec_writer_append(w, snap, NULL, 0, error, sizeof(error)));
    }
    rec_writer_close(w);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    f->reader = rec_reader_open(f->path, error, sizeof(error));
    assert_non_null(f->reader);
    assert_int_equal(rec_reader_count(f->reader), 2 * ERA_FRAMES);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    f->source.ops->stop(f->source.impl, 0.0);
    rec_reader_close(f->reader);
    unlink(f->path);
    free(f);
    return 0;
}

static void type(struct fixture *f, const char *keys) {
    for (const char *k = keys; *k != '\0'; k++) {
        f->source.ops->key(f->source.impl, (unsigned char)*k, clock_monotonic_s());
    }
}

/* What the event loop does: take the frame to show (when there is one). */
static void take(struct fixture *f) {
    bool jumped = false;
    struct nvt_snapshot *snap = f->source.ops->take(f->source.impl, &jumped);
    f->source.ops->snapshot_free(snap);
}

static void assert_shown(struct fixture *f, size_t frame) {
    take(f);
    double shown = f->source.ops->shown_time(f->source.impl);
    if (shown != frame_time(frame)) {
        fail_msg("shown %.1f, expected frame %zu at %.1f", shown, frame, frame_time(frame));
    }
}

static void test_typed_time_of_the_first_era(void **state) {
    struct fixture *f = *state;
    replay_source_open(&f->source, f->reader, 15, NULL);
    assert_shown(f, 15);
    char keys[64];
    snprintf(keys, sizeof(keys), "@@%.0f\n", T0 + 5);
    type(f, keys);
    assert_shown(f, 5);
    snprintf(keys, sizeof(keys), "@@%.0f\n", T0 - STEP_BACK + 2);
    type(f, keys);
    assert_shown(f, 12);
}

static void test_minutes_stay_in_the_era(void **state) {
    struct fixture *f = *state;
    replay_source_open(&f->source, f->reader, 12, NULL);
    assert_shown(f, 12);
    type(f, "j"); /* a minute before the second era: its first frame */
    assert_shown(f, 10);
    type(f, "j"); /* then the frame before it, the first era's last */
    assert_shown(f, 9);
    type(f, "l"); /* a minute on from the first era's last: the second era's first */
    assert_shown(f, 10);
    type(f, "l");
    assert_shown(f, 19);
}

static void test_playing_goes_on_past_the_step(void **state) {
    struct fixture *f = *state;
    replay_source_open(&f->source, f->reader, 0, NULL);
    assert_shown(f, 0);
    type(f, "xxxxp"); /* x30 */
    /* Bounded: 20 s of real time for about 1 s of play; a positive sign ends it.  At the step
     * playing goes on at the second era's first frame (it jumped to the recording's last frame
     * once the first era's time had run out, 60 s later, skipping the second era). */
    double deadline = clock_monotonic_s() + 20.0;
    bool second_era_start = false;
    while (f->source.ops->shown_time(f->source.impl) != frame_time(2 * ERA_FRAMES - 1) &&
           clock_monotonic_s() < deadline) {
        take(f);
        second_era_start |= f->source.ops->shown_time(f->source.impl) == frame_time(ERA_FRAMES);
        usleep(10000);
    }
    assert_shown(f, 2 * ERA_FRAMES - 1);
    assert_true(second_era_start);
}

int main(void) {
    tt_use_workstation();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_typed_time_of_the_first_era, setup, teardown),
        cmocka_unit_test_setup_teardown(test_minutes_stay_in_the_era, setup, teardown),
        cmocka_unit_test_setup_teardown(test_playing_goes_on_past_the_step, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
