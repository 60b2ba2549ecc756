/* The OpenMetrics form of an exposition and the Accept header's choice (openmetrics.h). */
#include "openmetrics.h"

#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

static void test_accepted(void **state) {
    (void)state;
    assert_true(openmetrics_accepted("application/openmetrics-text;version=1.0.0,"
                                     "application/openmetrics-text;version=0.0.1;q=0.75,"
                                     "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
    assert_true(openmetrics_accepted("text/plain; q=0.5, Application/OpenMetrics-Text ;q=0.9"));
    assert_false(openmetrics_accepted("text/plain;version=0.0.4"));
    assert_false(openmetrics_accepted("application/openmetrics-textx"));
    assert_false(openmetrics_accepted(""));
    assert_false(openmetrics_accepted(NULL));
}

static void test_from_text(void **state) {
    (void)state;
    static const char text[] = "# HELP nvitop_info NVITOP Prometheus Exporter.\n"
                               "# TYPE nvitop_info gauge\n"
                               "nvitop_info{hostname=\"h\"} 1.0\n"
                               "# HELP gpu_memory_total_MiB GPU \"total\" memory (MiB).\n"
                               "# TYPE gpu_memory_total_MiB gauge\n"
                               "gpu_memory_total_MiB{hostname=\"h\",index=\"0\"} 40960.0\n";
    static const char expected[] = "# HELP nvitop NVITOP Prometheus Exporter.\n"
                                   "# TYPE nvitop info\n"
                                   "nvitop_info{hostname=\"h\"} 1.0\n"
                                   "# HELP gpu_memory_total_MiB GPU \\\"total\\\" memory (MiB).\n"
                                   "# TYPE gpu_memory_total_MiB gauge\n"
                                   "# UNIT gpu_memory_total_MiB MiB\n"
                                   "gpu_memory_total_MiB{hostname=\"h\",index=\"0\"} 40960.0\n"
                                   "# EOF\n";
    size_t len = 0;
    char *om = openmetrics_from_text(text, strlen(text), &len);
    assert_non_null(om);
    assert_string_equal(om, expected);
    assert_int_equal(len, strlen(expected));
    free(om);
    om = openmetrics_from_text("", 0, &len);
    assert_non_null(om);
    assert_string_equal(om, "# EOF\n");
    free(om);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted),
        cmocka_unit_test(test_from_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
