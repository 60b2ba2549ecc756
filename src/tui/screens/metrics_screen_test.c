/*
 * Unit tests of the process metrics screen on the in-memory canvas: the layout formulas of
 * docs/nvitop-behaviour.md §3.10, the frame, header and value rows of its 79×24 example, the
 * y-ticks, the columns that do not fit, the decoder in %DEC, the graph switch and the frozen graphs
 * of an exited process.
 */
#include "tui/screens/metrics_screen.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

static void assert_row(const struct canvas *canvas, int row, const char *expected) {
    char buf[1024];
    canvas_row_text(canvas, row, buf, sizeof(buf));
    assert_string_equal(buf, expected);
}

static bool row_contains(const struct canvas *canvas, int row, const char *text) {
    char buf[1024];
    canvas_row_text(canvas, row, buf, sizeof(buf));
    return strstr(buf, text) != NULL;
}

static void test_layout(void **state) {
    (void)state;
    struct metrics_layout l;
    metrics_layout_of(24, 79, &l);
    assert_int_equal(l.left, 38);
    assert_int_equal(l.right, 38);
    assert_int_equal(l.upper, 8);
    assert_int_equal(l.lower, 8);
    metrics_layout_of(41, 100, &l);
    assert_int_equal(l.left, 48);
    assert_int_equal(l.right, 49);
    assert_int_equal(l.upper, 16);
    assert_int_equal(l.lower, 17);
    metrics_layout_of(10, 30, &l); /* the minimums */
    assert_int_equal(l.left, 20);
    assert_int_equal(l.right, 20);
    assert_int_equal(l.upper, 5);
    assert_int_equal(l.lower, 5);
}

/* The screen of docs/nvitop-behaviour.md §3.10's example: pid 15418 on GPU 0 with 19800 MiB of 24
 * GiB, 85 % SM. */
static void open_example(struct metrics_screen *screen, const char *user) {
    memset(screen, 0, sizeof(*screen));
    struct watch_target target = {
        .device_index = 0, .mig_index = NVT_NA_U32, .pid = 15418, .create_time = NAN};
    struct metrics_process p;
    memset(&p, 0, sizeof(p));
    p.pid = 15418;
    p.type = NVT_PROCESS_COMPUTE;
    strcpy(p.display_index, "0");
    strcpy(p.user, user);
    p.gpu_memory_bytes = 19800 * MiB;
    p.sm_pct = 85;
    p.bandwidth_pct = 40;
    p.encoder_pct = 0;
    p.decoder_pct = 0;
    p.cpu_percent = 0.0;
    p.memory_percent = 0.0;
    p.running_time_s = 55.0;
    assert_true(
        metrics_screen_open(screen, &target, &p, "python train.py", 23 * 1024 * MiB, 24576 * MiB));
}

static void sample_of(struct watch_sample *s, unsigned generation, uint32_t enc, uint32_t dec) {
    memset(s, 0, sizeof(*s));
    s->generation = generation;
    s->device.memory_total_bytes = 24576 * MiB;
    s->device.memory_used_bytes = 19800 * MiB;
    s->device.gpu_util_pct = 85;
    s->on_device = true;
    s->gpu.pid = 15418;
    s->gpu.type = NVT_PROCESS_COMPUTE;
    s->gpu.gpu_memory_bytes = 19800 * MiB;
    s->gpu.sm_util_pct = 85;
    s->gpu.memory_util_pct = 40;
    s->gpu.encoder_util_pct = enc;
    s->gpu.decoder_util_pct = dec;
    s->host = NULL; /* unreadable: the host columns show N/A */
}

static void draw(const struct metrics_screen *screen, struct canvas *canvas) {
    const struct view_config view = {.user_name = "root"};
    const struct metrics_draw_context ctx = {.view = &view, .host_name = "vm"};
    canvas_clear(canvas);
    metrics_screen_draw(screen, &ctx, canvas);
}

static void test_example_frame(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct canvas *canvas = canvas_create(24, 79);
    draw(&screen, canvas);
    assert_row(canvas, 0,
               "╒═════════════════════════════════════════════════════════════════════════════╕");
    assert_row(canvas, 1,
               "│ Process:                                                            root@vm │");
    assert_row(canvas, 2,
               "│ GPU   PID   USER  GPU-MEM  %SM %GMBW %ENC %DEC   %CPU  %MEM  TIME  COMMAND  │");
    assert_row(canvas, 3,
               "╞═════════════════════════════════════════════════════════════════════════════╡");
    assert_row(canvas, 4,
               "│   0 15418 C root 19800MiB   85    40    0    0   0.0%  0.0%  0:55  python.. │");
    assert_row(canvas, 5,
               "╞══════════════════════════════════════╤══════════════════════════════════════╡");
    assert_row(canvas, 14,
               "├────╴60s├──────────╴30s├──────────────┼────╴60s├──────────╴30s├──────────────┤");
    assert_row(canvas, 23,
               "╘══════════════════════════════════════╧══════════════════════════════════════╛");
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_example_graphs(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct watch_sample s;
    for (int i = 0; i < 4; i++) { /* two seconds: one completed bucket */
        sample_of(&s, screen.generation, 0, 0);
        metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 0.5 * i,
                              1000.0, 79);
    }
    struct canvas *canvas = canvas_create(24, 79);
    draw(&screen, canvas);
    assert_true(row_contains(canvas, 6, " MAX GPU-MEM: 19800MiB (80.6%) / 24.. │"));
    assert_true(row_contains(canvas, 7, "│     GPU-MEM: 19800MiB (80.6%) "));
    /* The GPU-MEM graph's tick at 80 % (its bound is the total), the CPU graph's at 8 % (its
     * bound dropped to the 10 % minimum): both on the third graph row, as in the example. */
    assert_true(row_contains(canvas, 8, "├╴80% "));
    assert_true(row_contains(canvas, 8, "├╴8% "));
    assert_true(row_contains(canvas, 21, "│     GPU-SM: 85.0% "));
    assert_true(row_contains(canvas, 22, "│ MAX GPU-SM: 85.0% "));
    assert_true(row_contains(canvas, 7, "⢠│")); /* the newest value at the right edge */
    assert_true(row_contains(canvas, 4, "   N/A   N/A   N/A  python")); /* no host data */
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_decoder_and_switch(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct watch_sample s;
    for (int i = 0; i < 4; i++) {
        sample_of(&s, screen.generation, 7, 33);
        metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 0.5 * i,
                              1000.0, 79);
    }
    struct canvas *canvas = canvas_create(24, 79);
    draw(&screen, canvas);
    assert_true(row_contains(canvas, 4, "   85    40    7   33 ")); /* %ENC 7, %DEC 33 */
    static const char *const labels[] = {"GPU-MBW: 40.0%", "GPU-ENC: 7.0%", "GPU-DEC: 33.0%",
                                         "GPU-SM: 85.0%"};
    for (int i = 0; i < 4; i++) {
        assert_true(metrics_screen_key(&screen, 'g'));
        draw(&screen, canvas);
        assert_true(row_contains(canvas, 21, labels[i]));
    }
    assert_true(metrics_screen_key(&screen, 'G'));
    draw(&screen, canvas);
    assert_true(row_contains(canvas, 22, "MAX GPU-DEC: 33.0%"));
    assert_false(metrics_screen_key(&screen, 'x'));
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_columns_that_do_not_fit(void **state) {
    (void)state;
    struct metrics_screen screen;
    /* A 32-cell user name pushes TIME and COMMAND off a 79-cell screen: both are dropped. */
    open_example(&screen, "a-very-long-user-name-of-32-char");
    struct canvas *canvas = canvas_create(24, 79);
    draw(&screen, canvas);
    assert_false(row_contains(canvas, 2, "COMMAND"));
    assert_false(row_contains(canvas, 2, "TIME"));
    assert_true(row_contains(canvas, 2, "%DEC"));
    assert_false(row_contains(canvas, 4, "python"));
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_exited_keeps_graphs(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct watch_sample s;
    for (int i = 0; i < 4; i++) {
        sample_of(&s, screen.generation, 0, 0);
        metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 0.5 * i,
                              1000.0, 79);
    }
    sample_of(&s, screen.generation, 0, 0);
    s.exited = true;
    metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 2.0, 1000.0, 79);
    assert_true(screen.exited);
    /* Later readings (there should be none) change nothing. */
    sample_of(&s, screen.generation, 0, 0);
    s.gpu.sm_util_pct = 5;
    metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 3.5, 1000.0, 79);
    struct canvas *canvas = canvas_create(24, 79);
    draw(&screen, canvas);
    assert_true(row_contains(canvas, 1, " exited at "));
    assert_true(row_contains(canvas, 21, "GPU-SM: 85.0%"));
    assert_true(row_contains(canvas, 8, "⢸│"));
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_other_generation_ignored(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct watch_sample s;
    sample_of(&s, screen.generation + 1, 0, 0);
    s.exited = true;
    metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 0.0, 1000.0, 79);
    assert_false(screen.exited);
    metrics_screen_close(&screen);
}

static void test_ascii(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    struct watch_sample s;
    for (int i = 0; i < 4; i++) {
        sample_of(&s, screen.generation, 0, 0);
        metrics_screen_record(&screen, &s, &(struct view_thresholds){10, 75, 10, 80}, 0.5 * i,
                              1000.0, 79);
    }
    struct canvas *canvas = canvas_create(24, 79);
    canvas_set_ascii(canvas, true);
    draw(&screen, canvas);
    assert_row(canvas, 5,
               "|======================================+======================================|");
    assert_row(canvas, 14,
               "|-----60s|-----------30s|--------------+-----60s|-----------30s|--------------|");
    assert_true(row_contains(canvas, 8, "=|")); /* the graphs' symbols */
    canvas_destroy(canvas);
    metrics_screen_close(&screen);
}

static void test_redraw_only_on_change(void **state) {
    (void)state;
    struct metrics_screen screen;
    open_example(&screen, "root");
    const struct view_thresholds th = {10, 75, 10, 80};
    struct watch_sample s;
    sample_of(&s, screen.generation, 0, 0);
    assert_true(metrics_screen_record(&screen, &s, &th, 0.0, 1000.0, 79));  /* running means */
    assert_true(metrics_screen_record(&screen, &s, &th, 1.0, 1000.0, 79));  /* a bucket */
    assert_false(metrics_screen_record(&screen, &s, &th, 1.5, 1000.0, 79)); /* the same */
    s.gpu.sm_util_pct = 86;
    assert_true(metrics_screen_record(&screen, &s, &th, 1.7, 1000.0, 79)); /* %SM changed */
    assert_true(metrics_screen_record(&screen, &s, &th, 2.0, 1000.0, 79)); /* a bucket */
    s.exited = true;
    assert_true(metrics_screen_record(&screen, &s, &th, 2.5, 1000.0, 79));
    assert_false(metrics_screen_record(&screen, &s, &th, 3.0, 1000.0, 79)); /* frozen */
    metrics_screen_close(&screen);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_example_frame),
        cmocka_unit_test(test_example_graphs),
        cmocka_unit_test(test_decoder_and_switch),
        cmocka_unit_test(test_columns_that_do_not_fit),
        cmocka_unit_test(test_exited_keeps_graphs),
        cmocka_unit_test(test_other_generation_ignored),
        cmocka_unit_test(test_ascii),
        cmocka_unit_test(test_redraw_only_on_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
