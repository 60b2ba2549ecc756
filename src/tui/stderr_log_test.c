/*
 * Unit tests of the monitor's stderr log: where it is, and that file descriptor 2 goes there and
 * comes back.
 */
#include "tui/stderr_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvt_cmocka.h"

static void test_path(void **state) {
    (void)state;
    char path[PATH_MAX];
    assert_true(stderr_log_path("/x/state", "/home/u", path, sizeof(path)));
    assert_string_equal(path, "/x/state/nvitop/nvitop.log");
    /* A relative XDG_STATE_HOME is ignored, as the XDG rules say. */
    assert_true(stderr_log_path("state", "/home/u", path, sizeof(path)));
    assert_string_equal(path, "/home/u/.local/state/nvitop/nvitop.log");
    assert_true(stderr_log_path(NULL, "/home/u", path, sizeof(path)));
    assert_string_equal(path, "/home/u/.local/state/nvitop/nvitop.log");
    assert_false(stderr_log_path(NULL, NULL, path, sizeof(path)));
    assert_false(stderr_log_path("", "", path, sizeof(path)));
    assert_false(stderr_log_path("/x", NULL, path, 8)); /* does not fit */
}

static void test_redirect_and_restore(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt-stderr-log.XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(setenv("XDG_STATE_HOME", dir, 1), 0);
    struct stderr_log log;
    assert_true(stderr_log_start(&log));
    char expected[PATH_MAX];
    snprintf(expected, sizeof(expected), "%s/nvitop/nvitop.log", dir);
    assert_string_equal(log.path, expected);
    assert_false(stderr_log_stop(&log)); /* nothing written */
    assert_true(stderr_log_start(&log));
    fputs("a driver complains\n", stderr);
    assert_true(stderr_log_stop(&log));
    assert_false(stderr_log_stop(&log)); /* idempotent */
    FILE *f = fopen(expected, "r");
    assert_non_null(f);
    char line[64] = "";
    assert_non_null(fgets(line, sizeof(line), f));
    fclose(f);
    assert_string_equal(line, "a driver complains\n");
    unlink(expected);
    snprintf(expected, sizeof(expected), "%s/nvitop", dir);
    rmdir(expected);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_redirect_and_restore),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
