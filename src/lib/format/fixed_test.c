/* nvt_format_fixed() against printf itself. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void expect(double value, int digits) {
    char want[512];
    char got[512];
    snprintf(want, sizeof(want), "%.*f", digits, value);
    size_t len = nvt_format_fixed(got, sizeof(got), value, digits);
    if (strcmp(want, got) != 0 || len != strlen(want)) {
        fail_msg("%%.%df of %.17g: \"%s\" (%zu), printf says \"%s\"", digits, value, got, len,
                 want);
    }
}

static void test_examples(void **state) {
    (void)state;
    char buf[32];
    assert_int_equal(nvt_format_fixed(buf, sizeof(buf), 69.39, 2), 5);
    assert_string_equal(buf, "69.39");
    nvt_format_fixed(buf, sizeof(buf), 0.125, 2); /* a tie: to even */
    assert_string_equal(buf, "0.12");
    nvt_format_fixed(buf, sizeof(buf), 2.5, 0);
    assert_string_equal(buf, "2");
    nvt_format_fixed(buf, sizeof(buf), -0.04, 1);
    assert_string_equal(buf, "-0.0");
    nvt_format_fixed(buf, sizeof(buf), 100.0, 0);
    assert_string_equal(buf, "100");
    nvt_format_fixed(buf, sizeof(buf), NAN, 1);
    assert_string_equal(buf, "nan");
    /* Truncated like snprintf, full length returned. */
    char small[4];
    assert_int_equal(nvt_format_fixed(small, sizeof(small), 1234.5, 1), 6);
    assert_string_equal(small, "123");
}

/* Pseudo-random values of every magnitude, both signs, 0 to 4 decimals, plus exact ties. */
static void test_matches_printf(void **state) {
    (void)state;
    uint64_t seed = 0x2545F4914F6CDD1Du;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double unit = (double)(seed >> 11) / 9007199254740992.0;
        int exponent = (int)(seed % 30) - 8;
        double value = unit * pow(10.0, exponent) * ((seed & 2048) ? -1.0 : 1.0);
        int digits = (int)((seed >> 7) % 5);
        if (i % 5 == 0) {
            value = ((double)(seed % 100000) + 0.5) / pow(10.0, digits);
        }
        expect(value, digits);
    }
    expect(1e300, 2);
    expect(0.0, 3);
    expect(-0.0, 1);
    expect(INFINITY, 1);
}

/* A comma locale changes printf, not this function. */
static void test_locale_independent(void **state) {
    (void)state;
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
        skip();
    }
    char buf[32];
    nvt_format_fixed(buf, sizeof(buf), 24.0, 2);
    setlocale(LC_NUMERIC, "C");
    assert_string_equal(buf, "24.00");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_matches_printf),
        cmocka_unit_test(test_locale_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
