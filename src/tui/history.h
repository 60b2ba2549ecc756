/*
 * A metric's history for the Braille graphs (docs/nvitop-behaviour.md §3.4): values are averaged
 * over one-second buckets; buckets skipped between two samples are filled by linear interpolation;
 * up to HISTORY_CAPACITY buckets are kept.  N/A (NaN) is stored as NaN and drawn empty.  Not
 * thread-safe (the UI thread owns its histories).
 */
#ifndef NVITOP_SRC_TUI_HISTORY_H
#define NVITOP_SRC_TUI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "util/ring.h"

#define HISTORY_CAPACITY 2049

struct history {
    struct ring values; /* doubles, oldest first */
    double bucket_start;
    double bucket_sum;
    size_t bucket_count;   /* values in the open bucket other than N/A */
    size_t bucket_samples; /* values in the open bucket, N/A included */
    bool started;
};

/* Returns false when out of memory (the history is then empty and safe to fini). */
bool history_init(struct history *history);
void history_fini(struct history *history);

/* Start the buckets at start_s, the time the graph was made, as nvitop's graphs count from their
 * creation: the first bucket closes with the first value at or after start_s + 1 s.  Without this
 * call the buckets start at the first value's time (a recording's graphs, on its own clock).  Call
 * before the first history_add(). */
void history_start(struct history *history, double start_s);

/* Record value (NaN for N/A) observed at time now_s (monotonic seconds).  A bucket closes when a
 * value comes a second or more after it began and it holds at least one value (N/A counts). */
void history_add(struct history *history, double now_s, double value);

/* Number of completed buckets. */
size_t history_count(const struct history *history);

/* Bucket i counted back from the newest (0); NaN when missing or N/A. */
double history_at(const struct history *history, size_t i);

/* The value labels show: the newest completed bucket, or the running mean of the open bucket
 * when none is complete yet; NaN when nothing is known. */
double history_last(const struct history *history);

#endif /* NVITOP_SRC_TUI_HISTORY_H */
