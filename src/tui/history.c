/*
 * Bucketed metric histories (see history.h).
 */
#include "tui/history.h"

#include <math.h>

bool history_init(struct history *history) {
    history->bucket_start = 0.0;
    history->bucket_sum = 0.0;
    history->bucket_count = 0;
    history->bucket_samples = 0;
    history->started = false;
    return ring_init(&history->values, sizeof(double), HISTORY_CAPACITY);
}

void history_fini(struct history *history) {
    ring_fini(&history->values);
}

static void push(struct history *history, double value) {
    ring_push(&history->values, &value);
}

/* Close the open bucket and fill the buckets skipped until the one that holds now_s. */
static void close_buckets(struct history *history, double now_s, double value) {
    double mean =
        history->bucket_count > 0 ? history->bucket_sum / (double)history->bucket_count : NAN;
    /* The first bucket is never followed by filled ones: nvitop interpolates from a previous
     * value only (a first value that came late after the graph was made). */
    bool first = history->values.count == 0;
    push(history, mean);
    double elapsed = floor(now_s - history->bucket_start);
    size_t skipped = elapsed > 1.0 && !first ? (size_t)(elapsed - 1.0) : 0;
    if (skipped > HISTORY_CAPACITY) {
        skipped = HISTORY_CAPACITY;
    }
    for (size_t k = 1; k <= skipped; k++) {
        double t = (double)k / (double)(skipped + 1);
        push(history, isnan(mean) || isnan(value) ? NAN : mean + (value - mean) * t);
    }
    history->bucket_start += elapsed;
    history->bucket_sum = 0.0;
    history->bucket_count = 0;
    history->bucket_samples = 0;
}

void history_start(struct history *history, double start_s) {
    if (!history->started) {
        history->started = true;
        history->bucket_start = start_s;
    }
}

void history_add(struct history *history, double now_s, double value) {
    if (history->values.capacity == 0) {
        return; /* failed init */
    }
    if (!history->started) {
        history->started = true;
        history->bucket_start = now_s;
    } else if (now_s >= history->bucket_start + 1.0 && history->bucket_samples > 0) {
        close_buckets(history, now_s, value);
    }
    history->bucket_samples++;
    if (!isnan(value)) {
        history->bucket_sum += value;
        history->bucket_count++;
    }
}

size_t history_count(const struct history *history) {
    return history->values.count;
}

double history_at(const struct history *history, size_t i) {
    size_t count = history->values.count;
    if (i >= count) {
        return NAN;
    }
    const double *value = ring_at(&history->values, count - 1 - i);
    return *value;
}

double history_last(const struct history *history) {
    if (history->values.count > 0) {
        return history_at(history, 0);
    }
    if (history->bucket_count > 0) {
        return history->bucket_sum / (double)history->bucket_count;
    }
    return NAN;
}
