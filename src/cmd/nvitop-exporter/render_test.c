/* render_double(): Python's repr() of the values an exporter writes, and the text format's label
 * escaping, through a rendered family. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "render_internal.h"
#include "util/array.h"

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

/* Values that need 17 digits are written as printf's "%.17g" writes them (the integer
 * conversion of render_number.c must agree with it digit for digit), at every magnitude. */
static void test_seventeen_digits(void **state) {
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int checked = 0;
    for (int i = 0; i < 200000; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        /* A random mantissa at a random binary exponent from 2^-20 to 2^62, either sign. */
        double value = ldexp((double)(seed >> 11), (int)(seed % 83) - 73);
        if ((seed & 1) != 0) {
            value = -value;
        }
        if (i % 4 == 0) {
            value = nextafter(i % 8 == 0 ? 1e-4 : 1e17, 0.0) * (double)(1 + i % 3) / 2.0;
        }
        char shorter[40];
        snprintf(shorter, sizeof(shorter), "%.16g", value);
        if (strtod(shorter, NULL) == value) {
            continue; /* 16 digits suffice: another path may write it */
        }
        char want[48];
        snprintf(want, sizeof(want), "%.17g", value);
        if (strpbrk(want, ".e") == NULL) {
            strcat(want, ".0");
        }
        char got[40];
        render_double(got, sizeof(got), value);
        assert_string_equal(got, want);
        checked++;
    }
    assert_true(checked > 10000);
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

/* A label value is UTF-8 whatever the bytes: invalid ones (a lone continuation byte, a truncated
 * sequence, an overlong form, a surrogate) become U+FFFD, valid multi-byte characters stay. */
static void test_label_utf8(void **state) {
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    struct strbuf labels = STRBUF_INIT;
    struct render_out out = {.sb = &sb, .ok = true};
    render_label(&out, &labels, "command", "\xff\xfe caf\xc3\xa9 \xe2\x82 \xc0\xaf \xed\xa0\x80\"",
                 true);
    render_sample(&out, "process_info_info", strbuf_cstr(&labels), 1.0);
    assert_true(out.ok);
    assert_string_equal(strbuf_cstr(&sb), "process_info_info{command=\"\uFFFD\uFFFD caf\u00e9 "
                                          "\uFFFD\uFFFD \uFFFD\uFFFD "
                                          "\uFFFD\uFFFD\uFFFD\\\"\"} 1.0\n");
    strbuf_fini(&sb);
    strbuf_fini(&labels);
}

/* Integers without printf (pids, device indexes) and a sample with an extra label (NVLink's). */
static void test_uint_and_extra_label(void **state) {
    (void)state;
    const uint64_t values[] = {0, 7, 10, 99, 100, 4294967295ULL, 18446744073709551615ULL};
    for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
        char got[24];
        char want[24];
        snprintf(want, sizeof(want), "%llu", (unsigned long long)values[i]);
        assert_int_equal(render_uint(got, values[i]), strlen(want));
        assert_string_equal(got, want);
    }
    struct strbuf sb = STRBUF_INIT;
    struct render_out out = {.sb = &sb, .ok = true};
    struct render_text name = {"gpu_nvlink_tx_throughput_MiBps", 30};
    struct render_text labels = {"index=\"0\"", 9};
    render_sample_text(&out, name, labels, ",link=\"17\"", 10, 14296.507486401997);
    render_sample_text(&out, name, labels, "", 0, NAN);
    assert_true(out.ok);
    assert_string_equal(
        strbuf_cstr(&sb),
        "gpu_nvlink_tx_throughput_MiBps{index=\"0\",link=\"17\"} 14296.507486401997\n"
        "gpu_nvlink_tx_throughput_MiBps{index=\"0\"} NaN\n");
    strbuf_fini(&sb);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repr),
        cmocka_unit_test(test_seventeen_digits),
        cmocka_unit_test(test_label_escaping),
        cmocka_unit_test(test_label_utf8),
        cmocka_unit_test(test_uint_and_extra_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
