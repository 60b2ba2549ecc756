/* A scrape's name[] filter (metrics_filter.h): the lines kept from the text and OpenMetrics
 * forms, metadata once before a family's first kept sample, "# EOF" always, names repeated or
 * empty, and the limit on names. */
#include "metrics_filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

static const char text[] = "# HELP nvitop_info NVITOP Prometheus Exporter.\n"
                           "# TYPE nvitop_info gauge\n"
                           "nvitop_info{hostname=\"h\",driver_version=\"580.1\"} 1.0\n"
                           "# HELP gpu_utilization_Percentage GPU utilization (Percentage).\n"
                           "# TYPE gpu_utilization_Percentage gauge\n"
                           "gpu_utilization_Percentage{hostname=\"h\",index=\"0\"} 62.0\n"
                           "gpu_utilization_Percentage{hostname=\"h\",index=\"1\"} 7.0\n"
                           "# HELP gpu_utilization_Percentag_x A name one letter longer.\n"
                           "# TYPE gpu_utilization_Percentag_x gauge\n"
                           "gpu_utilization_Percentag_x{hostname=\"h\"} 1.0\n"
                           "# HELP process_gpu_memory_MiB GPU memory (MiB).\n"
                           "# TYPE process_gpu_memory_MiB gauge\n"
                           "process_gpu_memory_MiB{pid=\"1\",username=\"ann\"} 512.0\n";

/* The filter of names, applied to input; the kept text (the caller frees it). */
static char *filtered(const char *const *names, size_t count, const char *input) {
    struct metrics_filter *f = metrics_filter_new();
    assert_non_null(f);
    for (size_t i = 0; i < count; i++) {
        assert_true(metrics_filter_add(f, names[i]));
    }
    char *out = NULL;
    size_t len = 0;
    assert_true(metrics_filter_apply(f, input, strlen(input), &out, &len));
    assert_non_null(out);
    assert_int_equal(len, strlen(out));
    metrics_filter_free(f);
    return out;
}

static void test_text_form(void **state) {
    (void)state;
    static const char *const names[] = {"process_gpu_memory_MiB", "nvitop_info",
                                        "gpu_utilization_Percentage"};
    char *out = filtered(names, 3, text);
    assert_string_equal(out, "# HELP nvitop_info NVITOP Prometheus Exporter.\n"
                             "# TYPE nvitop_info gauge\n"
                             "nvitop_info{hostname=\"h\",driver_version=\"580.1\"} 1.0\n"
                             "# HELP gpu_utilization_Percentage GPU utilization (Percentage).\n"
                             "# TYPE gpu_utilization_Percentage gauge\n"
                             "gpu_utilization_Percentage{hostname=\"h\",index=\"0\"} 62.0\n"
                             "gpu_utilization_Percentage{hostname=\"h\",index=\"1\"} 7.0\n"
                             "# HELP process_gpu_memory_MiB GPU memory (MiB).\n"
                             "# TYPE process_gpu_memory_MiB gauge\n"
                             "process_gpu_memory_MiB{pid=\"1\",username=\"ann\"} 512.0\n");
    free(out);
    /* One name: a prefix of another family's name keeps only its own. */
    static const char *const one[] = {"gpu_utilization_Percentag_x"};
    out = filtered(one, 1, text);
    assert_string_equal(out, "# HELP gpu_utilization_Percentag_x A name one letter longer.\n"
                             "# TYPE gpu_utilization_Percentag_x gauge\n"
                             "gpu_utilization_Percentag_x{hostname=\"h\"} 1.0\n");
    free(out);
}

/* OpenMetrics: an info family is named without its sample's "_info"; a counter's first sample
 * (_total) not asked for, its second (_created) asked for; "# EOF" kept. */
static void test_openmetrics_form(void **state) {
    (void)state;
    static const char om[] = "# HELP nvitop NVITOP Prometheus Exporter.\n"
                             "# TYPE nvitop info\n"
                             "nvitop_info{hostname=\"h\"} 1\n"
                             "# HELP requests Requests.\n"
                             "# TYPE requests counter\n"
                             "requests_total 3\n"
                             "requests_created 1.7e9\n"
                             "# EOF\n";
    static const char *const names[] = {"requests_created", "nvitop_info"};
    char *out = filtered(names, 2, om);
    assert_string_equal(out, "# HELP nvitop NVITOP Prometheus Exporter.\n"
                             "# TYPE nvitop info\n"
                             "nvitop_info{hostname=\"h\"} 1\n"
                             "# HELP requests Requests.\n"
                             "# TYPE requests counter\n"
                             "requests_created 1.7e9\n"
                             "# EOF\n");
    free(out);
    static const char *const none[] = {"gpu_temperature_C"};
    out = filtered(none, 1, om);
    assert_string_equal(out, "# EOF\n");
    free(out);
    out = filtered(none, 1, text);
    assert_string_equal(out, "");
    free(out);
}

/* The last line without its newline, blank lines, and a sample without metadata. */
static void test_odd_lines(void **state) {
    (void)state;
    static const char *const names[] = {"a", "b"};
    char *out = filtered(names, 2, "a 1\n\n\nc 2\n# TYPE b gauge\nb 3");
    assert_string_equal(out, "a 1\n# TYPE b gauge\nb 3");
    free(out);
}

static void test_names(void **state) {
    (void)state;
    struct metrics_filter *f = metrics_filter_new();
    assert_non_null(f);
    assert_true(metrics_filter_add(f, ""));
    assert_int_equal(metrics_filter_count(f), 0);
    assert_true(metrics_filter_add(f, "gpu_temperature_C"));
    assert_true(metrics_filter_add(f, "gpu_temperature_C"));
    assert_int_equal(metrics_filter_count(f), 1);
    char name[32];
    for (size_t i = 1; i < METRICS_FILTER_MAX_NAMES; i++) {
        snprintf(name, sizeof name, "n%zu", i);
        assert_true(metrics_filter_add(f, name));
    }
    assert_int_equal(metrics_filter_count(f), METRICS_FILTER_MAX_NAMES);
    assert_false(metrics_filter_add(f, "one_more"));
    assert_true(metrics_filter_add(f, "n7")); /* one it holds is no more */
    char *out = NULL;
    size_t len = 0;
    static const char input[] = "n7 1\nn8{a=\"b\"} 2\nn9x 3\n";
    assert_true(metrics_filter_apply(f, input, strlen(input), &out, &len));
    assert_string_equal(out, "n7 1\nn8{a=\"b\"} 2\n");
    free(out);
    metrics_filter_free(f);
    metrics_filter_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_form),
        cmocka_unit_test(test_openmetrics_form),
        cmocka_unit_test(test_odd_lines),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
