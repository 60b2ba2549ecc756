/*
 * Helpers for the library's integration tests: scenario paths, opening a context on a scenario,
 * rewriting scenario copies atomically, and reading the simulator's call-count file.  Every
 * helper fails the running cmocka test on error.
 */
#ifndef NVITOP_TESTS_SUPPORT_LIB_TESTUTIL_H
#define NVITOP_TESTS_SUPPORT_LIB_TESTUTIL_H

#include <stddef.h>

#include <nvitop/nvitop.h>

/* Path of a bundled scenario (sim/scenarios/<name>) or of one of ours (tests/lib/scenarios/),
 * in a static buffer valid until the next call. */
const char *tu_bundled_scenario(const char *name);
const char *tu_test_scenario(const char *name);

/* Point the simulator at a scenario file (for the next nvt_open). */
void tu_use_scenario(const char *path);

/* Open a context on a scenario with the default options; fails the test unless NVT_OK. */
nvt_context *tu_open(const char *scenario_path);

/* A fresh temporary directory (removed by tu_remove_tree); returns a malloc'ed path. */
char *tu_temp_dir(void);
void tu_remove_tree(const char *path);

/* Read a whole file (malloc'ed, NUL-terminated) or write one atomically (temp + rename). */
char *tu_read_file(const char *path);
void tu_write_file(const char *path, const char *text);

/* Replace the first occurrence of from by to in a malloc'ed string; returns a new string. */
char *tu_replace(const char *text, const char *from, const char *to);

/* The count of one entry point in a simulator call-count file (0 when absent). */
unsigned long tu_calls_of(const char *calls_text, const char *name);

/* Monotonic seconds, for polling with a deadline. */
double tu_now(void);

/* Slot of the device with this UUID (the snapshot needs NVT_SAMPLE_INFO), or NVT_NA_SIZE. */
size_t tu_find_slot(const struct nvt_snapshot *snap, const char *uuid);

#endif /* NVITOP_TESTS_SUPPORT_LIB_TESTUTIL_H */
