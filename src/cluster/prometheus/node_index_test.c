/* node_index.h: every node of a thousand found by its address, a missing address not found, of
 * two nodes with one address the first, an empty index finding nothing. */
#include "cluster/prometheus/node_index.h"

#include <stdio.h>
#include <stdlib.h>

#include "nvt_cmocka.h"

static void test_thousand(void **state) {
    (void)state;
    enum {
        N = 1000
    };
    struct node *nodes = calloc(N, sizeof(*nodes));
    assert_non_null(nodes);
    for (size_t i = 0; i < N; i++) {
        snprintf(nodes[i].address, sizeof(nodes[i].address), "node%04zu:9400", (N - i) * 7);
    }
    struct node_index index = {0};
    node_index_build(&index, nodes, N);
    for (size_t i = 0; i < N; i++) {
        char address[64];
        snprintf(address, sizeof(address), "node%04zu:9400", (N - i) * 7);
        assert_ptr_equal(node_index_find(&index, nodes, address), &nodes[i]);
    }
    assert_null(node_index_find(&index, nodes, "node0001:9400"));
    assert_null(node_index_find(&index, nodes, ""));
    node_index_fini(&index);
    free(nodes);
}

static void test_duplicates_and_empty(void **state) {
    (void)state;
    struct node nodes[3] = {0};
    snprintf(nodes[0].address, sizeof(nodes[0].address), "a:1");
    snprintf(nodes[1].address, sizeof(nodes[1].address), "b:1");
    snprintf(nodes[2].address, sizeof(nodes[2].address), "a:1");
    struct node_index index = {0};
    node_index_build(&index, nodes, 3);
    assert_ptr_equal(node_index_find(&index, nodes, "a:1"), &nodes[0]);
    assert_ptr_equal(node_index_find(&index, nodes, "b:1"), &nodes[1]);
    node_index_fini(&index);

    struct node_index none = {0};
    assert_null(node_index_find(&none, nodes, "a:1"));
    node_index_build(&none, nodes, 0);
    assert_null(node_index_find(&none, nodes, "a:1"));
    node_index_fini(&none);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thousand),
        cmocka_unit_test(test_duplicates_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
