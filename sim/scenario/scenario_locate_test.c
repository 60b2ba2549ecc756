/* Unit tests of the JSON path locator that points semantic errors at their value. */
#include <string.h>

#include "nvt_cmocka.h"
#include "scenario/scenario_internal.h"

static const char doc[] = "{\n"
                          "  \"a\": {\"x\\\"y\": [1, {\"k\": \"}]\"}, 3]},\n"
                          "  \"\\u00e9t\\u00e9\": [[], {\"deep\": [true, null, \"v\"]}],\n"
                          "  \"b\": 7\n"
                          "}\n";

static void locate(struct scenario_path *path, bool key, unsigned int *line, unsigned int *col,
                   bool found) {
    assert_int_equal(scenario_locate(doc, strlen(doc), path, key, line, col), found);
}

static void test_paths(void **state) {
    (void)state;
    unsigned int line = 0;
    unsigned int col = 0;
    struct scenario_path path = {.depth = 1, .segments = {{.key = "b"}}};
    locate(&path, false, &line, &col, true);
    assert_int_equal(line, 4);
    assert_int_equal(col, 8);
    locate(&path, true, &line, &col, true);
    assert_int_equal(col, 3);

    /* Escaped quotes in keys and brackets inside strings are skipped correctly. */
    path = (struct scenario_path){.depth = 3,
                                  .segments = {{.key = "a"}, {.key = "x\"y"}, {.index = 2}}};
    locate(&path, false, &line, &col, true);
    assert_int_equal(line, 2);
    assert_int_equal(col, 34);

    /* Keys written with \u escapes match their decoded form; columns count characters. */
    path = (struct scenario_path){
        .depth = 4,
        .segments = {{.key = "\xc3\xa9t\xc3\xa9"}, {.index = 1}, {.key = "deep"}, {.index = 2}}};
    locate(&path, false, &line, &col, true);
    assert_int_equal(line, 3);
    assert_int_equal(col, 47);
}

static void test_missing_paths(void **state) {
    (void)state;
    unsigned int line = 0;
    unsigned int col = 0;
    struct scenario_path path = {.depth = 2, .segments = {{.key = "a"}, {.key = "nope"}}};
    locate(&path, false, &line, &col, false);
    assert_int_equal(line, 1);
    assert_int_equal(col, 1);
    path = (struct scenario_path){.depth = 2, .segments = {{.key = "b"}, {.index = 0}}};
    locate(&path, false, &line, &col, false);
}

/* Found by fuzz_scenario: a NUL byte inside a number that the JSON parser accepted used to stop
 * the locator's cursor forever.  Every walk must end, and stray closing brackets too. */
static void test_odd_bytes_end_the_walk(void **state) {
    (void)state;
    static const char nul_doc[] = "{\"s\": [[0, 40], [30\0, 80], [20, 50]]}";
    unsigned int line = 0;
    unsigned int col = 0;
    struct scenario_path path = {.depth = 2, .segments = {{.key = "s"}, {.index = 2}}};
    assert_true(scenario_locate(nul_doc, sizeof(nul_doc) - 1, &path, false, &line, &col));
    assert_int_equal(line, 1);
    assert_int_equal(col, 28); /* the third element, "[20, 50]" */
    static const char stray[] = "{\"a\": ]], \"b\": 1}";
    path = (struct scenario_path){.depth = 1, .segments = {{.key = "b"}}};
    assert_false(scenario_locate(stray, sizeof(stray) - 1, &path, false, &line, &col));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_missing_paths),
        cmocka_unit_test(test_odd_bytes_end_the_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
