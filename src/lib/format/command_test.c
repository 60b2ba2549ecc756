#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void expect_join(const char *const *argv, size_t argc, const char *expected) {
    char buf[256];
    size_t len = nvt_command_join(buf, sizeof(buf), argv, argc);
    assert_string_equal(buf, expected);
    assert_int_equal(len, strlen(expected));
}

/* docs/nvitop-behaviour.md §5.7 examples. */
static void test_join_spec_examples(void **state) {
    (void)state;
    expect_join((const char *const[]){"python3", "a b"}, 2, "python3 \"a b\"");
    expect_join((const char *const[]){"x", "a\"b c"}, 2, "x 'a\"b c'");
    expect_join((const char *const[]){"x", "it's"}, 2, "x it's");
    expect_join((const char *const[]){"x", "$HOME"}, 2, "x '$HOME'");
    expect_join((const char *const[]){"x", "a\nb"}, 2, "x \"a\\nb\"");
    expect_join((const char *const[]){"x", "it's $x"}, 2, "x \"it's \\$x\"");
    expect_join(
        (const char *const[]){"python", "-c",
                              "import IPython; IPython.terminal.ipapp.launch_new_instance()"},
        3, "python -c \"import IPython; IPython.terminal.ipapp.launch_new_instance()\"");
}

static void test_join_quoting_rules(void **state) {
    (void)state;
    expect_join((const char *const[]){"x", ""}, 2, "x \"\"");
    expect_join((const char *const[]){"x", "a\\b"}, 2, "x 'a\\b'");
    expect_join((const char *const[]){"x", "a'\\\"b"}, 2, "x \"a'\\\\\\\"b\"");
    expect_join((const char *const[]){"x", "tab\there"}, 2, "x tab\there");
    expect_join(NULL, 0, "");
}

static void test_join_single_argument(void **state) {
    (void)state;
    /* A process title is kept verbatim, spaces and all. */
    expect_join((const char *const[]){"ray::Worker idle"}, 1, "ray::Worker idle");
    expect_join((const char *const[]){""}, 1, "");
    /* An absolute path of an existing file is quoted like any argument. */
    char dir[] = "/tmp/nvt_join_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/my prog", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    char expected[80];
    snprintf(expected, sizeof(expected), "\"%s\"", path);
    expect_join((const char *const[]){path}, 1, expected);
    unlink(path);
    rmdir(dir);
    /* A directory is not a file. */
    expect_join((const char *const[]){"/tmp"}, 1, "/tmp");
}

static void test_join_truncates(void **state) {
    (void)state;
    char buf[5];
    const char *const argv[] = {"python3", "a b"};
    assert_int_equal(nvt_command_join(buf, sizeof(buf), argv, 2), 13);
    assert_string_equal(buf, "pyth");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_spec_examples),
        cmocka_unit_test(test_join_quoting_rules),
        cmocka_unit_test(test_join_single_argument),
        cmocka_unit_test(test_join_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
