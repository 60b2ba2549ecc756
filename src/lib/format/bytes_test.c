#include <locale.h>
#include <string.h>

#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void expect_bytes(uint64_t bytes, uint64_t min_unit, const char *expected) {
    char buf[32];
    size_t len = nvt_format_bytes(buf, sizeof(buf), bytes, min_unit);
    assert_string_equal(buf, expected);
    assert_int_equal(len, strlen(expected));
}

/* Every example of docs/nvitop-behaviour.md §5.12.1 that nvitop 1.7 still prints the same way. */
static void test_format_spec_examples(void **state) {
    (void)state;
    expect_bytes(0, 1, "0B");
    expect_bytes(1023, 1, "1023B");
    expect_bytes(1024, 1, "1KiB");
    expect_bytes(1536, 1, "2KiB");
    expect_bytes(2560, 1, "2KiB");
    expect_bytes(1048575, 1, "1024KiB");
    expect_bytes(20 * NVT_GiB + 1, 1, "20.00GiB");
    expect_bytes(100 * NVT_GiB, 1, "100.0GiB");
    expect_bytes(1000 * NVT_GiB, 1, "0.98TiB");
    expect_bytes(NVT_GiB / 10, NVT_GiB, "0.10GiB");
    expect_bytes(500 * NVT_MiB, NVT_GiB, "0.49GiB");
    expect_bytes(24 * NVT_GiB, 1, "24.00GiB");
    expect_bytes(NVT_NA_U64, 1, "N/A");
}

/*
 * nvitop 1.7 added two decimals below 100 MiB and one below 1000 MiB, and switched to GiB at
 * 20 GiB itself (1.1.0, docs/nvitop-behaviour.md §5.12.1, printed "20480MiB" for exactly 20 GiB).
 * We follow 1.7, the version whose output the programs reproduce.
 */
static void test_format_nvitop17_mib_rules(void **state) {
    (void)state;
    expect_bytes(NVT_MiB, 1, "1.00MiB");
    expect_bytes(99 * NVT_MiB + NVT_MiB / 2, 1, "99.50MiB");
    expect_bytes(100 * NVT_MiB, 1, "100.0MiB");
    expect_bytes(500 * NVT_MiB, 1, "500.0MiB");
    expect_bytes(1000 * NVT_MiB, 1, "1000MiB");
    expect_bytes(1031 * NVT_MiB, 1, "1031MiB");
    expect_bytes(20110 * NVT_MiB, 1, "20110MiB");
    expect_bytes(20 * NVT_GiB - 1, 1, "20480MiB");
    expect_bytes(20 * NVT_GiB, 1, "20.00GiB");
    /* Half-to-even on the exact value: 1.125 MiB -> 1.12, 1.375 MiB -> 1.38. */
    expect_bytes(NVT_MiB + NVT_MiB / 8, 1, "1.12MiB");
    expect_bytes(NVT_MiB + 3 * NVT_MiB / 8, 1, "1.38MiB");
}

static void test_format_min_unit_and_large(void **state) {
    (void)state;
    expect_bytes(100, NVT_KiB, "0KiB");
    expect_bytes(100, NVT_MiB, "0.00MiB");
    expect_bytes(100 * NVT_TiB, 1, "100.0TiB");
    expect_bytes(1000 * NVT_TiB, 1, "0.98PiB");
    expect_bytes(100 * NVT_PiB, 1, "100.0PiB");
    expect_bytes(UINT64_MAX - 1, 1, "16384.0PiB");
}

static void test_format_truncates_like_snprintf(void **state) {
    (void)state;
    char buf[4];
    assert_int_equal(nvt_format_bytes(buf, sizeof(buf), 24 * NVT_GiB, 1), 8);
    assert_string_equal(buf, "24.");
    assert_int_equal(nvt_format_bytes(NULL, 0, 1023, 1), 5);
}

static void test_format_ignores_numeric_locale(void **state) {
    (void)state;
    /* de_DE may not be installed; the check is meaningful only where it is. */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
        skip();
    }
    expect_bytes(24 * NVT_GiB, 1, "24.00GiB");
    uint64_t value = 0;
    assert_int_equal(nvt_parse_bytes("1.5GiB", &value), NVT_OK);
    assert_int_equal(value, 1610612736);
    setlocale(LC_NUMERIC, "C");
}

static void expect_parse(const char *text, uint64_t expected) {
    uint64_t value = 12345;
    assert_int_equal(nvt_parse_bytes(text, &value), NVT_OK);
    assert_int_equal(value, expected);
}

static void expect_parse_error(const char *text, nvt_status expected) {
    uint64_t value = 12345;
    assert_int_equal(nvt_parse_bytes(text, &value), expected);
    assert_int_equal(value, 12345);
}

static void test_parse_spec_examples(void **state) {
    (void)state;
    expect_parse("200", 200);
    expect_parse("500B", 500);
    expect_parse("10k", 10000);
    expect_parse("10ki", 10240);
    expect_parse("1M", 1000000);
    expect_parse("1MiB", 1048576);
    expect_parse("1.5GiB", 1610612736);
    expect_parse("5000M", 5000000000);
    expect_parse(" + 7 g ", 7000000000);
    expect_parse("1.5", 1);
    expect_parse("0", 0);
    expect_parse("1TB", UINT64_C(1000000000000));
    expect_parse("1tib", UINT64_C(1) << 40);
    expect_parse("\t3 KIB\n", 3072);
}

/* nvitop 1.1.0 mapped PB to 10^12; 10^15 is right (and what 1.7 does). */
static void test_parse_petabytes(void **state) {
    (void)state;
    expect_parse("2PB", UINT64_C(2000000000000000));
    expect_parse("1PiB", UINT64_C(1) << 50);
}

static void test_parse_rejects(void **state) {
    (void)state;
    expect_parse_error("1e3", NVT_ERR_PARSE);
    expect_parse_error("-1", NVT_ERR_PARSE);
    expect_parse_error("10XB", NVT_ERR_PARSE);
    expect_parse_error("kb", NVT_ERR_PARSE);
    expect_parse_error("", NVT_ERR_PARSE);
    expect_parse_error("   ", NVT_ERR_PARSE);
    expect_parse_error("1.", NVT_ERR_PARSE);
    expect_parse_error(".5", NVT_ERR_PARSE);
    expect_parse_error("1 2", NVT_ERR_PARSE);
    expect_parse_error("0x10", NVT_ERR_PARSE);
    expect_parse_error("10i", NVT_ERR_PARSE);
    expect_parse_error("10KiBB", NVT_ERR_PARSE);
    expect_parse_error("++1", NVT_ERR_PARSE);
    expect_parse_error("inf", NVT_ERR_PARSE);
    assert_int_equal(nvt_parse_bytes(NULL, NULL), NVT_ERR_INVALID_ARGUMENT);
}

static void test_parse_out_of_range(void **state) {
    (void)state;
    expect_parse("18446744073709549568", UINT64_C(18446744073709549568));
    expect_parse_error("18446744073709551615", NVT_ERR_OUT_OF_RANGE);
    expect_parse_error("16384PiB", NVT_ERR_OUT_OF_RANGE);
    expect_parse_error("99999999999999999999999999999999999999999999999999999999999999999999"
                       "99999999999999999999999999999999999999999999999999999999999999999999"
                       "99999999999999999999999999999999999999999999999999999999999999999999"
                       "99999999999999999999999999999999999999999999999999999999999999999999"
                       "99999999999999999999999999999999999999999999999999999999999999999999",
                       NVT_ERR_OUT_OF_RANGE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_spec_examples),
        cmocka_unit_test(test_format_nvitop17_mib_rules),
        cmocka_unit_test(test_format_min_unit_and_large),
        cmocka_unit_test(test_format_truncates_like_snprintf),
        cmocka_unit_test(test_format_ignores_numeric_locale),
        cmocka_unit_test(test_parse_spec_examples),
        cmocka_unit_test(test_parse_petabytes),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_parse_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
