/*
 * Unit tests of the in-memory canvas: clipping, wide characters, the ASCII map, the origin.
 */
#include "tui/canvas.h"

#include <locale.h>
#include <string.h>

#include "nvt_cmocka.h"

static const struct view_style plain = {0};

static void assert_row(const struct canvas *canvas, int row, const char *expected) {
    char buf[512];
    canvas_row_text(canvas, row, buf, sizeof(buf));
    assert_string_equal(buf, expected);
}

static void test_text_is_clipped(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 5);
    assert_non_null(canvas);
    assert_int_equal(canvas_text(canvas, 0, 3, "abcdef", plain), 9);
    canvas_text(canvas, 1, -2, "xyz", plain);
    canvas_text(canvas, 5, 0, "outside", plain);
    assert_row(canvas, 0, "   ab");
    assert_row(canvas, 1, "z    ");
    canvas_destroy(canvas);
}

static void test_wide_characters(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(1, 5);
    /* A wide character cut by the right edge becomes a blank. */
    canvas_text(canvas, 0, 0,
                "a\xe4\xb8\xad"
                "b\xe4\xb8\xad",
                plain);
    assert_row(canvas, 0,
               "a\xe4\xb8\xad"
               "b ");
    /* Overwriting half of a wide character blanks the other half. */
    canvas_text(canvas, 0, 2, "x", plain);
    assert_row(canvas, 0, "a xb ");
    canvas_destroy(canvas);
}

/* Runs of one character (rules, bar blocks) and fills are copied cell by cell: clipped at both
 * edges, breaking the wide characters they cover, in the ASCII map too. */
static void test_runs_and_fills(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(3, 6);
    canvas_text(canvas, 0, 3, "\xe4\xb8\xad", plain);
    canvas_text(canvas, 0, -1, "\xe2\x95\x90\xe2\x95\x90\xe2\x95\x90\xe2\x95\x90x", plain);
    assert_row(canvas, 0, "\xe2\x95\x90\xe2\x95\x90\xe2\x95\x90x  ");
    canvas_text(canvas, 1, 0, "\xe4\xb8\xad", plain);
    canvas_fill(canvas, 1, 1, 9, "\xe2\x94\x80", plain);
    assert_row(canvas, 1, " \xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80");
    canvas_set_ascii(canvas, true);
    canvas_fill(canvas, 2, -2, 4, "\xe2\x94\x80", plain);
    canvas_text(canvas, 2, 3, "ab\xe2\x95\x90\xe2\x95\x90", plain);
    assert_row(canvas, 2, "-- ab=");
    canvas_destroy(canvas);
}

static void test_invalid_bytes_and_controls(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(1, 6);
    canvas_text(canvas, 0, 0, "a\xff\tb\xc3", plain);
    assert_row(canvas, 0, "a??b? ");
    canvas_destroy(canvas);
}

static void test_ascii_map(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(1, 8);
    canvas_set_ascii(canvas, true);
    canvas_text(canvas, 0, 0, "╒═│├─█⣿▼", plain);
    assert_row(canvas, 0, "+=||-|=v");
    canvas_destroy(canvas);
}

static void test_origin_and_styles(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 4);
    canvas_set_origin(canvas, 3);
    assert_false(canvas_row_shown(canvas, 2));
    assert_true(canvas_row_shown(canvas, 3));
    assert_true(canvas_row_shown(canvas, 4));
    assert_false(canvas_row_shown(canvas, 5));
    canvas_text(canvas, 3, 0, "top", plain);
    canvas_text(canvas, 2, 0, "gone", plain);
    canvas_attrs(canvas, 3, 1, 2, VIEW_ATTR_BOLD, 0);
    canvas_color(canvas, 3, 0, 1, VIEW_COLOR_RED);
    assert_row(canvas, 0, "top ");
    assert_int_equal(canvas_cell(canvas, 0, 0)->style.color, VIEW_COLOR_RED);
    assert_int_equal(canvas_cell(canvas, 0, 1)->style.attrs, VIEW_ATTR_BOLD);
    assert_int_equal(canvas_cell(canvas, 0, 3)->style.attrs, 0);
    canvas_attrs(canvas, 3, 0, 4, VIEW_ATTR_DIM, 0xFF);
    assert_int_equal(canvas_cell(canvas, 0, 1)->style.attrs, VIEW_ATTR_DIM);
    canvas_destroy(canvas);
}

static void test_line_spans(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(1, 10);
    char text[] = "ab cd ef";
    struct view_span spans[] = {{3, 2, {VIEW_COLOR_GREEN, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT}}};
    struct view_line line = {.text = text, .len = 8, .spans = spans, .span_count = 1};
    assert_int_equal(canvas_line(canvas, 0, 1, &line), 9);
    assert_row(canvas, 0, " ab cd ef ");
    assert_int_equal(canvas_cell(canvas, 0, 4)->style.color, VIEW_COLOR_GREEN);
    assert_int_equal(canvas_cell(canvas, 0, 6)->style.color, VIEW_COLOR_DEFAULT);
    canvas_destroy(canvas);
}

static void test_tiny_and_resize(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(0, -3);
    assert_int_equal(canvas_rows(canvas), 1);
    assert_int_equal(canvas_cols(canvas), 1);
    canvas_text(canvas, 0, 0, "\xe4\xb8\xad", plain);
    assert_row(canvas, 0, " ");
    assert_true(canvas_resize(canvas, 3, 2));
    assert_row(canvas, 2, "  ");
    assert_int_equal(canvas_text_width("a\xe4\xb8\xad", 4), 3);
    canvas_destroy(canvas);
}

static void test_put_cells(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 5);
    struct canvas_cell cells[3];
    memset(cells, 0, sizeof(cells));
    for (int i = 0; i < 3; i++) {
        cells[i].text[0] = (char)('x' + i);
        cells[i].len = 1;
        cells[i].width = 1;
    }
    /* Half of a wide character overwritten: the other half becomes a blank. */
    canvas_text(canvas, 0, 0, "\xe4\xb8\xad", plain);
    canvas_put_cells(canvas, 0, 1, cells, 3);
    assert_row(canvas, 0, " xyz ");
    /* Clipped at both edges and outside the rows. */
    canvas_put_cells(canvas, 1, -1, cells, 3);
    canvas_put_cells(canvas, 1, 4, cells, 3);
    canvas_put_cells(canvas, 2, 0, cells, 3);
    assert_row(canvas, 1, "yz  x");
    canvas_destroy(canvas);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_is_clipped), cmocka_unit_test(test_put_cells),
        cmocka_unit_test(test_wide_characters), cmocka_unit_test(test_invalid_bytes_and_controls),
        cmocka_unit_test(test_ascii_map),       cmocka_unit_test(test_origin_and_styles),
        cmocka_unit_test(test_line_spans),      cmocka_unit_test(test_tiny_and_resize),
        cmocka_unit_test(test_runs_and_fills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
