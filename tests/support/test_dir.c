/* Scratch directories for the recording's unit tests (test_dir.h). */
#include "test_dir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *or_die(void *p, const char *what) {
    if (p == NULL) {
        perror(what);
        exit(1);
    }
    return p;
}

char *test_dir_make(const char *name) {
    char tmpl[256];
    snprintf(tmpl, sizeof(tmpl), "/tmp/nvt-%s-XXXXXX", name);
    or_die(mkdtemp(tmpl), "mkdtemp");
    return or_die(strdup(tmpl), "strdup");
}

char *test_dir_path(const char *dir, const char *file) {
    size_t n = strlen(dir) + strlen(file) + 2;
    char *p = or_die(malloc(n), "malloc");
    snprintf(p, n, "%s/%s", dir, file);
    return p;
}

void test_dir_remove(char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') {
            char *p = test_dir_path(dir, e->d_name);
            unlink(p);
            free(p);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}
