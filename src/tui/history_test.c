/*
 * Unit tests of the bucketed histories and the Braille graphs.
 */
#include "tui/history.h"

#include <locale.h>
#include <math.h>

#include "nvt_cmocka.h"
#include "tui/widgets/graph.h"

static void test_buckets_average_and_interpolate(void **state) {
    (void)state;
    struct history h;
    assert_true(history_init(&h));
    assert_true(isnan(history_last(&h)));
    history_add(&h, 10.0, 10.0);
    history_add(&h, 10.5, 30.0);
    assert_int_equal(history_count(&h), 0);
    assert_true(history_last(&h) == 20.0); /* running mean of the open bucket */
    history_add(&h, 11.2, 50.0);           /* closes [10, 11) */
    assert_int_equal(history_count(&h), 1);
    assert_true(history_at(&h, 0) == 20.0);
    history_add(&h, 14.1, 80.0); /* closes [11, 12) and fills 12, 13 by interpolation */
    assert_int_equal(history_count(&h), 4);
    assert_true(history_at(&h, 3) == 20.0);
    assert_true(history_at(&h, 2) == 50.0);
    assert_true(history_at(&h, 1) == 60.0);
    assert_true(history_at(&h, 0) == 70.0);
    history_add(&h, 15.0, NAN); /* closes [14, 15) holding 80 */
    history_add(&h, 16.0, 5.0); /* the N/A bucket stays N/A */
    assert_true(history_at(&h, 1) == 80.0);
    assert_true(isnan(history_at(&h, 0)));
    assert_true(isnan(history_at(&h, 100)));
    history_fini(&h);
}

/* nvitop's graphs count their buckets from when they were made, not from the first value: a first
 * value 0.3 s after the start shows with the next value 0.95 s later (counting from the first
 * value, the graph would wait for a third, one sample behind nvitop's). */
static void test_buckets_count_from_the_start(void **state) {
    (void)state;
    struct history h;
    assert_true(history_init(&h));
    history_start(&h, 100.0);
    history_add(&h, 100.3, 10.0);
    history_add(&h, 101.25, 20.0);
    assert_int_equal(history_count(&h), 1);
    assert_true(history_at(&h, 0) == 10.0);
    history_fini(&h);

    /* The same values without a start: the buckets start at the first value. */
    assert_true(history_init(&h));
    history_add(&h, 100.3, 10.0);
    history_add(&h, 101.25, 20.0);
    assert_int_equal(history_count(&h), 0);
    history_fini(&h);

    /* A first value later than a second after the start waits for the next one, and nothing is
     * filled in before it (there is no earlier value to interpolate from). */
    assert_true(history_init(&h));
    history_start(&h, 100.0);
    history_add(&h, 102.5, 10.0);
    assert_int_equal(history_count(&h), 0);
    history_add(&h, 103.1, 20.0);
    assert_int_equal(history_count(&h), 1);
    assert_true(history_at(&h, 0) == 10.0);
    history_add(&h, 104.2, 30.0);
    assert_int_equal(history_count(&h), 2);
    assert_true(history_at(&h, 0) == 20.0);
    history_fini(&h);
}

static void test_capacity(void **state) {
    (void)state;
    struct history h;
    assert_true(history_init(&h));
    for (int i = 0; i < 3000; i++) {
        history_add(&h, (double)i, (double)i);
    }
    assert_int_equal(history_count(&h), HISTORY_CAPACITY);
    assert_true(history_at(&h, 0) == 2998.0);
    history_add(&h, 1e9, 1.0); /* a huge gap never loops for long */
    assert_int_equal(history_count(&h), HISTORY_CAPACITY);
    history_fini(&h);
}

static void test_symbols_and_dots(void **state) {
    (void)state;
    assert_string_equal(graph_symbol(0, 0, false), " ");
    assert_string_equal(graph_symbol(4, 4, false), "⣿");
    assert_string_equal(graph_symbol(1, 3, false), "⣰");
    assert_string_equal(graph_symbol(0, 2, true), "⠘");
    assert_string_equal(graph_symbol(4, 1, true), "⡏");
    assert_string_equal(graph_symbol(9, -1, false), "⡇");
    assert_int_equal(graph_dots(NAN, 0, 5, 0, 100), 0);
    assert_int_equal(graph_dots(0.0, 0, 5, 0, 100), 1); /* known values show a dot */
    assert_int_equal(graph_dots(-1.0, 0, 5, 0, 100), 0);
    assert_int_equal(graph_dots(100.0, 4, 5, 0, 100), 4);
    assert_int_equal(graph_dots(150.0, 4, 5, 0, 100), 4);
    assert_int_equal(graph_dots(50.0, 2, 5, 0, 100), 2); /* round(2.5) is 2, as in Python */
    assert_int_equal(graph_dots(50.0, 3, 5, 0, 100), 0);
}

static void test_graph_draw(void **state) {
    (void)state;
    struct history h;
    assert_true(history_init(&h));
    double values[] = {0.0, 100.0, 50.0, NAN, 100.0};
    for (int i = 0; i < 5; i++) {
        history_add(&h, (double)i, values[i]);
    }
    history_add(&h, 5.0, 0.0); /* closes the last bucket */
    struct canvas *canvas = canvas_create(2, 3);
    struct graph_options options = {.baseline = 0.0, .bound = 100.0};
    graph_draw(canvas, 0, 0, 3, 2, &h, &options);
    char top[64];
    char bottom[64];
    canvas_row_text(canvas, 0, top, sizeof(top));
    canvas_row_text(canvas, 1, bottom, sizeof(bottom));
    /* Newest pair (N/A, 100) on the right; then (100, 50); then (empty, 0). */
    assert_string_equal(bottom, "⢀⣿⢸");
    assert_string_equal(top, " ⡇⢸");
    options.upside_down = true;
    graph_draw(canvas, 0, 0, 3, 2, &h, &options);
    canvas_row_text(canvas, 0, top, sizeof(top));
    assert_string_equal(top, "⠈⣿⢸");
    canvas_destroy(canvas);
    history_fini(&h);
}

int main(void) {
    setlocale(LC_ALL, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets_average_and_interpolate),
        cmocka_unit_test(test_buckets_count_from_the_start),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_symbols_and_dots),
        cmocka_unit_test(test_graph_draw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
