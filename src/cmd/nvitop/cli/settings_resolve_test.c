/*
 * The settings precedence table (command line > environment > user file > system file >
 * defaults), through the real option parser and the real files: each row sets some of the five
 * sources and names the value that must win.  Also --config FILE and --no-config.
 */
#include "cmd/nvitop/cli/settings_resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvt_cmocka.h"
#include "util/array.h"

static char dir[] = "/tmp/nvt-precedence.XXXXXX";
static char system_path[256];
static char user_dir[256];
static char user_path[300];

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state) {
    (void)state;
    if (mkdtemp(dir) == NULL) {
        return -1;
    }
    snprintf(system_path, sizeof(system_path), "%s/system.conf", dir);
    snprintf(user_dir, sizeof(user_dir), "%s/config/nvitop", dir);
    snprintf(user_path, sizeof(user_path), "%s/nvitop.conf", user_dir);
    char config[300];
    snprintf(config, sizeof(config), "%s/config", dir);
    mkdir(config, 0700);
    mkdir(user_dir, 0700);
    setenv("XDG_CONFIG_HOME", config, 1);
    setenv("NVITOP_SYSTEM_CONFIG", system_path, 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char command[300];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : -1;
}

/* The parser takes a writable argv, as main's: the arguments are copied. */
static char arg_storage[16][300];

static void parse_args(struct nvitop_options *options, const char *const *args) {
    char *argv[17] = {arg_storage[0]};
    snprintf(arg_storage[0], sizeof(arg_storage[0]), "nvitop");
    int argc = 1;
    for (size_t i = 0; args != NULL && args[i] != NULL && argc < 16; i++) {
        snprintf(arg_storage[argc], sizeof(arg_storage[0]), "%s", args[i]);
        argv[argc] = arg_storage[argc];
        argc++;
    }
    assert_int_equal(nvitop_options_parse(options, argc, argv), -1);
}

/* Resolve with these sources (NULL: absent) and argv (NULL-terminated, after "nvitop"). */
static void resolve(const char *system_text, const char *user_text, const char *mode_env,
                    const char *gpu_env, const char *const *args, struct tui_settings *out) {
    unlink(system_path);
    unlink(user_path);
    if (system_text != NULL) {
        write_file(system_path, system_text);
    }
    if (user_text != NULL) {
        write_file(user_path, user_text);
    }
    if (mode_env != NULL) {
        setenv("NVITOP_MONITOR_MODE", mode_env, 1);
    } else {
        unsetenv("NVITOP_MONITOR_MODE");
    }
    if (gpu_env != NULL) {
        setenv("NVITOP_GPU_UTILIZATION_THRESHOLDS", gpu_env, 1);
    } else {
        unsetenv("NVITOP_GPU_UTILIZATION_THRESHOLDS");
    }
    struct nvitop_options options;
    parse_args(&options, args);
    char *save_path = NULL;
    nvitop_settings_resolve(&options, out, &save_path);
    free(save_path);
    nvitop_options_fini(&options);
}

static void test_mode_table(void **state) {
    (void)state;
    static const char sys[] = "[monitor]\nmode = compact\n";
    static const char user[] = "[monitor]\nmode = full\n";
    static const char *const cli[] = {"-m", "auto", NULL};
    static const struct {
        const char *system;
        const char *user;
        const char *env;
        const char *const *args;
        enum view_display_mode expected;
    } rows[] = {
        {NULL, NULL, NULL, NULL, VIEW_MODE_AUTO},        /* defaults */
        {sys, NULL, NULL, NULL, VIEW_MODE_COMPACT},      /* system file */
        {sys, user, NULL, NULL, VIEW_MODE_FULL},         /* user file over system file */
        {sys, user, "compact", NULL, VIEW_MODE_COMPACT}, /* environment over files */
        {sys, user, "compact", cli, VIEW_MODE_AUTO},     /* command line over everything */
        {NULL, user, "light", NULL, VIEW_MODE_FULL},     /* env without a mode keeps the file's */
    };
    for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
        struct tui_settings s;
        resolve(rows[i].system, rows[i].user, rows[i].env, NULL, rows[i].args, &s);
        if (s.mode != rows[i].expected) {
            fail_msg("row %zu: mode %d, expected %d", i, (int)s.mode, (int)rows[i].expected);
        }
    }
}

static void test_colors_and_thresholds_table(void **state) {
    (void)state;
    static const char sys[] = "[monitor]\ntheme = light\ncolors = colorful\n"
                              "gpu-util-thresh = 20 60\ninterval = 3\n";
    static const char user[] = "[monitor]\ntheme = dark\ngpu-util-thresh = 30 70\n";
    static const char *const cli_light[] = {"--light", "--gpu-util-thresh", "50", "90", NULL};
    static const char *const cli_interval[] = {"--interval", "0.5", NULL};
    struct tui_settings s;

    resolve(sys, NULL, NULL, NULL, NULL, &s);
    assert_true(s.light && s.colorful);
    assert_int_equal(s.thresholds.gpu_low, 20);
    assert_true(s.interval_s == 3.0);

    resolve(sys, user, NULL, NULL, NULL, &s);
    assert_false(s.light);   /* user's theme */
    assert_true(s.colorful); /* the system file's key the user file does not name */
    assert_int_equal(s.thresholds.gpu_low, 30);
    assert_int_equal(s.thresholds.gpu_high, 70);

    /* NVITOP_MONITOR_MODE's plain and light tokens, and the threshold variable. */
    resolve(sys, user, "plain,light", "40,80", NULL, &s);
    assert_true(s.light);
    assert_false(s.colorful);
    assert_int_equal(s.thresholds.gpu_low, 40);
    assert_int_equal(s.thresholds.gpu_high, 80);

    resolve(sys, user, "dark", "40,80", cli_light, &s);
    assert_true(s.light);
    assert_int_equal(s.thresholds.gpu_low, 50);
    assert_int_equal(s.thresholds.gpu_high, 90);
    assert_int_equal(s.thresholds.mem_low, 10); /* default: nobody set it */
    assert_int_equal(s.thresholds.mem_high, 80);

    resolve(sys, user, NULL, NULL, cli_interval, &s);
    assert_true(s.interval_s == 0.5);
}

static void test_config_options(void **state) {
    (void)state;
    char other[300];
    snprintf(other, sizeof(other), "%s/other.conf", dir);
    write_file(other, "[layout]\nhost-panel = hide\n");
    const char *const use_other[] = {"--config", other, NULL};
    const char *const none[] = {"--no-config", NULL};
    static const char sys[] = "[monitor]\nmode = compact\n";
    static const char user[] = "[layout]\nprocess-panel = hide\n";
    struct tui_settings s;

    /* --config FILE: that file only (neither the system nor the user file). */
    resolve(sys, user, NULL, NULL, use_other, &s);
    assert_true(s.hide_host);
    assert_false(s.hide_processes);
    assert_int_equal(s.mode, VIEW_MODE_AUTO);

    /* --no-config: no file at all. */
    resolve(sys, user, NULL, NULL, none, &s);
    struct tui_settings defaults;
    tui_settings_defaults(&defaults);
    assert_memory_equal(&s, &defaults, sizeof(s));

    /* Where S saves: the user file, or the --config file. */
    struct nvitop_options options;
    parse_args(&options, NULL);
    char *save_path = NULL;
    nvitop_settings_resolve(&options, &s, &save_path);
    assert_string_equal(save_path, user_path);
    free(save_path);
    nvitop_options_fini(&options);
    parse_args(&options, use_other);
    nvitop_settings_resolve(&options, &s, &save_path);
    assert_string_equal(save_path, other);
    free(save_path);
    nvitop_options_fini(&options);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_table),
        cmocka_unit_test(test_colors_and_thresholds_table),
        cmocka_unit_test(test_config_options),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
