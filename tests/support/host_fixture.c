#include "host_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NVT_TEST_SOURCE_DIR
#define NVT_TEST_SOURCE_DIR "."
#endif

static void die(const char *what, const char *path) {
    fprintf(stderr, "host test setup: %s %s failed\n", what, path);
    abort();
}

void fixture_path(char *buf, size_t size, const char *name) {
    const char *source = getenv("NVT_SOURCE_DIR");
    if (source == NULL || source[0] == '\0') {
        source = NVT_TEST_SOURCE_DIR;
    }
    snprintf(buf, size, "%s/tests/fixtures/proc/%s", source, name);
}

/* The shell quoting here is safe: both paths are ours and hold no single quotes. */
void fixture_copy(char *buf, size_t size, const char *name) {
    char source[1024];
    fixture_path(source, sizeof(source), name);
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, size, "%s/nvt_host_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(buf) == NULL) {
        die("mkdtemp", buf);
    }
    char command[2600];
    snprintf(command, sizeof(command), "cp -R '%s/.' '%s'", source, buf);
    if (system(command) != 0) {
        die("copy of", source);
    }
}

void fixture_remove(const char *dir) {
    char command[1100];
    snprintf(command, sizeof(command), "chmod -R u+rwX '%s' && rm -rf '%s'", dir, dir);
    if (system(command) != 0) {
        die("removal of", dir);
    }
}

void fixture_write(const char *dir, const char *relative, const char *text) {
    char path[1200];
    snprintf(path, sizeof(path), "%s/%s", dir, relative);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        die("writing", path);
    }
    fputs(text, f);
    fclose(f);
}
