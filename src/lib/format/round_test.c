#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void test_round_half_even(void **state) {
    (void)state;
    assert_true(nvt_round_half_even(0.5) == 0.0);
    assert_true(nvt_round_half_even(1.5) == 2.0);
    assert_true(nvt_round_half_even(2.5) == 2.0);
    assert_true(nvt_round_half_even(312.5) == 312.0);
    assert_true(nvt_round_half_even(313.5) == 314.0);
    assert_true(nvt_round_half_even(2.4999999999999996) == 2.0);
    assert_true(nvt_round_half_even(-1.5) == -2.0);
    assert_true(nvt_round_half_even(-2.5) == -2.0);
    assert_true(signbit(nvt_round_half_even(-0.4)));
    assert_true(nvt_round_half_even(4503599627370497.0) == 4503599627370497.0);
    assert_true(isnan(nvt_round_half_even(NAN)));
    assert_true(isinf(nvt_round_half_even(INFINITY)));
}

/* Python: round(2.675, 2) == 2.67 (the double is below the tie), round(0.125, 2) == 0.12. */
static void test_round_digits(void **state) {
    (void)state;
    assert_true(nvt_round_half_even_digits(2.675, 2) == 2.67);
    assert_true(nvt_round_half_even_digits(0.125, 2) == 0.12);
    assert_true(nvt_round_half_even_digits(0.375, 2) == 0.38);
    assert_true(nvt_round_half_even_digits(0.9765625, 2) == 0.98);
    assert_true(nvt_round_half_even_digits(1.05, 1) == 1.1);
    assert_true(nvt_round_half_even_digits(2.5, 0) == 2.0);
    assert_true(nvt_round_half_even_digits(0.1, 400) == 0.1);
    assert_true(nvt_round_half_even_digits(1e308, 2) == 1e308);
    assert_true(signbit(nvt_round_half_even_digits(-0.001, 2)));
    assert_true(isnan(nvt_round_half_even_digits(NAN, 2)));
}

/* The arithmetic shortcut agrees with printing and reading back (the C locale is in force), on
 * pseudo-random values of every magnitude the monitor formats, and on exact decimal ties. */
static void test_round_digits_matches_printing(void **state) {
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double unit = (double)(seed >> 11) / 9007199254740992.0;
        int exponent = (int)(seed % 24) - 6;
        double value = unit * pow(10.0, exponent) * ((seed & 1024) ? -1.0 : 1.0);
        int digits = 1 + (int)(seed % 3);
        if (i % 4 == 0) {
            /* Decimal ties and their neighbours: k + 0.5 units of the last digit. */
            value = ((double)(seed % 100000) + 0.5) / pow(10.0, digits);
        }
        char text[64];
        snprintf(text, sizeof(text), "%.*f", digits, value);
        double expected = strtod(text, NULL);
        double got = nvt_round_half_even_digits(value, digits);
        if (got != expected && !(got == 0.0 && expected == 0.0)) {
            fail_msg("round(%.17g, %d): %.17g, printing says %.17g", value, digits, got, expected);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_half_even),
        cmocka_unit_test(test_round_digits),
        cmocka_unit_test(test_round_digits_matches_printing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
