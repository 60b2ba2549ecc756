/*
 * Unit tests of the settings file: every key, every kind of bad line (with its file:line
 * message, and the other keys still applied), the save and reload round trip, and the atomic
 * write (no temporary left, the old file intact when the write cannot happen).
 */
#include "settings/settings.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvt_cmocka.h"
#include "util/array.h"

/* The warnings of one parse, one "file:line: message" per line. */
static char warnings[4096];

static void collect(void *context, const char *file, unsigned line, const char *message) {
    (void)context;
    size_t used = strlen(warnings);
    if (line > 0) {
        snprintf(warnings + used, sizeof(warnings) - used, "%s:%u: %s\n", file, line, message);
    } else {
        snprintf(warnings + used, sizeof(warnings) - used, "%s: %s\n", file, message);
    }
}

static unsigned parse(struct tui_settings *s, const char *text) {
    warnings[0] = '\0';
    tui_settings_defaults(s);
    return tui_settings_parse(s, text, strlen(text), "t.conf", collect, NULL);
}

static void test_every_key(void **state) {
    (void)state;
    struct tui_settings s;
    assert_int_equal(
        parse(
            &s,
            "# comment\n; comment\n\n[monitor] # the monitor\nmode = compact\n"
            "theme=light # a comment\n  colors =  colorful  \r\ninterval = 0.5\t; another\n"
            "gpu-util-thresh = 90 20\nmem-util-thresh = 5 60\n"
            "sort = cpu\nsort-order = reversed\n[layout]\n"
            "host-panel = hide\nprocess-panel = hide\nbandwidth = hide\n"
            "graph-upper = pcie-rx\ngraph-lower = power\ngraph-height = 8\n"
            "[collect]\nformat = jsonl\ninterval = 0.5\nevery = 10\n"
            "tag = run-1\nprocesses = all\nstatistics = cumulative\n"
            "[cluster]\ncolumns = host, util,health,history\ngroup = rack=(r\\d+)\nhistory = 60\n"),
        0);
    assert_string_equal(warnings, "");
    assert_int_equal(s.mode, VIEW_MODE_COMPACT);
    assert_true(s.light);
    assert_true(s.colorful);
    assert_true(s.interval_s == 0.5);
    assert_int_equal(s.thresholds.gpu_low, 20);
    assert_int_equal(s.thresholds.gpu_high, 90);
    assert_int_equal(s.thresholds.mem_low, 5);
    assert_int_equal(s.thresholds.mem_high, 60);
    assert_int_equal(s.sort, VIEW_SORT_CPU_PERCENT);
    assert_true(s.reverse);
    assert_true(s.hide_host);
    assert_true(s.hide_processes);
    assert_true(s.hide_bandwidth);
    assert_int_equal(s.graph_upper, TUI_GRAPH_PCIE_RX);
    assert_int_equal(s.graph_lower, TUI_GRAPH_POWER);
    assert_int_equal(s.graph_height, 8);
    assert_int_equal(s.collect.format, TUI_COLLECT_FORMAT_JSONL);
    assert_true(s.collect.interval_s == 0.5);
    assert_true(s.collect.every_s == 10.0);
    assert_string_equal(s.collect.tag, "run-1");
    assert_true(s.collect.all_processes);
    assert_true(s.collect.cumulative);
    assert_int_equal(s.cluster.columns, (1u << 0) | (1u << 3) | (1u << 10) | (1u << 11));
    assert_true(s.cluster.history_named);
    assert_true(s.cluster.history_s == 60.0);
    assert_string_equal(s.cluster.group, "rack=(r\\d+)");
}

/* Each bad line: its message, and the default kept for that key while the good keys apply. */
static void test_bad_lines(void **state) {
    (void)state;
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"mode = full\n", "t.conf:1: unknown key 'mode' (keys go under [monitor], [layout], "
                          "[collect] or [cluster])\n"},
        {"[monitor]\nmood = full\n", "t.conf:2: unknown key 'mood' in [monitor]\n"},
        {"[layout]\nmode = full\n", "t.conf:2: unknown key 'mode' in [layout]\n"},
        {"[colors]\nmode = full\n", "t.conf:1: unknown section [colors] (expected [monitor], "
                                    "[layout], [collect] or [cluster])\n"},
        {"[monitor\n", "t.conf:1: expected a section header like [monitor]\n"},
        {"[]\n", "t.conf:1: expected a section header like [monitor]\n"},
        {"[monitor]\nmode full\n", "t.conf:2: expected 'key = value'\n"},
        {"[monitor]\n= full\n", "t.conf:2: expected 'key = value'\n"},
        {"[monitor]\nmode = huge\n",
         "t.conf:2: mode: invalid value 'huge' (expected one of: auto, full, compact)\n"},
        {"[monitor]\nmode =\n",
         "t.conf:2: mode: invalid value '' (expected one of: auto, full, compact)\n"},
        {"[monitor]\ntheme = blue\n",
         "t.conf:2: theme: invalid value 'blue' (expected one of: dark, light)\n"},
        {"[monitor]\ncolors = yes\n",
         "t.conf:2: colors: invalid value 'yes' (expected one of: plain, colorful)\n"},
        {"[monitor]\ninterval = 0.1\n", "t.conf:2: interval: invalid value '0.1' (expected "
                                        "seconds from 0.25 to 3600, or default)\n"},
        {"[monitor]\ninterval = fast\n", "t.conf:2: interval: invalid value 'fast' (expected "
                                         "seconds from 0.25 to 3600, or default)\n"},
        {"[monitor]\ngpu-util-thresh = 10\n", "t.conf:2: gpu-util-thresh: invalid value '10' "
                                              "(expected two integers from 1 to 99)\n"},
        {"[monitor]\nmem-util-thresh = 10 100\n",
         "t.conf:2: mem-util-thresh: invalid value "
         "'10 100' (expected two integers from 1 to 99)\n"},
        {"[monitor]\ngpu-util-thresh = 1 2 3\n", "t.conf:2: gpu-util-thresh: invalid value "
                                                 "'1 2 3' (expected two integers from 1 to 99)\n"},
        {"[monitor]\nsort = size\n",
         "t.conf:2: sort: invalid value 'size' (expected one of: natural, pid, user, "
         "gpu-memory, sm, gmbw, cpu, memory, time)\n"},
        {"[monitor]\nsort-order = up\n",
         "t.conf:2: sort-order: invalid value 'up' (expected one of: default, reversed)\n"},
        {"[layout]\nhost-panel = no\n",
         "t.conf:2: host-panel: invalid value 'no' (expected one of: hide, show)\n"},
        {"[layout]\nbandwidth = off\n",
         "t.conf:2: bandwidth: invalid value 'off' (expected one of: hide, show)\n"},
        {"[layout]\ngraph-upper = fan\n",
         "t.conf:2: graph-upper: invalid value 'fan' (expected one of: gpu-util, memory, "
         "power, pcie-rx, pcie-tx, mem-bandwidth)\n"},
        {"[layout]\ngraph-height = 11\n",
         "t.conf:2: graph-height: invalid value '11' (expected an integer from 2 to 10)\n"},
        {"[cluster]\ncolumns = host,fans\n",
         "t.conf:2: columns: invalid value 'host,fans' (expected all, or some of: host, gpus, mig, "
         "util, max, memory, power, temp, procs, age, health, history, users)\n"},
        {"[cluster]\nhistory = 10\n",
         "t.conf:2: history: invalid value '10' (expected seconds from 20 to 3600)\n"},
        {"[collect]\nformat = xml\n",
         "t.conf:2: format: invalid value 'xml' (expected one of: auto, csv, jsonl)\n"},
        {"[collect]\ninterval = 0.2\n",
         "t.conf:2: interval: invalid value '0.2' (expected seconds from 0.25, or default)\n"},
        {"[collect]\nevery = 0\n",
         "t.conf:2: every: invalid value '0' (expected seconds from 0.01, or default)\n"},
        {"[collect]\ntag =\n", "t.conf:2: tag: invalid value '' (expected 1 to 63 characters)\n"},
        {"[collect]\ntag=#run\n",
         "t.conf:2: tag: invalid value '#run' (a tag cannot start with '#' or ';')\n"},
        {"[collect]\nprocesses = some\n",
         "t.conf:2: processes: invalid value 'some' (expected one of: job, all)\n"},
        {"[collect]\nstatistics = total\n",
         "t.conf:2: statistics: invalid value 'total' (expected one of: window, cumulative)\n"},
        {"[collect]\nmode = full\n", "t.conf:2: unknown key 'mode' in [collect]\n"},
        {"[layout]\ngraph-height = 1\n",
         "t.conf:2: graph-height: invalid value '1' (expected an integer from 2 to 10)\n"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct tui_settings s;
        char text[512];
        /* A good key after the bad line still applies. */
        snprintf(text, sizeof(text), "%s[layout]\nprocess-panel = hide\n", cases[i].text);
        assert_int_equal(parse(&s, text), 1);
        assert_string_equal(warnings, cases[i].message);
        struct tui_settings defaults;
        tui_settings_defaults(&defaults);
        defaults.hide_processes = true;
        assert_memory_equal(&s, &defaults, sizeof(s));
    }
}

static void test_nul_and_long_lines(void **state) {
    (void)state;
    struct tui_settings s;
    tui_settings_defaults(&s);
    static const char text[] = "[monitor]\nmode = f\0ull\nmode = compact";
    warnings[0] = '\0';
    assert_int_equal(tui_settings_parse(&s, text, sizeof(text) - 1, "t.conf", collect, NULL), 1);
    assert_string_equal(warnings, "t.conf:2: line contains a NUL byte\n");
    assert_int_equal(s.mode, VIEW_MODE_COMPACT);

    char big[400] = "[monitor]\nmode = ";
    memset(big + strlen(big), 'x', 200);
    assert_int_equal(parse(&s, big), 1);
    assert_string_equal(warnings, "t.conf:2: mode: value too long\n");
}

static void make_dir(char *dir) {
    assert_non_null(mkdtemp(dir));
}

static void remove_tree(const char *dir) {
    char command[512];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

static void test_save_and_reload(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt-settings.XXXXXX";
    make_dir(dir);
    char path[256];
    /* The directory is created (two levels, as ~/.config/nvitop). */
    snprintf(path, sizeof(path), "%s/config/nvitop/nvitop.conf", dir);
    struct tui_settings saved;
    tui_settings_defaults(&saved);
    saved.mode = VIEW_MODE_FULL;
    saved.light = true;
    saved.interval_s = 1.5;
    saved.thresholds = (struct view_thresholds){5, 50, 20, 70};
    saved.sort = VIEW_SORT_TIME;
    saved.reverse = true;
    saved.hide_host = true;
    saved.graph_upper = TUI_GRAPH_MEMORY_BANDWIDTH;
    saved.graph_lower = TUI_GRAPH_PCIE_TX;
    saved.graph_height = 3;
    saved.interval_s = 0.3; /* not exact in binary: must read back the same */
    saved.collect =
        (struct tui_collect_settings){TUI_COLLECT_FORMAT_CSV, 2.5, 60.0, "tagged", true, false};
    assert_int_equal(tui_settings_save(&saved, path), 0);
    struct tui_settings loaded;
    tui_settings_defaults(&loaded);
    warnings[0] = '\0';
    assert_int_equal(tui_settings_load(&loaded, path, false, collect, NULL), 0);
    assert_string_equal(warnings, "");
    assert_memory_equal(&loaded, &saved, sizeof(saved));

    /* Saving again replaces the file; no temporary file is left beside it. */
    saved.mode = VIEW_MODE_COMPACT;
    assert_int_equal(tui_settings_save(&saved, path), 0);
    char nvitop_dir[300];
    snprintf(nvitop_dir, sizeof(nvitop_dir), "%s/config/nvitop", dir);
    DIR *d = opendir(nvitop_dir);
    assert_non_null(d);
    size_t entries = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            assert_string_equal(e->d_name, "nvitop.conf");
            entries++;
        }
    }
    closedir(d);
    assert_int_equal(entries, 1);
    tui_settings_defaults(&loaded);
    assert_int_equal(tui_settings_load(&loaded, path, false, collect, NULL), 0);
    assert_int_equal(loaded.mode, VIEW_MODE_COMPACT);

    /* Through a symbolic link: the link stays, its target gets the new text. */
    char link_path[300];
    snprintf(link_path, sizeof(link_path), "%s/link.conf", dir);
    assert_int_equal(symlink(path, link_path), 0);
    saved.mode = VIEW_MODE_AUTO;
    assert_int_equal(tui_settings_save(&saved, link_path), 0);
    struct stat st;
    assert_int_equal(lstat(link_path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    tui_settings_defaults(&loaded);
    loaded.mode = VIEW_MODE_FULL;
    assert_int_equal(tui_settings_load(&loaded, path, false, collect, NULL), 0);
    assert_int_equal(loaded.mode, VIEW_MODE_AUTO);
    remove_tree(dir);
}

/* A write that cannot finish leaves the old file whole: here the directory is read-only, so the
 * temporary file cannot be made (as root, a directory path in place of the file is used instead:
 * the rename fails after the temporary was written, and the temporary is removed). */
static void test_atomic_write(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt-settings.XXXXXX";
    make_dir(dir);
    char path[256];
    snprintf(path, sizeof(path), "%s/nvitop.conf", dir);
    struct tui_settings s;
    tui_settings_defaults(&s);
    assert_int_equal(tui_settings_save(&s, path), 0);
    struct stat before;
    assert_int_equal(stat(path, &before), 0);

    /* A directory where the file should be: the rename fails, nothing is left behind. */
    char blocked[300];
    snprintf(blocked, sizeof(blocked), "%s/sub", dir);
    assert_int_equal(mkdir(blocked, 0700), 0);
    char inner[320];
    snprintf(inner, sizeof(inner), "%s/keep", blocked);
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_not_equal(tui_settings_save(&s, blocked), 0);
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t entries = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        entries += e->d_name[0] != '.' ? 1 : 0;
    }
    closedir(d);
    assert_int_equal(entries, 2); /* nvitop.conf and sub: no temporary */

    /* Unreadable or missing files: a file-level warning (line 0), or silence when asked. */
    char missing[300];
    snprintf(missing, sizeof(missing), "%s/none.conf", dir);
    warnings[0] = '\0';
    assert_int_equal(tui_settings_load(&s, missing, true, collect, NULL), 0);
    assert_string_equal(warnings, "");
    assert_int_equal(tui_settings_load(&s, missing, false, collect, NULL), 1);
    char expected[400];
    snprintf(expected, sizeof(expected), "%s: No such file or directory\n", missing);
    assert_string_equal(warnings, expected);
    warnings[0] = '\0';
    assert_int_equal(tui_settings_load(&s, blocked, false, collect, NULL), 1);
    snprintf(expected, sizeof(expected), "%s: Is a directory\n", blocked);
    assert_string_equal(warnings, expected);
    remove_tree(dir);
}

static void test_user_path(void **state) {
    (void)state;
    setenv("XDG_CONFIG_HOME", "/x/conf", 1);
    setenv("HOME", "/home/u", 1);
    char *path = tui_settings_user_path();
    assert_string_equal(path, "/x/conf/nvitop/nvitop.conf");
    free(path);
    setenv("XDG_CONFIG_HOME", "relative", 1); /* ignored, as the XDG rules say */
    path = tui_settings_user_path();
    assert_string_equal(path, "/home/u/.config/nvitop/nvitop.conf");
    free(path);
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HOME");
    assert_null(tui_settings_user_path());
    unsetenv("NVITOP_SYSTEM_CONFIG");
    assert_string_equal(tui_settings_system_path(), "/etc/nvitop/nvitop.conf");
    setenv("NVITOP_SYSTEM_CONFIG", "/opt/n.conf", 1);
    assert_string_equal(tui_settings_system_path(), "/opt/n.conf");
}

/* The file the packages install as /etc/nvitop/nvitop.conf (dist/nvitop.conf): every key the S
 * key writes is in it, commented out with its default, so that it documents the defaults and
 * changes nothing until a line is uncommented. */
static void test_shipped_file(void **state) {
    (void)state;
    FILE *f = fopen(NVT_DIST_DIR "/nvitop.conf", "r");
    assert_non_null(f);
    static char shipped[8192];
    size_t length = fread(shipped, 1, sizeof(shipped) - 1, f);
    assert_true(length < sizeof(shipped) - 1);
    fclose(f);
    shipped[length] = '\0';

    struct tui_settings parsed;
    assert_int_equal(parse(&parsed, shipped), 0);
    assert_string_equal(warnings, "");
    struct tui_settings defaults;
    tui_settings_defaults(&defaults);
    struct strbuf want = {0};
    struct strbuf got = {0};
    assert_true(tui_settings_format(&defaults, &want));
    assert_true(tui_settings_format(&parsed, &got));
    assert_string_equal(strbuf_cstr(&got), strbuf_cstr(&want));

    /* Each section and each key line of the written file, commented out, is a line of the
     * shipped one. */
    const char *line = strbuf_cstr(&want);
    while (*line != '\0') {
        size_t n = strcspn(line, "\n");
        if (n > 0 && line[0] != '#') {
            char expect[256];
            snprintf(expect, sizeof(expect), "\n%s%.*s\n", line[0] == '[' ? "" : "# ", (int)n,
                     line);
            if (strstr(shipped, expect) == NULL) {
                fail_msg("dist/nvitop.conf lacks the line %s", expect + 1);
            }
        }
        line += n + (line[n] == '\n');
    }
    strbuf_fini(&want);
    strbuf_fini(&got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_key),          cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_nul_and_long_lines), cmocka_unit_test(test_save_and_reload),
        cmocka_unit_test(test_atomic_write),       cmocka_unit_test(test_user_path),
        cmocka_unit_test(test_shipped_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
