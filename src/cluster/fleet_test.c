/* The fleet's users (fleet_users.h), the grouping of rows (group.h) and the table's UTIL HISTORY
 * column (table.h) on hand-made nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/fleet_users.h"
#include "cluster/group.h"
#include "cluster/table.h"
#include "nvt_cmocka.h"
#include "util/array.h"
#include "util/text/str.h"

static void add_user(struct node *n, const char *name, double mib, unsigned gpus) {
    struct node_user *u = &n->summary.users[n->summary.user_count++];
    str_copy(u->name, sizeof u->name, name);
    u->gpu_memory_mib = mib;
    u->gpu_count = gpus;
}

static void test_users(void **state) {
    (void)state;
    struct node nodes[3];
    memset(nodes, 0, sizeof nodes);
    nodes[0].has_data = nodes[1].has_data = true;
    add_user(&nodes[0], "alice", 2048, 2);
    add_user(&nodes[0], "bob", 4096, 1);
    add_user(&nodes[1], "alice", 3072, 1);
    add_user(&nodes[1], "carol", 1024, 1);
    add_user(&nodes[1], "dan", 1024, 2);
    add_user(&nodes[2], "eve", 9999, 1); /* no data: not counted */
    struct fleet_user *users;
    size_t n = fleet_users(nodes, ARRAY_SIZE(nodes), &users);
    assert_int_equal(n, 4);
    /* By memory, then GPUs, then name. */
    assert_string_equal(users[0].name, "alice");
    assert_true(users[0].gpu_memory_mib == 5120);
    assert_int_equal(users[0].gpu_count, 3);
    assert_int_equal(users[0].node_count, 2);
    assert_string_equal(users[1].name, "bob");
    assert_string_equal(users[2].name, "dan");
    assert_string_equal(users[3].name, "carol");
    int width = fleet_users_name_width(users, n);
    assert_int_equal(width, 5);
    char line[128];
    fleet_users_header(line, sizeof line, width);
    assert_string_equal(line, "USER   GPU MEMORY   GPUS  NODES");
    fleet_user_line(line, sizeof line, &users[0], width);
    assert_string_equal(line, "alice      5.0GiB      3      2");
    free(users);

    assert_int_equal(fleet_users(nodes, 0, &users), 0);
    assert_null(users);
}

static void test_group(void **state) {
    (void)state;
    char err[200];
    assert_null(node_grouping_new("(r", err, sizeof err));
    assert_true(strncmp(err, "invalid pattern '(r': ", 22) == 0);

    struct node nodes[4];
    memset(nodes, 0, sizeof nodes);
    str_copy(nodes[0].address, sizeof nodes[0].address, "gpu7.rack=r2:9101");
    str_copy(nodes[1].address, sizeof nodes[1].address, "10.0.0.1:9101");
    str_copy(nodes[1].summary.hostname, sizeof nodes[1].summary.hostname, "gpu1.rack=r1");
    str_copy(nodes[2].address, sizeof nodes[2].address, "login:9101");
    str_copy(nodes[3].address, sizeof nodes[3].address, "gpu3.rack=r1:9101");
    struct node_grouping *g = node_grouping_new("rack=(r\\d+)", err, sizeof err);
    assert_non_null(g);
    char group[64];
    node_grouping_of(g, &nodes[0], group, sizeof group);
    assert_string_equal(group, "r2");
    node_grouping_of(g, &nodes[1], group, sizeof group); /* from its host name */
    assert_string_equal(group, "r1");
    node_grouping_of(g, &nodes[2], group, sizeof group);
    assert_string_equal(group, "");
    size_t order[] = {0, 1, 2, 3};
    node_grouping_sort(g, nodes, order, ARRAY_SIZE(order));
    assert_int_equal(order[0], 1); /* r1, in the order given */
    assert_int_equal(order[1], 3);
    assert_int_equal(order[2], 0); /* r2 */
    assert_int_equal(order[3], 2); /* no group: last */
    assert_int_equal(node_grouping_width(g, nodes, ARRAY_SIZE(nodes)), 5);
    char cell[TABLE_CELL_MAX];
    node_grouping_cell(g, &nodes[2], 5, cell, sizeof cell);
    assert_string_equal(cell, "-      ");
    node_grouping_free(g);

    /* No parenthesised part: the whole match. */
    g = node_grouping_new("gpu\\d", err, sizeof err);
    assert_non_null(g);
    node_grouping_of(g, &nodes[3], group, sizeof group);
    assert_string_equal(group, "gpu3");
    node_grouping_free(g);
}

/* UTIL HISTORY in a row, and the first column left out when the table does not fit. */
static void test_history_column(void **state) {
    (void)state;
    struct node n;
    memset(&n, 0, sizeof n);
    str_copy(n.address, sizeof n.address, "gpu1:9101");
    str_copy(n.summary.hostname, sizeof n.summary.hostname, "gpu1");
    n.state = NODE_OK;
    n.has_data = true;
    n.data_time = 1000;
    n.summary.util_mean = 90;
    node_history_add(&n.history, 30, 940, 10);
    node_history_add(&n.history, 30, 1000, 90);
    unsigned set = (1u << TABLE_COL_UTIL) | (1u << TABLE_COL_HISTORY);
    struct table_widths w;
    table_widths_shown(&n, 1, 0, set, &w);
    char line[512];
    table_header(line, sizeof line, &w);
    assert_string_equal(line, "NODE      UTIL  UTIL HISTORY        ");
    table_row(line, sizeof line, &n, &w, 1000);
    assert_string_equal(line, "gpu1:9101  90%"
                              "                   ▁ █");
    w.ascii = true;
    table_row(line, sizeof line, &n, &w, 1000);
    assert_string_equal(line, "gpu1:9101  90%"
                              "                   _ #");
    /* 30 columns: no room for it beside the whole NODE; it goes, NODE stays whole. */
    table_widths_shown(&n, 1, 30, set, &w);
    assert_int_equal(w.shown, 1u << TABLE_COL_UTIL);
    assert_int_equal(w.node, 9);
    table_widths_shown(&n, 1, 40, set, &w);
    assert_int_equal(w.shown, set);
}

/* Two nodes saying the same hostname: the first node (in the list's order) that has a twin later
 * in it, and its first twin, are named; a node without data or without a hostname is none. */
static void test_same_host(void **state) {
    (void)state;
    static const char *const hosts[] = {"c", "b", "", "a", "d", "a", "b", "x", "b"};
    struct node nodes[ARRAY_SIZE(hosts)];
    memset(nodes, 0, sizeof nodes);
    for (size_t i = 0; i < ARRAY_SIZE(hosts); i++) {
        snprintf(nodes[i].address, sizeof nodes[i].address, "n%zu:9100", i);
        str_copy(nodes[i].summary.hostname, sizeof nodes[i].summary.hostname, hosts[i]);
        nodes[i].has_data = true;
    }
    char line[512];
    assert_true(table_same_host(nodes, ARRAY_SIZE(nodes), line, sizeof line));
    assert_string_equal(line, "n1:9100 and n6:9100 report the same hostname \"b\": one machine "
                              "listed twice, or exporters started with the same --hostname");
    nodes[1].has_data = false;
    assert_true(table_same_host(nodes, ARRAY_SIZE(nodes), line, sizeof line));
    assert_string_equal(line, "n3:9100 and n5:9100 report the same hostname \"a\": one machine "
                              "listed twice, or exporters started with the same --hostname");
    nodes[5].has_data = false;
    nodes[8].has_data = false;
    assert_false(table_same_host(nodes, ARRAY_SIZE(nodes), line, sizeof line));
    assert_string_equal(line, "");
    assert_false(table_same_host(nodes, 0, line, sizeof line));
    /* A thousand distinct hostnames, then one twin at the end. */
    struct node *many = calloc(1000, sizeof *many);
    assert_non_null(many);
    for (size_t i = 0; i < 1000; i++) {
        snprintf(many[i].address, sizeof many[i].address, "n%zu", i);
        snprintf(many[i].summary.hostname, sizeof many[i].summary.hostname, "node%04zu", i);
        many[i].has_data = true;
    }
    assert_false(table_same_host(many, 1000, line, sizeof line));
    str_copy(many[999].summary.hostname, sizeof many[999].summary.hostname, "node0500");
    assert_true(table_same_host(many, 1000, line, sizeof line));
    assert_non_null(strstr(line, "n500 and n999 report"));
    free(many);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_users),
        cmocka_unit_test(test_group),
        cmocka_unit_test(test_history_column),
        cmocka_unit_test(test_same_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
