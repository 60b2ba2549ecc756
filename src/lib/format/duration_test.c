#include <string.h>

#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void expect_duration(double seconds, bool round, const char *expected) {
    char buf[32];
    size_t len = nvt_format_duration(buf, sizeof(buf), seconds, round);
    assert_string_equal(buf, expected);
    assert_int_equal(len, strlen(expected));
}

/* docs/nvitop-behaviour.md §5.12.3 examples. */
static void test_duration_spec_examples(void **state) {
    (void)state;
    expect_duration(0, false, "0:00");
    expect_duration(61, false, "1:01");
    expect_duration(3600, false, "1:00:00");
    expect_duration(86400, false, "24:00:00");
    expect_duration(86400, true, "1.0 days");
    expect_duration(86400 + 80013, false, "46:13:33");
    expect_duration(86400 + 80013, true, "1.9 days");
    expect_duration(4 * 86400, false, "4.0 days");
}

static void test_duration_edges(void **state) {
    (void)state;
    expect_duration(59.4, false, "0:59");
    expect_duration(59.9999999, false, "1:00");
    expect_duration(4 * 86400 - 1, false, "95:59:59");
    expect_duration(10 * 86400 + 43200, false, "10.5 days");
    expect_duration(NAN, false, "N/A");
    expect_duration(-1, false, "N/A");
    expect_duration(INFINITY, false, "N/A");
    expect_duration(1e20, false, "1157407407407407.5 days");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_spec_examples),
        cmocka_unit_test(test_duration_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
