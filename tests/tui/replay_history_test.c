/*
 * The replay monitor's host-panel graphs after a jump (app_source_jumped, the recorded source's
 * each_before): they start again with the frames recorded before the moment jumped to, not
 * empty, and not continuing the readings of another moment.  A recording of the simulated
 * workstation whose host CPU reads 10, 20, ... 90 % one second apart is written with the real
 * writer and replayed through the real source.
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
#include "tui/app.h"
#include "tui/replay/replay_source.h"
#include "tui_testutil.h"

#define FRAMES 9
#define T0     1700000000.0

static void write_recording(const char *path) {
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
    assert_true(snap->flags & NVT_SAMPLE_HOST);
    struct rec_writer_options options = {.interval_s = 1.0};
    char error[512];
    struct rec_writer *w = rec_writer_open(path, &options, error, sizeof(error));
    assert_non_null(w);
    for (int i = 0; i < FRAMES; i++) {
        snap->timestamp = T0 + i;
        snap->host.cpu_percent = 10.0 * (i + 1);
        assert_true(rec_writer_append(w, snap, NULL, 0, error, sizeof(error)));
    }
    rec_writer_close(w);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

struct fixture {
    char path[256];
    struct rec_reader *reader;
    struct tui_source source;
    struct tui_config config;
    struct tui_app app;
};

static void open_replay(struct fixture *f, size_t start) {
    char error[512];
    f->reader = rec_reader_open(f->path, error, sizeof(error));
    assert_non_null(f->reader);
    assert_int_equal(rec_reader_count(f->reader), FRAMES);
    replay_source_open(&f->source, f->reader, start, NULL);
    f->config.view.thresholds = (struct view_thresholds){10, 75, 10, 80};
    f->config.view.user_name = "nobody-here";
    f->config.source = &f->source;
    assert_true(app_init(&f->app, &f->config));
    f->app.source = &f->source;
    f->app.rows = 40;
    f->app.cols = 120;
}

/* What the event loop does with the source's next frame (tui.c). */
static void take(struct fixture *f) {
    bool jumped = false;
    struct nvt_snapshot *snap = f->source.ops->take(f->source.impl, &jumped);
    assert_non_null(snap);
    if (jumped) {
        app_source_jumped(&f->app);
    }
    app_set_snapshot(&f->app, snap, snap->timestamp);
}

static void type(struct fixture *f, const char *keys) {
    for (const char *k = keys; *k != '\0'; k++) {
        f->source.ops->key(f->source.impl, *k == '\n' ? '\n' : (unsigned char)*k, 0.0);
    }
}

static void close_replay(struct fixture *f) {
    app_fini(&f->app);
    f->source.ops->stop(f->source.impl, 0.0);
    rec_reader_close(f->reader);
}

static int setup(void **state) {
    struct fixture *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    snprintf(f->path, sizeof(f->path), "/tmp/nvt-replay-history-%ld.nvtrec", (long)getpid());
    unlink(f->path);
    write_recording(f->path);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    unlink(f->path);
    free(f);
    return 0;
}

/* The CPU history's completed one-second buckets, newest first, as percentages. */
static void assert_cpu_history(const struct tui_app *app, const double *newest_first, size_t n) {
    assert_true(history_count(&app->histories.cpu) >= n);
    for (size_t i = 0; i < n; i++) {
        double got = history_at(&app->histories.cpu, i);
        if (!(fabs(got - newest_first[i]) < 1e-6)) {
            fail_msg("bucket %zu: %.1f %%, expected %.1f %%", i, got, newest_first[i]);
        }
    }
}

static void test_jump_keeps_the_lead_up(void **state) {
    struct fixture *f = *state;
    open_replay(f, 0);
    take(f); /* frame 1 of 9: nothing before it */
    assert_int_equal(history_count(&f->app.histories.cpu), 0);
    type(f, "))"); /* frames 2 and 3 follow on */
    take(f);
    /* Jump to the eighth frame: its graph starts with frames 1 to 7 (the eighth is the open
     * bucket), not with frames 1 to 3 followed by 8. */
    char keys[64];
    snprintf(keys, sizeof(keys), "@@%.0f\n", T0 + 7);
    type(f, keys);
    take(f);
    assert_int_equal((int)f->app.snap->timestamp, (int)(T0 + 7));
    const double expected[] = {70, 60, 50, 40, 30, 20, 10};
    assert_cpu_history(&f->app, expected, 7);
    assert_int_equal(history_count(&f->app.histories.cpu), 7);
    close_replay(f);
}

static void test_start_in_the_middle(void **state) {
    struct fixture *f = *state;
    open_replay(f, 5); /* --at the sixth frame */
    take(f);
    const double expected[] = {50, 40, 30, 20, 10};
    assert_cpu_history(&f->app, expected, 5);
    close_replay(f);
}

int main(void) {
    tt_use_workstation();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_jump_keeps_the_lead_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_in_the_middle, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
