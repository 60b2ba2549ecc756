/* render_double(): Python's repr() of the values an exporter writes, and the text format's label
 * escaping, through a rendered family. */
/* cmocka needs these four headers first, in this order. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

static void expect(double value, const char *text) {
    char buf[40];
    render_double(buf, sizeof(buf), value);
    assert_string_equal(buf, text);
    if (!isnan(value)) {
        assert_true(strcmp(text, "+Inf") == 0 || strcmp(text, "-Inf") == 0 ||
                    strtod(buf, NULL) == value);
    }
}

static void test_repr(void **state) {
    (void)state;
    expect(1.0, "1.0");
    expect(0.0, "0.0");
    expect(-2.5, "-2.5");
    expect(85.3, "85.3");
    expect(0.1, "0.1");
    expect(0.05, "0.05");
    expect(81559.0, "81559.0");
    expect(101.76953125, "101.76953125"); /* MiB of a byte count: exact */
    expect(1932.119461948691, "1932.119461948691");
    expect(1.0 / 3.0, "0.3333333333333333");
    expect(15315.632860961083, "15315.632860961083"); /* 17 digits: the %.17g path */
    expect(NAN, "NaN");
    expect(INFINITY, "+Inf");
    expect(-INFINITY, "-Inf");
    expect(1e20, "1e+20");
    expect(4096000000.0, "4096000000.0");
}

static void test_label_escaping(void **state) {
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    struct strbuf labels = STRBUF_INIT;
    struct render_out out = {.sb = &sb, .ok = true};
    render_label(&out, &labels, "command", "say \"hi\"\\n\nnext", true);
    render_label(&out, &labels, "pid", "7", false);
    render_sample(&out, "process_info_info", strbuf_cstr(&labels), 1.0);
    assert_true(out.ok);
    assert_string_equal(
        strbuf_cstr(&sb),
        "process_info_info{command=\"say \\\"hi\\\"\\\\n\\nnext\",pid=\"7\"} 1.0\n");
    strbuf_fini(&sb);
    strbuf_fini(&labels);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repr),
        cmocka_unit_test(test_label_escaping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
