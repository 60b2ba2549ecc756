/*
 * The main screen on the in-memory canvas, fed by real snapshots of the simulated 2-GPU
 * workstation: layout choice by terminal height (docs/nvitop-behaviour.md §3.3.4), keys (selection,
 * tags, sorting, scrolling, modes, help, read-only), mouse, and the sampler's identity check before
 * signals.
 */
#include "tui/screens/screen.h"

#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"
#include "tui/app.h"
#include "tui/live/sampler.h"
#include "tui_test_source.h"
#include "tui_testutil.h"
#include "util/array.h"

struct fixture {
    struct tui_config config;
    struct tt_source source;
    struct tui_app app;
    struct canvas *canvas;
};

static struct nvt_snapshot *take_snapshot(void) {
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
    nvt_close(ctx);
    return snap;
}

static int setup(void **state) {
    struct fixture *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->config.view.thresholds = (struct view_thresholds){10, 75, 10, 80};
    f->config.view.user_name = "nobody-here";
    assert_true(app_init(&f->app, &f->config));
    tt_source_init(&f->source);
    f->app.source = &f->source.source;
    f->app.rows = 24;
    f->app.cols = 80;
    f->canvas = canvas_create(24, 80);
    app_set_snapshot(&f->app, take_snapshot(), 1.0);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    app_fini(&f->app);
    tt_source_fini(&f->source);
    canvas_destroy(f->canvas);
    free(f);
    return 0;
}

static void draw(struct fixture *f, int rows, int cols) {
    f->app.rows = rows;
    f->app.cols = cols;
    assert_true(canvas_resize(f->canvas, rows, cols));
    app_draw(&f->app, f->canvas, 2.0, 1700000000.0);
}

static bool screen_has(const struct fixture *f, const char *text) {
    char row[4096];
    for (int y = 0; y < canvas_rows(f->canvas); y++) {
        canvas_row_text(f->canvas, y, row, sizeof(row));
        if (strstr(row, text) != NULL) {
            return true;
        }
    }
    return false;
}

static void press(struct fixture *f, int key) {
    struct tui_event event = {.type = TUI_EVENT_KEY, .key = key};
    app_handle_event(&f->app, &event);
}

/* The scenario: 2 GPUs, 3 processes on 2 GPUs -> thresholds 35 / 32 / 22 lines. */
static void test_auto_layout(void **state) {
    struct fixture *f = *state;
    static const struct {
        int rows;
        bool device_compact, host_compact, process_compact;
    } cases[] = {{35, false, false, false}, {34, true, false, false}, {32, true, false, false},
                 {31, true, true, false},   {22, true, true, false},  {21, true, true, true},
                 {1, true, true, true}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        draw(f, cases[i].rows, 100);
        assert_int_equal(f->app.layout.device_compact, cases[i].device_compact);
        assert_int_equal(f->app.layout.host_compact, cases[i].host_compact);
        assert_int_equal(f->app.layout.process_compact, cases[i].process_compact);
    }
    draw(f, 40, 120);
    assert_int_equal(f->app.layout.device_height, 13);
    assert_int_equal(f->app.layout.host_height, 12);
    assert_int_equal(f->app.layout.process_height, 10);
    press(f, 'c');
    draw(f, 40, 120);
    assert_int_equal(f->app.layout.device_height, 10);
    assert_true(screen_has(f, "[ CPU:"));
    press(f, 'f');
    draw(f, 10, 120);
    assert_false(f->app.layout.device_compact);
    press(f, 'a');
    draw(f, 10, 120);
    assert_true(f->app.layout.device_compact);
}

static void test_selection_and_tags(void **state) {
    struct fixture *f = *state;
    draw(f, 40, 120);
    assert_false(f->app.selection.set);
    press(f, TUI_KEY_DOWN);
    assert_true(f->app.selection.set);
    assert_int_equal(f->app.selection.index, 0);
    press(f, TUI_KEY_UP);
    assert_int_equal(f->app.selection.index, 0);
    press(f, TUI_KEY_END);
    assert_int_equal(f->app.selection.index, f->app.table.count - 1);
    press(f, TUI_KEY_ESC);
    press(f, TUI_KEY_UP); /* nothing selected: up selects the last */
    assert_int_equal(f->app.selection.index, f->app.table.count - 1);
    press(f, TUI_KEY_HOME);
    press(f, ' ');
    assert_int_equal(f->app.selection.tag_count, 1);
    assert_int_equal(f->app.selection.index, 1);
    press(f, TUI_KEY_ALT | 'k');
    press(f, ' ');
    assert_int_equal(f->app.selection.tag_count, 0);
    press(f, TUI_KEY_ESC);
    assert_false(f->app.selection.set);
}

static void test_sorting_and_scrolling(void **state) {
    struct fixture *f = *state;
    press(f, 'o');
    press(f, 'g');
    draw(f, 40, 120);
    assert_int_equal(f->app.order, VIEW_SORT_GPU_MEMORY);
    assert_true(screen_has(f, "GPU-MEM▼"));
    assert_true(f->app.table.rows[0].process->gpu_memory_bytes >=
                f->app.table.rows[1].process->gpu_memory_bytes);
    press(f, '/');
    draw(f, 40, 120);
    assert_true(screen_has(f, "GPU-MEM▲"));
    press(f, '>');
    assert_int_equal(f->app.order, VIEW_SORT_SM_UTILIZATION);
    press(f, '<');
    press(f, '<');
    assert_int_equal(f->app.order, VIEW_SORT_USERNAME);
    press(f, 'o');
    press(f, 'x'); /* not a sort letter: nothing happens */
    assert_int_equal(f->app.order, VIEW_SORT_USERNAME);
    press(f, 'o');
    press(f, 'n');
    draw(f, 40, 120);
    assert_false(screen_has(f, "▲"));

    /* The host columns of this scenario fit: scrolling right is clamped (the terminal beeps). */
    press(f, TUI_KEY_RIGHT);
    assert_int_equal(f->app.host_offset, -1);
    press(f, '$');
    assert_int_equal(f->app.host_offset, -1);
    press(f, TUI_KEY_CTRL_A);
    assert_int_equal(f->app.host_offset, -1);
    press(f, TUI_KEY_LEFT); /* clamped at -1 */
    assert_int_equal(f->app.host_offset, -1);

    draw(f, 10, 120);
    press(f, ']');
    draw(f, 10, 120);
    assert_int_equal(f->app.scroll, 1);
    assert_false(screen_has(f, "(Press h for help or q to quit)"));
    press(f, TUI_KEY_PAGE_UP);
    press(f, TUI_KEY_PAGE_UP);
    draw(f, 10, 120);
    assert_int_equal(f->app.scroll, 0);
    assert_true(screen_has(f, "(Press h for help or q to quit)"));
    /* Selecting the last process scrolls it into view. */
    press(f, TUI_KEY_END);
    draw(f, 10, 120);
    assert_true(f->app.scroll > 0);
    assert_true(f->app.selection.within_window);
}

static void test_help_notice_and_quit(void **state) {
    struct fixture *f = *state;
    press(f, '?');
    draw(f, 40, 120);
    assert_true(screen_has(f, "ob oB: sort by %GMBW"));
    assert_true(screen_has(f, "  - GPU utilization: light < 10% <= moderate < 75% <= heavy."));
    /* The title credits nvitop's author with the original only, not with this rebuild. */
    assert_true(screen_has(f, "nvitop " NVT_VERSION_STRING
                              " - a C rebuild of nvitop (original by Xuehai Pan)"));
    /* Our help lines: the keys cyan where they stand, nothing else (not the end of
     * "bandwidth" before the right-hand g G). */
    assert_int_equal(canvas_cell(f->canvas, 31, 8)->style.color, VIEW_COLOR_CYAN); /* H P b */
    assert_int_equal(canvas_cell(f->canvas, 31, 40)->style.color, VIEW_COLOR_DEFAULT);
    assert_int_equal(canvas_cell(f->canvas, 31, 48)->style.color, VIEW_COLOR_CYAN); /* g G */
    assert_int_equal(canvas_cell(f->canvas, 32, 50)->style.color, VIEW_COLOR_CYAN); /* S */
    assert_int_equal(canvas_cell(f->canvas, 33, 5)->style.color, VIEW_COLOR_CYAN);  /* Ctrl-L */
    assert_int_equal(canvas_cell(f->canvas, 34, 8)->style.color, VIEW_COLOR_CYAN);  /* g G */
    assert_int_equal(canvas_cell(f->canvas, 34, 40)->style.color, VIEW_COLOR_DEFAULT);
    press(f, 'x');
    draw(f, 40, 120);
    assert_true(screen_has(f, "Processes:"));
    draw(f, 5, 70);
    assert_true(screen_has(f, "current width is 70."));
    /* The box is 6 rows high: centred as nvitop centres it, (5 - 6) // 2 = -1, its top border is
     * above the screen and its bottom one on the last row. */
    char row[4096];
    canvas_row_text(f->canvas, 0, row, sizeof(row));
    assert_non_null(strstr(row, "│"));
    assert_null(strstr(row, "╒"));
    canvas_row_text(f->canvas, 4, row, sizeof(row));
    assert_non_null(strstr(row, "╘"));
    press(f, TUI_KEY_DOWN);
    assert_false(f->app.quit);
    press(f, 'q');
    assert_true(f->app.quit);
}

/* o then a key that is no sort key: nvitop's key buffer drops both, so the key does nothing (o q
 * does not quit, o h opens no help, o e no environment); a sort key after o still sorts. */
static void test_o_prefix_swallows(void **state) {
    struct fixture *f = *state;
    draw(f, 40, 120);
    static const int keys[] = {'q', 'h', 'e', 't'};
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        press(f, 'o');
        press(f, keys[i]);
        draw(f, 40, 120);
        assert_false(f->app.quit);
        assert_int_equal(f->app.screen, APP_SCREEN_MAIN);
    }
    press(f, 'q');
    assert_true(f->app.quit);
}

static void test_mouse(void **state) {
    struct fixture *f = *state;
    draw(f, 40, 120);
    int y = f->app.row_y[1];
    struct tui_event click = {.type = TUI_EVENT_MOUSE, .y = y, .x = 10, .buttons = TUI_MOUSE_PRESS};
    app_handle_event(&f->app, &click);
    assert_true(f->app.selection.set);
    assert_int_equal(f->app.selection.index, 1);
    struct tui_event wheel = {.type = TUI_EVENT_MOUSE, .buttons = TUI_MOUSE_WHEEL_DOWN};
    app_handle_event(&f->app, &wheel);
    assert_int_equal(f->app.selection.index, 2);
    wheel.buttons = TUI_MOUSE_WHEEL_UP | TUI_MOUSE_SHIFT;
    app_handle_event(&f->app, &wheel);
    assert_int_equal(f->app.host_offset, -1);
    click.y = f->app.layout.process_y + 2; /* the header: clears the selection */
    app_handle_event(&f->app, &click);
    assert_false(f->app.selection.set);
}

static void test_readonly_and_signal_box(void **state) {
    struct fixture *f = *state;
    f->config.view.user_name = "root";
    draw(f, 40, 120);
    press(f, TUI_KEY_DOWN);
    draw(f, 40, 120);
    /* Processes of the stand-ins' defaults do not exist here: not owned unless superuser. */
    f->config.readonly = true;
    press(f, 'K');
    assert_false(f->app.box.open);
    draw(f, 40, 120);
    assert_true(screen_has(f, "Read-only mode: sending signals is disabled."));
    f->config.readonly = false;
    press(f, ' '); /* tagged processes are always targets */
    press(f, 'T');
    assert_true(f->app.box.open);
    assert_int_equal(f->app.box.current, MESSAGE_BOX_TERM);
    draw(f, 40, 120);
    assert_true(screen_has(f, "Send signal to process"));
    press(f, 'c');
    int signal_number = -1;
    assert_true(message_box_take_choice(&f->app.box, &signal_number));
    assert_int_equal(signal_number, 0);
    message_box_close(&f->app.box);
}

/* The environment screen checks the identity it was entered with: the right start time shows the
 * environment, a wrong one (a recycled pid) shows that the process exited, never the stranger's
 * environment.  Help over it returns to it; q returns to the main screen. */
static void test_environ_identity(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = NULL;
    struct nvt_options options;
    nvt_options_init(&options);
    options.host_only = true;
    assert_int_equal(nvt_open(&options, &ctx), NVT_OK);
    struct nvt_host_process *self = NULL;
    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)getpid(), &self), NVT_OK);
    struct app_process_ref process = {.set = true,
                                      .pid = (uint32_t)getpid(),
                                      .create_time = self->create_time - 5.0,
                                      .device_slot = SIZE_MAX};
    nvt_host_process_free(self);
    nvt_close(ctx);

    app_screen_push(&f->app, APP_SCREEN_ENVIRON, &process);
    draw(f, 40, 120);
    assert_true(screen_has(f, "has exited: its environment is gone."));
    assert_false(screen_has(f, "LD_LIBRARY_PATH="));
    press(f, 'q');
    assert_int_equal(f->app.screen, APP_SCREEN_MAIN);

    process.create_time += 5.0;
    app_screen_push(&f->app, APP_SCREEN_ENVIRON, &process);
    draw(f, 40, 120);
    assert_true(screen_has(f, "Environment of process "));
    assert_true(screen_has(f, "LD_LIBRARY_PATH="));
    press(f, 'h');
    draw(f, 40, 120);
    assert_true(screen_has(f, "Press any key to return."));
    press(f, 'x');
    assert_int_equal(f->app.screen, APP_SCREEN_ENVIRON);
    press(f, 'r');
    draw(f, 40, 120);
    assert_true(screen_has(f, "LD_LIBRARY_PATH="));
    press(f, TUI_KEY_ESC);
    assert_int_equal(f->app.screen, APP_SCREEN_MAIN);
}

/* Entries in this process's environment, as the environment screen lists them. */
static int own_environment_count(void) {
    FILE *file = fopen("/proc/self/environ", "r");
    assert_non_null(file);
    int count = 0;
    int previous = 0;
    for (int c = fgetc(file); c != EOF; c = fgetc(file)) {
        count += c == '\0' && previous != '\0';
        previous = c;
    }
    fclose(file);
    return count;
}

static int text_rows_from(const struct fixture *f, int first) {
    char row[4096];
    int count = 0;
    for (int y = first; y < canvas_rows(f->canvas); y++) {
        canvas_row_text(f->canvas, y, row, sizeof(row));
        count += row[strspn(row, " ")] != '\0';
    }
    return count;
}

/* The environment screen as nvitop scrolls it: the title's command stays put while it fits (the
 * entries scroll), and a window that grows shows more of the list, not blank rows below its end
 * (120x12, End, then 120x40). */
static void test_environ_scrolling(void **state) {
    struct fixture *f = *state;
    int count = own_environment_count();
    assert_true(count > 10);
    /* Nothing selected: the monitor's own environment, here this test's. */
    draw(f, 12, 120);
    press(f, 'e');
    assert_int_equal(f->app.screen, APP_SCREEN_ENVIRON);
    draw(f, 12, 120);
    char title[4096];
    canvas_row_text(f->canvas, 0, title, sizeof(title));
    press(f, TUI_KEY_RIGHT);
    press(f, TUI_KEY_RIGHT);
    draw(f, 12, 120);
    char scrolled[4096];
    canvas_row_text(f->canvas, 0, scrolled, sizeof(scrolled));
    assert_string_equal(scrolled, title);
    press(f, '^'); /* back to column 0: no short entry scrolled out of sight */
    press(f, TUI_KEY_END);
    draw(f, 12, 120);
    assert_int_equal(text_rows_from(f, 2), 10);
    draw(f, 40, 120);
    assert_int_equal(text_rows_from(f, 2), count < 38 ? count : 38);
    press(f, 'q');
}

/* t opens the tree (the scenario's default pids do not exist here: their rows say so), q closes
 * it; a screen left open is closed by app_fini (ASan checks the leave). */
static void test_tree_screen(void **state) {
    struct fixture *f = *state;
    press(f, 't');
    assert_int_equal(f->app.screen, APP_SCREEN_TREE);
    draw(f, 40, 120);
    assert_true(screen_has(f, "DEVICE  NLWP  %CPU  %MEM  TIME  COMMAND"));
    assert_true(screen_has(f, "No Such Process"));
    press(f, 'q');
    assert_int_equal(f->app.screen, APP_SCREEN_MAIN);
    press(f, 't');
    press(f, 'e');
    assert_int_equal(f->app.screen, APP_SCREEN_ENVIRON);
}

/* The sampler refuses a process whose create time differs (a recycled pid) and signals the real
 * one. */
static void test_sampler_identity_check(void **state) {
    (void)state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* Never outlive a failed test. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        alarm(60);
        pause();
        _exit(0);
    }
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_host_process *host = NULL;
    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)child, &host), NVT_OK);
    double create_time = host->create_time;
    nvt_host_process_free(host);
    nvt_close(ctx);

    char error[128];
    struct sampler_schedule schedule = {
        .flags = NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_HOST,
        .period_s = 0.25,
        .slow_flags = NVT_SAMPLE_DEVICES,
        .slow_period_s = 1.0,
        .process_flags = NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES,
        .process_period_s = 0.5,
    };
    struct sampler *sampler = sampler_start(NULL, NULL, &schedule, error, sizeof(error));
    assert_non_null(sampler);
    struct pollfd pfd = {.fd = sampler_fd(sampler), .events = POLLIN};
    struct sampler_signal_result result;

    struct sampler_target forged = {(uint32_t)child, create_time + 30.0};
    assert_true(sampler_send_signal(sampler, &forged, 1, SIGKILL));
    while (!sampler_signal_result(sampler, &result)) {
        poll(&pfd, 1, 100);
        nvt_snapshot_free(sampler_take(sampler));
    }
    assert_int_equal(result.delivered, 0);
    assert_int_equal(result.gone, 1);
    assert_int_equal(result.first_pid, (uint32_t)child);
    assert_int_equal(kill(child, 0), 0); /* still alive */

    struct sampler_target real = {(uint32_t)child, create_time};
    assert_true(sampler_send_signal(sampler, &real, 1, SIGKILL));
    while (!sampler_signal_result(sampler, &result)) {
        poll(&pfd, 1, 100);
        nvt_snapshot_free(sampler_take(sampler));
    }
    assert_int_equal(result.delivered, 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    struct nvt_snapshot *snap = sampler_take(sampler);
    nvt_snapshot_free(snap);
    sampler_stop(sampler);
}

/* What the sampler is asked to read /proc for (app_take_focus()), with the 1,000 processes of
 * h100-8gpu-1000.json: on the main screen in the natural order the rows within a screen of the
 * window (and the selected process), and scrolling far brings rows that were not in it (urgent);
 * every process sorted by %CPU; the help screen changes nothing; back in the natural order, the
 * rows again. */
static void test_sample_focus(void **state) {
    struct fixture *f = *state;
    const uint32_t *pids = NULL;
    size_t count = 0;
    bool all = true;
    bool urgent = true;
    char path[4096];
    snprintf(path, sizeof(path), "%s/h100-8gpu-1000.json", getenv("NVT_SCENARIO_DIR"));
    setenv("NVML_SIM_SCENARIO", path, 1);
    app_set_snapshot(&f->app, take_snapshot(), 2.0);
    tt_use_workstation();
    draw(f, 60, 120);
    size_t rows = f->app.table.count;
    assert_int_equal(rows, 1000);
    assert_true(app_take_focus(&f->app, &pids, &count, &all, &urgent));
    assert_false(all);
    assert_false(urgent); /* every process was read until now */
    assert_true(count > 0 && count < rows);
    for (size_t i = 1; i < count; i++) {
        assert_true(pids[i - 1] < pids[i]);
    }
    draw(f, 60, 120);
    assert_false(app_take_focus(&f->app, &pids, &count, &all, &urgent)); /* nothing changed */

    press(f, TUI_KEY_END); /* the last row selected, the bottom of the table shown */
    draw(f, 60, 120);
    assert_true(app_take_focus(&f->app, &pids, &count, &all, &urgent));
    assert_false(all);
    assert_true(urgent);
    uint32_t last = f->app.table.rows[rows - 1].process->pid;
    bool has_last = false;
    for (size_t i = 0; i < count; i++) {
        has_last = has_last || pids[i] == last;
    }
    assert_true(has_last);

    press(f, 'o');
    press(f, 'c');
    draw(f, 60, 120);
    assert_true(app_take_focus(&f->app, &pids, &count, &all, &urgent));
    assert_true(all);
    assert_true(urgent);
    assert_null(pids);
    press(f, 'h');
    draw(f, 60, 120);
    assert_false(app_take_focus(&f->app, &pids, &count, &all, &urgent));
    press(f, 'q');
    press(f, 'o');
    press(f, 'n');
    draw(f, 60, 120);
    assert_true(app_take_focus(&f->app, &pids, &count, &all, &urgent));
    assert_false(all);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    tt_use_workstation();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_auto_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_selection_and_tags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sorting_and_scrolling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_notice_and_quit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_o_prefix_swallows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environ_scrolling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_and_signal_box, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environ_identity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_screen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sample_focus, setup, teardown),
        cmocka_unit_test(test_sampler_identity_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
