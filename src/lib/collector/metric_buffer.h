/*
 * The statistics of one collector tag: per metric key, a time-weighted mean, the min, the max and
 * the last value, with nvitop's rules (docs/nvitop-behaviour.md §5.10):
 *
 *  - a key's window starts at the buffer's previous sample (its start for the first sample), and
 *    its first value is taken to have held since then;
 *  - the mean is the trapezoidal integral over the samples, extended with the last value up to
 *    "now", divided by the time since the key's start;
 *  - NaN samples (N/A, or a key missing from a sample: a process that exited) are not averaged;
 *    once a key has had one, its mean stops at its last valid sample (integral / (last valid time
 *    - start)) and min/max/last stay at their last valid values (NaN if never valid).
 *
 * Time is passed in explicitly, so the arithmetic is testable without a clock.  Not thread-safe:
 * the collector guards its buffers with its lock.  Allocations are checked.
 */
#ifndef NVITOP_SRC_LIB_COLLECTOR_METRIC_BUFFER_H
#define NVITOP_SRC_LIB_COLLECTOR_METRIC_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/collector.h>
#include <nvitop/status.h>

struct metric_stat {
    double start;     /* when the key's window starts */
    double last_time; /* time of the last valid value */
    double integral;
    double last;
    double min;
    double max;
    bool valid;   /* at least one valid value */
    bool has_nan; /* at least one NaN (N/A or missing) value */
};

/* A sample: parallel key/value entries (keys borrowed). */
struct metric_sample_view {
    const char *const *keys;
    const double *values;
    size_t count;
};

struct metric_entry {
    char *key;
    uint64_t hash;
    uint64_t seen; /* generation of the last sample that had this key */
    struct metric_stat stat;
};

struct metric_buffer {
    char *tag;
    char *prefix; /* the enclosing buffers' prefix + "/" + tag */
    double start;
    double last_time; /* of the last sample (start before the first) */
    uint64_t generation;
    struct metric_entry *entries; /* insertion order */
    size_t count;
    size_t capacity;
    size_t *table; /* open addressing: entry index + 1, 0 = empty */
    size_t table_size;
};

/* Pure statistics of one key (exposed for the unit test). */
void metric_stat_init(struct metric_stat *stat, double start);
void metric_stat_add(struct metric_stat *stat, double value, double time);
double metric_stat_mean(const struct metric_stat *stat, double now);

/* A buffer for tag under parent_prefix (NULL at the bottom of the stack), starting at now.
 * NVT_ERR_NO_MEMORY leaves *buffer safe to fini. */
nvt_status metric_buffer_init(struct metric_buffer *buffer, const char *parent_prefix,
                              const char *tag, double now);
void metric_buffer_fini(struct metric_buffer *buffer);

/* Forget every key and restart at now. */
void metric_buffer_clear(struct metric_buffer *buffer, double now);

/* Add one sample taken at time; keys the buffer has and the sample lacks get NaN.  On
 * NVT_ERR_NO_MEMORY the keys that could not be added are skipped (the others are updated). */
nvt_status metric_buffer_add(struct metric_buffer *buffer, const struct metric_sample_view *sample,
                             double time);

/* The statistics as of now (wall: the value of "<prefix>/timestamp"), as one allocation freed
 * with free() (nvt_metrics_free). */
nvt_status metric_buffer_collect(const struct metric_buffer *buffer, double now, double wall,
                                 struct nvt_metric **out, size_t *count);

#endif /* NVITOP_SRC_LIB_COLLECTOR_METRIC_BUFFER_H */
