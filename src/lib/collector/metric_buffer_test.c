/*
 * The collector's statistics with explicit times: the time-weighted mean (first value held since
 * the start, last value held until now), min/max/last, NaN samples and missing keys (a process
 * that exited), keys that appear mid-window, the running-time key, and the result layout.
 */
#include "collector/metric_buffer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

#define EPS 1e-9

static void test_mean_is_time_weighted(void **state) {
    (void)state;
    struct metric_stat s;
    metric_stat_init(&s, 0.0);
    metric_stat_add(&s, 10.0, 1.0); /* 10 held since 0: 10 */
    metric_stat_add(&s, 20.0, 3.0); /* trapezoid (10+20)/2*2: 30 */
    /* 20 held until 5: 40; (10 + 30 + 40) / 5 */
    assert_float_equal(metric_stat_mean(&s, 5.0), 16.0, EPS);
    assert_float_equal(s.min, 10.0, EPS);
    assert_float_equal(s.max, 20.0, EPS);
    assert_float_equal(s.last, 20.0, EPS);
    /* At the very start no time has passed: the value itself. */
    metric_stat_init(&s, 7.0);
    metric_stat_add(&s, 3.0, 7.0);
    assert_float_equal(metric_stat_mean(&s, 7.0), 3.0, EPS);
}

static void test_nan_freezes_the_statistics(void **state) {
    (void)state;
    struct metric_stat s;
    metric_stat_init(&s, 0.0);
    metric_stat_add(&s, 10.0, 1.0);
    metric_stat_add(&s, 20.0, 3.0);
    metric_stat_add(&s, NAN, 4.0); /* gone: the mean ends at the last valid sample */
    assert_float_equal(metric_stat_mean(&s, 100.0), 40.0 / 3.0, EPS);
    assert_float_equal(s.min, 10.0, EPS);
    assert_float_equal(s.max, 20.0, EPS);
    assert_float_equal(s.last, 20.0, EPS);
    metric_stat_init(&s, 0.0);
    metric_stat_add(&s, NAN, 1.0);
    assert_true(isnan(metric_stat_mean(&s, 2.0)));
    assert_true(isnan(s.min) && isnan(s.max) && isnan(s.last));
}

static double value_of(const struct nvt_metric *m, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(m[i].key, key) == 0) {
            return m[i].value;
        }
    }
    fail_msg("no key %s", key);
    return NAN;
}

static bool has_key(const struct nvt_metric *m, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(m[i].key, key) == 0) {
            return true;
        }
    }
    return false;
}

static void add2(struct metric_buffer *b, const char *k1, double v1, const char *k2, double v2,
                 double t) {
    const char *keys[] = {k1, k2};
    double values[] = {v1, v2};
    struct metric_sample_view view = {keys, values, k2 != NULL ? 2 : 1};
    assert_int_equal(metric_buffer_add(b, &view, t), NVT_OK);
}

static void test_buffer_keys_and_layout(void **state) {
    (void)state;
    struct metric_buffer b;
    assert_int_equal(metric_buffer_init(&b, "train", "epoch", 100.0), NVT_OK);
    add2(&b, "gpu:0/memory_used (MiB)", 1000.0, "pid:7/gpu:0/gpu_memory (MiB)", 50.0, 102.0);
    /* pid 7 exits; pid 8 appears: its window starts at the previous sample (102). */
    add2(&b, "gpu:0/memory_used (MiB)", 3000.0, "pid:8/host/running_time (min)", 2.0, 104.0);
    add2(&b, "gpu:0/memory_used (MiB)", 3000.0, "pid:8/host/running_time (min)", 2.5, 106.0);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(metric_buffer_collect(&b, 110.0, 1.7e9, &m, &n), NVT_OK);
    /* 3 keys: 4 statistics each, but one for the running time; plus duration and timestamp. */
    assert_int_equal(n, 4 + 4 + 1 + 2);
    assert_string_equal(m[0].key, "train/epoch/gpu:0/memory_used (MiB)/mean");
    assert_string_equal(m[1].key, "train/epoch/gpu:0/memory_used (MiB)/min");
    assert_string_equal(m[2].key, "train/epoch/gpu:0/memory_used (MiB)/max");
    assert_string_equal(m[3].key, "train/epoch/gpu:0/memory_used (MiB)/last");
    /* 1000*2 + 2000*2 + 3000*2 + 3000*4 = 24000 over 10 s */
    assert_float_equal(m[0].value, 2400.0, EPS);
    assert_float_equal(m[1].value, 1000.0, EPS);
    assert_float_equal(m[2].value, 3000.0, EPS);
    assert_float_equal(m[3].value, 3000.0, EPS);
    /* pid 7: one valid sample at 102, held since 100, then missing. */
    assert_float_equal(value_of(m, n, "train/epoch/pid:7/gpu:0/gpu_memory (MiB)/mean"), 50.0, EPS);
    assert_float_equal(value_of(m, n, "train/epoch/pid:7/gpu:0/gpu_memory (MiB)/last"), 50.0, EPS);
    assert_float_equal(value_of(m, n, "train/epoch/pid:8/host/running_time (min)"), 2.5, EPS);
    assert_false(has_key(m, n, "train/epoch/pid:8/host/running_time (min)/mean"));
    assert_float_equal(value_of(m, n, "train/epoch/duration (s)"), 10.0, EPS);
    assert_float_equal(value_of(m, n, "train/epoch/timestamp"), 1.7e9, EPS);
    nvt_metrics_free(m);

    /* A clear restarts the window and forgets the keys. */
    metric_buffer_clear(&b, 200.0);
    add2(&b, "gpu:0/memory_used (MiB)", 500.0, NULL, 0.0, 201.0);
    assert_int_equal(metric_buffer_collect(&b, 202.0, 0.0, &m, &n), NVT_OK);
    assert_int_equal(n, 4 + 2);
    assert_float_equal(m[0].value, 500.0, EPS);
    assert_float_equal(value_of(m, n, "train/epoch/duration (s)"), 2.0, EPS);
    nvt_metrics_free(m);
    metric_buffer_fini(&b);
}

/* Enough keys to grow the hash table several times, each found again. */
static void test_many_keys(void **state) {
    (void)state;
    struct metric_buffer b;
    assert_int_equal(metric_buffer_init(&b, NULL, "t", 0.0), NVT_OK);
    enum {
        N = 1000
    };
    static char names[N][32];
    const char *keys[N];
    double values[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof(names[i]), "k%d", i);
        keys[i] = names[i];
        values[i] = i;
    }
    struct metric_sample_view view = {keys, values, N};
    assert_int_equal(metric_buffer_add(&b, &view, 1.0), NVT_OK);
    assert_int_equal(metric_buffer_add(&b, &view, 2.0), NVT_OK);
    assert_int_equal(b.count, N);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(metric_buffer_collect(&b, 2.0, 0.0, &m, &n), NVT_OK);
    assert_int_equal(n, 4 * N + 2);
    assert_string_equal(m[4 * 999].key, "t/k999/mean");
    assert_float_equal(m[4 * 999].value, 999.0, EPS);
    nvt_metrics_free(m);
    metric_buffer_fini(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_is_time_weighted),
        cmocka_unit_test(test_nan_freezes_the_statistics),
        cmocka_unit_test(test_buffer_keys_and_layout),
        cmocka_unit_test(test_many_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
