/*
 * Unit tests of the tree view's read-ahead plan and look-up (tree_hosts.h).
 */
#include "tui/live/tree_hosts.h"

#include <stdlib.h>

#include "nvt_cmocka.h"
#include "util/array.h"

/*
 *   1 ── 10 ── 20 (GPU) ─┬─ 30      100 (GPU; its parent 99 is not in the map)
 *                        ├─ 21 (GPU) ── 31
 *   1 ── 11              └─ 32
 */
static const uint32_t map_pids[] = {1, 10, 11, 20, 21, 30, 31, 32, 100};
static const uint32_t map_ppids[] = {0, 1, 1, 10, 20, 20, 21, 20, 99};

static void test_plan_ancestors_and_children(void **state) {
    (void)state;
    const uint32_t gpu[] = {21, 20, 100, 20};
    const uint32_t gpu_ppids[] = {20, 10, 99, 10};
    uint32_t *plan = NULL;
    size_t n = tree_hosts_plan(gpu, gpu_ppids, ARRAY_SIZE(gpu), map_pids, map_ppids,
                               ARRAY_SIZE(map_pids), &plan);
    /* Ancestors 10 and 1 (not 11), 99 (a parent outside the map is still read), children 30, 31
     * and 32 (21 is a GPU process), sorted and each once. */
    const uint32_t expected[] = {1, 10, 30, 31, 32, 99};
    assert_int_equal(n, ARRAY_SIZE(expected));
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(plan[i], expected[i]);
    }
    free(plan);
}

static void test_plan_roots_and_loops(void **state) {
    (void)state;
    /* No parent (0, N/A, itself): no ancestor; a loop in the map ends. */
    const uint32_t gpu[] = {5, 6, 7, 8};
    const uint32_t gpu_ppids[] = {0, NVT_NA_U32, 7, 40};
    const uint32_t pids[] = {40, 41};
    const uint32_t ppids[] = {41, 40};
    uint32_t *plan = NULL;
    size_t n =
        tree_hosts_plan(gpu, gpu_ppids, ARRAY_SIZE(gpu), pids, ppids, ARRAY_SIZE(pids), &plan);
    assert_int_equal(n, 2);
    assert_int_equal(plan[0], 40);
    assert_int_equal(plan[1], 41);
    free(plan);
    n = tree_hosts_plan(NULL, NULL, 0, NULL, NULL, 0, &plan);
    assert_int_equal(n, 0);
    free(plan);
}

static void test_find(void **state) {
    (void)state;
    struct tree_host entries[] = {{3, NULL}, {8, NULL}, {12, NULL}};
    struct tree_hosts hosts = {.hosts = entries, .host_count = ARRAY_SIZE(entries)};
    assert_ptr_equal(tree_hosts_find(&hosts, 8), &entries[1]);
    assert_ptr_equal(tree_hosts_find(&hosts, 3), &entries[0]);
    assert_ptr_equal(tree_hosts_find(&hosts, 12), &entries[2]);
    assert_null(tree_hosts_find(&hosts, 9));
    assert_null(tree_hosts_find(NULL, 8));
    hosts.host_count = 0;
    assert_null(tree_hosts_find(&hosts, 8));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_ancestors_and_children),
        cmocka_unit_test(test_plan_roots_and_loops),
        cmocka_unit_test(test_find),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
