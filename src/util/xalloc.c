#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one piece of process-wide state in util: the program sets it once at start-up so that an
 * out-of-memory abort leaves the terminal usable. */
static void (*fatal_hook)(void);

void xalloc_set_fatal_hook(void (*hook)(void)) {
    fatal_hook = hook;
}

static void out_of_memory(size_t size) {
    if (fatal_hook != NULL) {
        void (*hook)(void) = fatal_hook;
        fatal_hook = NULL; /* a hook that allocates must not recurse forever */
        hook();
    }
    fprintf(stderr, "nvitop: out of memory (allocating %zu bytes)\n", size);
    abort();
}

void *xmalloc(size_t size) {
    void *ptr = malloc(size == 0 ? 1 : size);
    if (ptr == NULL) {
        out_of_memory(size);
    }
    return ptr;
}

void *xcalloc(size_t count, size_t size) {
    if (count == 0 || size == 0) {
        count = 1;
        size = 1;
    }
    void *ptr = calloc(count, size);
    if (ptr == NULL) {
        out_of_memory(size);
    }
    return ptr;
}

void *xrealloc(void *ptr, size_t size) {
    void *grown = realloc(ptr, size == 0 ? 1 : size);
    if (grown == NULL) {
        out_of_memory(size);
    }
    return grown;
}

char *xstrdup(const char *text) {
    size_t len = strlen(text) + 1;
    char *copy = xmalloc(len);
    memcpy(copy, text, len);
    return copy;
}
