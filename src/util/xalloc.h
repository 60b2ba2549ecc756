/*
 * Abort-on-failure allocators for PROGRAMS ONLY (the library checks every allocation and never
 * uses these; scripts/check-layers.py enforces that).  On failure the fatal hook runs first (the
 * monitor restores the terminal there), then a message goes to stderr and the program aborts.
 */
#ifndef NVITOP_SRC_UTIL_XALLOC_H
#define NVITOP_SRC_UTIL_XALLOC_H

#include <stddef.h>

/* Install the function run before aborting (NULL removes it).  Set it once at start-up from the
 * main thread; the hook must be async-signal-safe enough to run with the heap exhausted. */
void xalloc_set_fatal_hook(void (*hook)(void));

/* malloc/calloc/realloc/strdup that never return NULL.  A zero size allocates one byte. */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *text);

#endif /* NVITOP_SRC_UTIL_XALLOC_H */
