/* A node's utilization history (node_history.h): slots, gaps and the sparkline's characters. */
#include "cluster/node_history.h"

#include <math.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"

static void test_sparkline_levels(void **state) {
    (void)state;
    const double values[] = {0, 12.4, 12.5, 25, 37.5, 50, 62.5, 75, 87.5, 100, NAN, 150, -3};
    char buf[128];
    node_sparkline(buf, sizeof buf, values, ARRAY_SIZE(values), false);
    assert_string_equal(buf, "▁▁▂▃▄▅▆▇██ █▁");
    node_sparkline(buf, sizeof buf, values, ARRAY_SIZE(values), true);
    assert_string_equal(buf, "__.:-=+*## #_");
    /* Cut at a character's end when the buffer is short. */
    node_sparkline(buf, 8, values, ARRAY_SIZE(values), false);
    assert_string_equal(buf, "▁▁");
}

static void test_slots_and_gaps(void **state) {
    (void)state;
    struct node_history h;
    memset(&h, 0, sizeof h);
    double out[NODE_HISTORY_CELLS];
    node_history_values(&h, 1000, out);
    for (size_t i = 0; i < NODE_HISTORY_CELLS; i++) {
        assert_true(isnan(out[i])); /* empty: all gaps */
    }
    /* 10 s slots: two samples in slot 100 (mean 30), none in 101 (down), one in 102, a NaN
     * reading in 103 (no sample). */
    node_history_add(&h, 10, 1000, 20);
    node_history_add(&h, 10, 1005, 40);
    node_history_add(&h, 10, 1021, 90);
    node_history_add(&h, 10, 1031, NAN);
    node_history_values(&h, 1039, out);
    size_t last = NODE_HISTORY_CELLS - 1;
    assert_true(isnan(out[last]));
    assert_true(out[last - 1] == 90);
    assert_true(isnan(out[last - 2]));
    assert_true(out[last - 3] == 30);
    assert_true(isnan(out[last - 4]));
    char buf[128];
    node_sparkline(buf, sizeof buf, out, NODE_HISTORY_CELLS, false);
    assert_string_equal(buf, "                ▃ █ ");
    /* Older than the window: gone, and the ring's entries are reused. */
    node_history_values(&h, 1000 + 10 * NODE_HISTORY_CELLS, out);
    assert_true(isnan(out[0]));
    node_history_add(&h, 10, 1000 + 10 * NODE_HISTORY_CELLS, 50);
    node_history_values(&h, 1000 + 10 * NODE_HISTORY_CELLS, out);
    assert_true(out[last] == 50);
    assert_true(out[last - (NODE_HISTORY_CELLS - 2)] == 90);
    /* Another step starts over. */
    node_history_add(&h, 5, 2000, 10);
    node_history_values(&h, 2000, out);
    assert_true(out[last] == 10);
    assert_true(isnan(out[last - 1]));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparkline_levels),
        cmocka_unit_test(test_slots_and_gaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
