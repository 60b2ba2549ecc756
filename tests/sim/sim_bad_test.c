/*
 * Malformed scenarios: each file in tests/sim/bad/ makes init fail with NVML_ERROR_UNKNOWN and
 * prints exactly the line tests/sim/bad/expected.txt gives for it ("<file>:<line>:<column>:
 * <message>"); the driver stays uninitialised.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvt_cmocka.h"
#include "sim_support.h"

static struct sim_api api;

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/tests/sim/bad", getenv("NVT_SOURCE_DIR"));
    assert_int_equal(chdir(dir), 0);
    unsetenv("NVT_SIM_TEST_NEVER_SET");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_api_unload(&api);
    return 0;
}

static void check_one(const char *expected) {
    char file[256];
    size_t len = strcspn(expected, ":");
    assert_true(len < sizeof(file));
    memcpy(file, expected, len);
    file[len] = '\0';
    setenv("NVML_SIM_SCENARIO", file, 1);
    char err[1024];
    nvmlReturn_t ret = sim_init_capturing(&api, err, sizeof(err));
    print_message("%s", err);
    assert_int_equal(ret, NVML_ERROR_UNKNOWN);
    char line[1200];
    snprintf(line, sizeof(line), "%s\n", expected);
    assert_string_equal(err, line);
    unsigned int count = 0;
    assert_int_equal(api.nvmlDeviceGetCount_v2(&count), NVML_ERROR_UNINITIALIZED);
}

static void test_every_bad_file_has_its_message(void **state) {
    (void)state;
    FILE *f = fopen("expected.txt", "r");
    assert_non_null(f);
    char line[1100];
    size_t checked = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') {
            continue;
        }
        check_one(line);
        checked++;
    }
    fclose(f);
    /* Every bad file is listed: a new file without an expectation fails here. */
    size_t files = 0;
    DIR *dir = opendir(".");
    assert_non_null(dir);
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        size_t n = strlen(e->d_name);
        files += n > 5 && strcmp(e->d_name + n - 5, ".json") == 0 ? 1 : 0;
    }
    closedir(dir);
    assert_int_equal(checked, files);
    assert_true(checked >= 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_bad_file_has_its_message),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
