/* The cluster screen's node order and filter, on hand-made nodes. */
#include "tui/cluster/cluster_order.h"

#include <math.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "tui/event.h"
#include "util/text/str.h"

/* Four nodes: b (util 50, user alice), a (util NaN, user Bob), c (no data), d (util 90, an XID
 * health flag). */
static void make(struct node *nodes) {
    memset(nodes, 0, 4 * sizeof *nodes);
    static const char *const addresses[] = {"gpu-b:1", "gpu-a:1", "gpu-c:1", "gpu-d:1"};
    static const char *const hosts[] = {"bravo", "alpha", "", "delta"};
    static const double utils[] = {50, NAN, 0, 90};
    for (int i = 0; i < 4; i++) {
        str_copy(nodes[i].address, sizeof nodes[i].address, addresses[i]);
        str_copy(nodes[i].summary.hostname, sizeof nodes[i].summary.hostname, hosts[i]);
        nodes[i].summary.util_mean = utils[i];
        nodes[i].has_data = i != 2;
        nodes[i].state = i != 2 ? NODE_OK : NODE_REFUSED;
    }
    str_copy(nodes[0].summary.users[0].name, sizeof nodes[0].summary.users[0].name, "alice");
    nodes[0].summary.user_count = 1;
    str_copy(nodes[1].summary.users[0].name, sizeof nodes[1].summary.users[0].name, "Bob");
    nodes[1].summary.user_count = 1;
    nodes[3].summary.flags = NODE_FLAG_XID;
}

static void expect(const struct cluster_arrangement *a, const char *order) {
    struct node nodes[4];
    size_t shown[4];
    make(nodes);
    size_t n = cluster_arrange(nodes, 4, a, shown);
    char got[8] = "";
    for (size_t i = 0; i < n; i++) {
        got[i] = nodes[shown[i]].address[4];
    }
    assert_string_equal(got, order);
}

static void test_orders(void **state) {
    (void)state;
    struct cluster_arrangement a = {.order = CLUSTER_ORDER_NATURAL};
    expect(&a, "bacd");
    a.reverse = true;
    expect(&a, "dcab");
    a = (struct cluster_arrangement){.order = CLUSTER_ORDER_HOST};
    expect(&a, "cabd");
    /* Usage: largest first, N/A below every value, no data last; reversed, ties stay. */
    a = (struct cluster_arrangement){.order = CLUSTER_ORDER_UTIL};
    expect(&a, "dbac");
    a.reverse = true;
    expect(&a, "cabd");
    /* State: nodes that fail, then nodes with health flags, then the others. */
    a = (struct cluster_arrangement){.order = CLUSTER_ORDER_STATE};
    expect(&a, "cdba");
}

static void test_filter(void **state) {
    (void)state;
    struct cluster_arrangement a = {.order = CLUSTER_ORDER_NATURAL};
    str_copy(a.filter, sizeof a.filter, "GPU-");
    expect(&a, "bacd");
    str_copy(a.filter, sizeof a.filter, "ALPHA"); /* host name, any case */
    expect(&a, "a");
    str_copy(a.filter, sizeof a.filter, "bob"); /* a top user */
    expect(&a, "a");
    str_copy(a.filter, sizeof a.filter, "l"); /* alpha, delta, alice */
    expect(&a, "bad");
    str_copy(a.filter, sizeof a.filter, "zzz");
    expect(&a, "");
}

static void test_letters(void **state) {
    (void)state;
    enum cluster_order order;
    bool reverse;
    assert_true(cluster_order_of_letter('g', &order, &reverse));
    assert_int_equal(order, CLUSTER_ORDER_MEMORY);
    assert_false(reverse);
    assert_true(cluster_order_of_letter('S', &order, &reverse));
    assert_int_equal(order, CLUSTER_ORDER_STATE);
    assert_true(reverse);
    assert_false(cluster_order_of_letter('x', &order, &reverse));
    assert_false(cluster_order_of_letter(0x10001, &order, &reverse));
    assert_string_equal(cluster_order_name(CLUSTER_ORDER_TEMP), "temperature");
}

static void test_filter_keys(void **state) {
    (void)state;
    char filter[5] = "";
    bool editing = true;
    const int keys[] = {'a', 'B', 'c', 'd', 'e', TUI_KEY_BACKSPACE, 127, 'x'};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cluster_filter_key(filter, sizeof filter, keys[i], &editing);
    }
    assert_string_equal(filter, "aBx"); /* 'e' did not fit; two characters removed */
    assert_false(cluster_filter_key(filter, sizeof filter, TUI_KEY_UP, &editing));
    assert_true(cluster_filter_key(filter, sizeof filter, TUI_KEY_ENTER, &editing));
    assert_false(editing);
    assert_string_equal(filter, "aBx");
    editing = true;
    assert_true(cluster_filter_key(filter, sizeof filter, TUI_KEY_ESC, &editing));
    assert_false(editing);
    assert_string_equal(filter, "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_letters),
        cmocka_unit_test(test_filter_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
