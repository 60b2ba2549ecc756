/*
 * Scratch directories for the recording's unit tests (record_test, record_reader_test): made
 * under /tmp, emptied and removed afterwards.  Test code only; a failure to make one ends the
 * test program.
 */
#ifndef NVITOP_TESTS_SUPPORT_TEST_DIR_H
#define NVITOP_TESTS_SUPPORT_TEST_DIR_H

/* A new empty directory /tmp/nvt-<name>-XXXXXX; the caller frees it with test_dir_remove(). */
char *test_dir_make(const char *name);

/* "<dir>/<file>", malloc'ed (the caller frees it). */
char *test_dir_path(const char *dir, const char *file);

/* Remove the files in dir, then dir itself, and free the string. */
void test_dir_remove(char *dir);

#endif /* NVITOP_TESTS_SUPPORT_TEST_DIR_H */
