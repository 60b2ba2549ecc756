#include "util/text/parse.h"

#include <errno.h>

#include "nvt_cmocka.h"

static void test_unsigned(void **state) {
    (void)state;
    uint64_t v = 7;
    assert_int_equal(parse_u64("0", 10, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(parse_u64("18446744073709551615", 10, &v), 0);
    assert_int_equal(v, UINT64_MAX);
    assert_int_equal(parse_u64("18446744073709551616", 10, &v), ERANGE);
    assert_int_equal(parse_u64("0x1f", 0, &v), 0);
    assert_int_equal(v, 31);
    v = 7;
    assert_int_equal(parse_u64("-1", 10, &v), EINVAL);
    assert_int_equal(parse_u64(" 1", 10, &v), EINVAL);
    assert_int_equal(parse_u64("1 ", 10, &v), EINVAL);
    assert_int_equal(parse_u64("", 10, &v), EINVAL);
    assert_int_equal(parse_u64("12abc", 10, &v), EINVAL);
    assert_int_equal(parse_u64(NULL, 10, &v), EINVAL);
    assert_int_equal(v, 7);
    uint32_t u = 0;
    assert_int_equal(parse_u32("4294967295", 10, &u), 0);
    assert_int_equal(u, UINT32_MAX);
    assert_int_equal(parse_u32("4294967296", 10, &u), ERANGE);
}

static void test_signed_and_double(void **state) {
    (void)state;
    int64_t i = 0;
    assert_int_equal(parse_i64("-5", -10, 10, &i), 0);
    assert_int_equal(i, -5);
    assert_int_equal(parse_i64("+5", -10, 10, &i), 0);
    assert_int_equal(parse_i64("11", -10, 10, &i), ERANGE);
    assert_int_equal(parse_i64("-", -10, 10, &i), EINVAL);
    assert_int_equal(parse_i64("99999999999999999999", INT64_MIN, INT64_MAX, &i), ERANGE);
    double d = 0;
    assert_int_equal(parse_double("1.5", &d), 0);
    assert_true(d == 1.5);
    assert_int_equal(parse_double("-2e3", &d), 0);
    assert_true(d == -2000.0);
    assert_int_equal(parse_double("inf", &d), EINVAL);
    assert_int_equal(parse_double("nan", &d), EINVAL);
    assert_int_equal(parse_double("0x10", &d), EINVAL);
    assert_int_equal(parse_double("1e999", &d), ERANGE);
    assert_int_equal(parse_double("1.5s", &d), EINVAL);
    assert_int_equal(parse_double(" 1", &d), EINVAL);
}

static void test_fields(void **state) {
    (void)state;
    const char *p = "  12\t-3 x 18446744073709551616";
    uint64_t u = 0;
    int64_t i = 0;
    assert_int_equal(parse_u64_field(&p, &u), 0);
    assert_int_equal(u, 12);
    assert_int_equal(parse_i64_field(&p, &i), 0);
    assert_int_equal(i, -3);
    assert_int_equal(parse_u64_field(&p, &u), EINVAL);
    assert_int_equal(parse_skip_field(&p), 0);
    assert_int_equal(parse_u64_field(&p, &u), ERANGE);
    /* The largest value, leading zeros past 19 digits, and 20 nines. */
    const char *edge = "18446744073709551615 0000000000000000000000012 99999999999999999999";
    assert_int_equal(parse_u64_field(&edge, &u), 0);
    assert_true(u == UINT64_MAX);
    assert_int_equal(parse_u64_field(&edge, &u), 0);
    assert_int_equal(u, 12);
    assert_int_equal(parse_u64_field(&edge, &u), ERANGE);
    const char *q = "-9223372036854775808 ";
    assert_int_equal(parse_i64_field(&q, &i), 0);
    assert_true(i == INT64_MIN);
    const char *end = "   \n";
    assert_int_equal(parse_skip_field(&end), EINVAL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unsigned),
        cmocka_unit_test(test_signed_and_double),
        cmocka_unit_test(test_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
