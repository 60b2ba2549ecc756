/*
 * Helpers for the library's integration tests (see lib_testutil.h).
 */
#include "lib_testutil.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvt_cmocka.h"

static const char *env_or(const char *name, const char *fallback) {
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : fallback;
}

const char *tu_bundled_scenario(const char *name) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", env_or("NVT_SCENARIO_DIR", "sim/scenarios"), name);
    return path;
}

const char *tu_test_scenario(const char *name) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/lib/scenarios/%s", env_or("NVT_SOURCE_DIR", "."), name);
    return path;
}

void tu_use_scenario(const char *path) {
    assert_int_equal(setenv("NVML_SIM_SCENARIO", path, 1), 0);
}

nvt_context *tu_open(const char *scenario_path) {
    tu_use_scenario(scenario_path);
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fail_msg("nvt_open on %s: %s", scenario_path, nvt_strerror(status));
    }
    return ctx;
}

char *tu_temp_dir(void) {
    char templ[] = "/tmp/nvt-lib-test.XXXXXX";
    char *dir = mkdtemp(templ);
    assert_non_null(dir);
    char *copy = strdup(dir);
    assert_non_null(copy);
    return copy;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void tu_remove_tree(const char *path) {
    nftw(path, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

char *tu_read_file(const char *path) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        fail_msg("cannot open %s", path);
    }
    size_t cap = 4096;
    size_t len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n;
    while ((n = fread(text + len, 1, cap - len - 1, in)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            cap *= 2;
            text = realloc(text, cap);
            assert_non_null(text);
        }
    }
    fclose(in);
    text[len] = '\0';
    return text;
}

void tu_write_file(const char *path, const char *text) {
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *out = fopen(tmp, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(text, 1, strlen(text), out), strlen(text));
    assert_int_equal(fclose(out), 0);
    assert_int_equal(rename(tmp, path), 0);
}

char *tu_replace(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    if (at == NULL) {
        fail_msg("\"%s\" not found", from);
    }
    size_t size = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(size);
    assert_non_null(out);
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

unsigned long tu_calls_of(const char *calls_text, const char *name) {
    size_t len = strlen(name);
    const char *line = calls_text;
    while (line != NULL && *line != '\0') {
        if (strncmp(line, name, len) == 0 && line[len] == ' ') {
            return strtoul(line + len + 1, NULL, 10);
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return 0;
}

double tu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

size_t tu_find_slot(const struct nvt_snapshot *snap, const char *uuid) {
    for (size_t i = 0; i < snap->device_count; i++) {
        if (strcmp(snap->devices[i].info.uuid, uuid) == 0) {
            return i;
        }
    }
    return NVT_NA_SIZE;
}
