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

/* Between frames the cells are let go; the next frame gets blank ones of the same size, and a
 * fit to the size a canvas has keeps what it holds. */
static void test_release_and_fit(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 4);
    canvas_text(canvas, 1, 0, "abcd", plain);
    assert_true(canvas_fit(canvas, 2, 4));
    assert_row(canvas, 1, "abcd");
    canvas_release(canvas);
    assert_int_equal(canvas_rows(canvas), 2);
    assert_int_equal(canvas_cols(canvas), 4);
    canvas_release(canvas); /* twice is harmless */
    assert_true(canvas_fit(canvas, 2, 4));
    assert_row(canvas, 1, "    ");
    canvas_text(canvas, 0, 1, "xy", plain);
    assert_row(canvas, 0, " xy ");
    canvas_release(canvas);
    assert_true(canvas_fit(canvas, 3, 5));
    assert_row(canvas, 2, "     ");
    canvas_destroy(canvas); /* after a fit */
    canvas = canvas_create(1, 1);
    canvas_release(canvas);
    canvas_destroy(canvas); /* and after a release */
}

static void test_put_cells(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 5);
    struct canvas_cell cells[3];
    for (int i = 0; i < 3; i++) {
        char ch[2] = {(char)('x' + i), '\0'};
        cells[i] = canvas_cell_of(ch, plain);
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

/* A cell is eight bytes (canvas.h says why); a character that is not ASCII is kept whole. */
static void test_cell_size_and_text(void **state) {
    (void)state;
    assert_int_equal(sizeof(struct canvas_cell), 8);
    struct canvas *canvas = canvas_create(1, 4);
    canvas_text(canvas, 0, 0, "\xf0\x9f\x98\x80\xc3\xa9", plain);
    assert_row(canvas, 0, "\xf0\x9f\x98\x80\xc3\xa9 ");
    assert_int_equal(canvas_cell_width(canvas_cell(canvas, 0, 0)), 2);
    assert_int_equal(canvas_cell_width(canvas_cell(canvas, 0, 1)), 0);
    assert_int_equal(canvas_cell_width(canvas_cell(canvas, 0, 2)), 1);
    char text[CANVAS_CELL_TEXT];
    assert_int_equal(canvas_cell_text(canvas, canvas_cell(canvas, 0, 1), text), 0);
    assert_int_equal(canvas_cell_text(canvas, canvas_cell(canvas, 0, 2), text), 2);
    assert_memory_equal(text, "\xc3\xa9", 2);
    /* What canvas_put_cells() gets: an invalid byte and a control character as '?'. */
    struct canvas_cell cell = canvas_cell_of("\xff", plain);
    assert_int_equal(canvas_cell_text(canvas, &cell, text), 1);
    assert_int_equal(text[0], '?');
    cell = canvas_cell_of("\x1b", plain);
    assert_int_equal(canvas_cell_text(canvas, &cell, text), 1);
    assert_int_equal(text[0], '?');
    canvas_destroy(canvas);
}

/* Combining marks join the character before them, a wide one too, while the text fits in
 * CANVAS_CELL_TEXT bytes; a mark that does not fit is dropped. */
static void test_combining_marks(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 8);
    canvas_text(canvas, 0, 0,
                "e\xcc\x81"                     /* e + acute */
                "\xe4\xb8\xad\xcc\x81"          /* wide + acute */
                "a\xcc\x81\xcc\x82\xcc\x83"     /* the third mark does not fit */
                "\xf0\x9f\x98\x80\xe2\x83\x97", /* four bytes and a three-byte mark: dropped */
                plain);
    assert_row(canvas, 0,
               "e\xcc\x81\xe4\xb8\xad\xcc\x81"
               "a\xcc\x81\xcc\x82\xf0\x9f\x98\x80  ");
    assert_int_equal(canvas_cell_width(canvas_cell(canvas, 0, 1)), 2);
    assert_int_equal(canvas_cell_width(canvas_cell(canvas, 0, 2)), 0);
    assert_true(canvas_cell_is_cluster(canvas_cell(canvas, 0, 0)));
    assert_false(canvas_cell_is_ascii(canvas_cell(canvas, 0, 0)));
    assert_true(canvas_cell_is_ascii(canvas_cell(canvas, 0, 7)));
    /* A text shown twice is one cell value, so that copies of the screen compare as bytes. */
    canvas_text(canvas, 1, 3, "e\xcc\x81", plain);
    assert_memory_equal(canvas_cell(canvas, 0, 0), canvas_cell(canvas, 1, 3),
                        sizeof(struct canvas_cell));
    /* A mark before any character on the row is dropped; one on a blank joins the blank. */
    canvas_text(canvas, 1, 0, "\xcc\x81", plain);
    canvas_text(canvas, 1, 1, "\xcc\x82", plain);
    assert_row(canvas, 1, " \xcc\x82  e\xcc\x81    ");
    canvas_destroy(canvas);
}

/* canvas_clear() renews a large table of clusters: a copy of the cells learns it from the
 * generation and forgets its cluster cells, and the canvas draws the same texts again. */
static void test_clusters_renewed(void **state) {
    (void)state;
    struct canvas *canvas = canvas_create(2, 2400);
    for (int k = 0; k < 1100; k++) {
        /* U+4E00 + k (wide) with an acute: 1100 different texts. */
        unsigned cp = 0x4E00U + (unsigned)k;
        char text[] = {(char)(0xE0 | cp >> 12),
                       (char)(0x80 | ((cp >> 6) & 0x3F)),
                       (char)(0x80 | (cp & 0x3F)),
                       '\xcc',
                       '\x81',
                       '\0'};
        canvas_text(canvas, 0, 2 * k, text, plain);
    }
    struct canvas_cell copy[2];
    memcpy(copy, canvas_row(canvas, 0), sizeof(copy));
    uint32_t generation = canvas_clusters_generation(canvas);
    canvas_clear(canvas);
    assert_int_not_equal(canvas_clusters_generation(canvas), generation);
    canvas_cells_forget_clusters(copy, 2);
    assert_int_equal(copy[0].glyph, CANVAS_GLYPH_NONE);
    assert_int_equal(copy[1].glyph, 0); /* the right half stays */
    canvas_text(canvas, 1, 0, "\xe4\xb8\x80\xcc\x81x", plain);
    char buf[16];
    canvas_row_text(canvas, 1, buf, sizeof(buf));
    assert_string_equal(buf, "\xe4\xb8\x80\xcc\x81x         ");
    /* A small table is kept: the generation stays. */
    generation = canvas_clusters_generation(canvas);
    canvas_clear(canvas);
    assert_int_equal(canvas_clusters_generation(canvas), generation);
    canvas_destroy(canvas);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_is_clipped), cmocka_unit_test(test_put_cells),
        cmocka_unit_test(test_wide_characters), cmocka_unit_test(test_invalid_bytes_and_controls),
        cmocka_unit_test(test_ascii_map),       cmocka_unit_test(test_origin_and_styles),
        cmocka_unit_test(test_line_spans),      cmocka_unit_test(test_tiny_and_resize),
        cmocka_unit_test(test_runs_and_fills),  cmocka_unit_test(test_cell_size_and_text),
        cmocka_unit_test(test_combining_marks), cmocka_unit_test(test_clusters_renewed),
        cmocka_unit_test(test_release_and_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
