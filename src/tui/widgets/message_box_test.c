/*
 * Unit tests of the signal confirmation box: layout against nvitop's (docs/nvitop-behaviour.md
 * §3.7), keys and mouse.
 */
#include "tui/widgets/message_box.h"

#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

static struct selection_target *targets(size_t count, uint32_t first_pid) {
    struct selection_target *t = calloc(count, sizeof(*t));
    assert_non_null(t);
    for (size_t i = 0; i < count; i++) {
        t[i].pid = first_pid + (uint32_t)i;
        strcpy(t[i].user, "root");
    }
    return t;
}

static void assert_row(const struct canvas *canvas, int row, const char *expected) {
    char buf[1024];
    canvas_row_text(canvas, row, buf, sizeof(buf));
    assert_string_equal(buf, expected);
}

static void test_single_target_layout(void **state) {
    (void)state;
    struct message_box box = {0};
    message_box_open(&box, targets(1, 15420), 1, MESSAGE_BOX_TERM);
    struct canvas *canvas = canvas_create(24, 80);
    message_box_draw(&box, canvas);
    static const char *const expected[] = {
        "          ╒══════════════════════════════════════════════════════════╕          ",
        "          │                                                          │          ",
        "          │           Send signal to process 15420(root)?            │          ",
        "          │                                                          │          ",
        "          │  ┌──────────┐  ┌──────────┐  ┌──────────┐  ┌──────────┐  │          ",
        "          │  │ SIGTERM  │  │ SIGKILL  │  │  SIGINT  │  │  Cancel  │  │          ",
        "          │  └──────────┘  └──────────┘  └──────────┘  └──────────┘  │          ",
        "          ╘══════════════════════════════════════════════════════════╛          ",
    };
    for (int i = 0; i < 8; i++) {
        assert_row(canvas, 8 + i, expected[i]);
    }
    /* The current button is standout over its three rows, its name on a red background (nvitop
     * swaps the colours of the chosen option); the other names are red on the default. */
    assert_true(canvas_cell(canvas, 12, 13)->style.attrs & VIEW_ATTR_STANDOUT);
    assert_false(canvas_cell(canvas, 12, 27)->style.attrs & VIEW_ATTR_STANDOUT);
    assert_int_equal(canvas_cell(canvas, 13, 15)->style.color, VIEW_COLOR_DEFAULT);
    assert_int_equal(canvas_cell(canvas, 13, 15)->style.bg, VIEW_COLOR_RED);
    assert_int_equal(canvas_cell(canvas, 13, 29)->style.color, VIEW_COLOR_RED);
    assert_int_equal(canvas_cell(canvas, 13, 29)->style.bg, VIEW_COLOR_DEFAULT);
    assert_true(canvas_cell(canvas, 13, 18)->style.attrs & VIEW_ATTR_UNDERLINE);
    /* Everything else is dimmed. */
    assert_true(canvas_cell(canvas, 0, 0)->style.attrs & VIEW_ATTR_DIM);
    canvas_destroy(canvas);
    message_box_close(&box);
}

static void test_many_targets_wrap(void **state) {
    (void)state;
    struct message_box box = {0};
    message_box_open(&box, targets(6, 100000), 6, MESSAGE_BOX_KILL);
    assert_int_equal(box.line_count, 4);
    assert_string_equal(box.lines[0], "Send signal to the following processes?");
    assert_string_equal(box.lines[1], "");
    assert_string_equal(box.lines[2], "100000(root) 100001(root) 100002(root) 100003(root)");
    assert_string_equal(box.lines[3], "100004(root) 100005(root)");
    message_box_close(&box);
}

static void test_keys(void **state) {
    (void)state;
    struct message_box box = {0};
    int signal_number = -1;
    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_INT);
    assert_false(message_box_take_choice(&box, &signal_number));
    message_box_key(&box, TUI_KEY_RIGHT);
    assert_int_equal(box.current, MESSAGE_BOX_CANCEL);
    message_box_key(&box, TUI_KEY_TAB);
    assert_int_equal(box.current, MESSAGE_BOX_TERM);
    message_box_key(&box, TUI_KEY_BACK_TAB);
    message_box_key(&box, '[');
    assert_int_equal(box.current, MESSAGE_BOX_INT);
    message_box_key(&box, TUI_KEY_ENTER);
    assert_true(message_box_take_choice(&box, &signal_number));
    assert_int_equal(signal_number, SIGINT);

    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_TERM);
    message_box_key(&box, 'K');
    assert_true(message_box_take_choice(&box, &signal_number));
    assert_int_equal(signal_number, SIGKILL);

    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_TERM);
    message_box_key(&box, TUI_KEY_ESC);
    assert_true(message_box_take_choice(&box, &signal_number));
    assert_int_equal(signal_number, 0);

    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_TERM);
    message_box_key(&box, '2');
    assert_true(message_box_take_choice(&box, &signal_number));
    assert_int_equal(signal_number, SIGKILL);
    message_box_close(&box);
}

static void test_mouse(void **state) {
    (void)state;
    struct message_box box = {0};
    int signal_number = -1;
    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_TERM);
    struct tui_event click = {
        .type = TUI_EVENT_MOUSE, .y = 13, .x = 41, .buttons = TUI_MOUSE_PRESS};
    message_box_mouse(&box, &click, 24, 80, 10.0);
    assert_int_equal(box.current, MESSAGE_BOX_INT);
    assert_false(message_box_tick(&box, 10.1));
    assert_true(message_box_tick(&box, 10.3));
    assert_true(message_box_take_choice(&box, &signal_number));
    assert_int_equal(signal_number, SIGINT);

    message_box_open(&box, targets(1, 42), 1, MESSAGE_BOX_TERM);
    struct tui_event wheel = {.type = TUI_EVENT_MOUSE, .buttons = TUI_MOUSE_WHEEL_UP};
    message_box_mouse(&box, &wheel, 24, 80, 0.0);
    assert_int_equal(box.current, MESSAGE_BOX_CANCEL);
    struct tui_event outside = {
        .type = TUI_EVENT_MOUSE, .y = 0, .x = 0, .buttons = TUI_MOUSE_PRESS};
    message_box_mouse(&box, &outside, 24, 80, 0.0);
    assert_true(box.confirm_at == 0.0);
    message_box_close(&box);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_target_layout),
        cmocka_unit_test(test_many_targets_wrap),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_mouse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
