/*
 * Styled lines: appending, fitting, painting, slicing, ASCII translation and ANSI rendering.
 */
#include "view/draw/line.h"

#include <string.h>

#include "nvt_cmocka.h"
#include "view/render_ansi.h"

static const struct view_style plain = {VIEW_COLOR_DEFAULT, 0, VIEW_COLOR_DEFAULT};

static char *render(const struct view_line *line, bool color, bool ascii) {
    static char buf[1024];
    struct strbuf out = STRBUF_INIT;
    struct view_render_options options = {color, ascii};
    assert_true(view_render_line(line, &options, &out));
    strncpy(buf, strbuf_cstr(&out), sizeof(buf) - 1);
    strbuf_fini(&out);
    return buf;
}

static void test_fit_pads_and_cuts_by_cells(void **state) {
    (void)state;
    struct view_line line;
    view_line_init(&line);
    view_line_add_fit(&line, "abc", 5, false, plain);
    view_line_add_fit(&line, "xy", 4, true, plain);
    view_line_add_fit(&line, "全角文字", 5, false, plain); /* 2 wide characters fit, 1 blank */
    assert_string_equal(line.text, "abc    xy全角 ");
    assert_int_equal(view_line_width(&line), 14);
    view_line_fini(&line);
}

static void test_termcolor_sequences(void **state) {
    (void)state;
    struct view_line line;
    view_line_init(&line);
    view_line_add(&line, "[ CPU ]", view_style_make(VIEW_COLOR_CYAN, VIEW_ATTR_BOLD));
    view_line_add(&line, "  ", plain);
    view_line_add(&line, "", view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_DIM));
    view_line_add(&line, "x", view_style_make(VIEW_COLOR_RED, 0));
    assert_string_equal(render(&line, true, false),
                        "\033[1m\033[36m[ CPU ]\033[0m  \033[2m\033[0m\033[31mx\033[0m");
    assert_string_equal(render(&line, false, false), "[ CPU ]  x");
    view_line_fini(&line);
}

static void test_paint_replaces_styles_of_cells(void **state) {
    (void)state;
    struct view_line line;
    view_line_init(&line);
    view_line_add(&line, "│ab", view_style_make(VIEW_COLOR_GREEN, 0));
    view_line_add(&line, "cd", view_style_make(VIEW_COLOR_RED, 0));
    view_line_paint(&line, 2, 2, view_style_make(VIEW_COLOR_CYAN, VIEW_ATTR_REVERSE));
    assert_string_equal(render(&line, true, false),
                        "\033[32m│a\033[0m\033[7m\033[36mbc\033[0m\033[31md\033[0m");
    view_line_fini(&line);
}

static void test_slice_keeps_styles_and_blanks_cut_wide_chars(void **state) {
    (void)state;
    struct view_line line;
    struct view_line part;
    view_line_init(&line);
    view_line_init(&part);
    view_line_add(&line, "ab", plain);
    view_line_add(&line, "全x", view_style_make(VIEW_COLOR_YELLOW, 0));
    view_line_slice(&line, 3, 3, &part);
    assert_string_equal(part.text, " x");
    view_line_slice(&line, 1, 2, &part);
    assert_string_equal(part.text, "b ");
    view_line_fini(&line);
    view_line_fini(&part);
}

static void test_ascii_map_keeps_spans(void **state) {
    (void)state;
    struct view_line line;
    view_line_init(&line);
    view_line_add(&line, "╒═╕", plain);
    view_line_add(&line, "█▍░", view_style_make(VIEW_COLOR_RED, 0));
    view_line_add(&line, "▲▼␤⣿", plain);
    view_line_to_ascii(&line);
    assert_string_equal(line.text, "+=+|||^v?=");
    assert_string_equal(render(&line, true, false), "+=+\033[31m|||\033[0m^v?=");
    view_line_fini(&line);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_pads_and_cuts_by_cells),
        cmocka_unit_test(test_termcolor_sequences),
        cmocka_unit_test(test_paint_replaces_styles_of_cells),
        cmocka_unit_test(test_slice_keeps_styles_and_blanks_cut_wide_chars),
        cmocka_unit_test(test_ascii_map_keeps_spans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
