/* Helpers for the host tests: fixture trees under tests/fixtures/proc and scratch copies. */
#ifndef NVITOP_TESTS_SUPPORT_HOST_FIXTURE_H
#define NVITOP_TESTS_SUPPORT_HOST_FIXTURE_H

#include <stddef.h>

/* The path of tests/fixtures/proc/<name> (from NVT_SOURCE_DIR) in buf. */
void fixture_path(char *buf, size_t size, const char *name);

/* Copy fixture <name> into a fresh temporary directory, whose path goes to buf.  Aborts the test
 * on failure. */
void fixture_copy(char *buf, size_t size, const char *name);

/* Remove a directory tree made by fixture_copy(). */
void fixture_remove(const char *dir);

/* Write text to dir/relative, replacing the file. */
void fixture_write(const char *dir, const char *relative, const char *text);

#endif /* NVITOP_TESTS_SUPPORT_HOST_FIXTURE_H */
