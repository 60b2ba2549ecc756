#include <math.h>
#include <string.h>

#include <nvitop/common.h>
#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void test_pcie(void **state) {
    (void)state;
    char buf[32];
    assert_int_equal(nvt_format_pcie_throughput(buf, sizeof(buf), 96000), 10);
    assert_string_equal(buf, "93.75MiB/s");
    nvt_format_pcie_throughput(buf, sizeof(buf), 24000);
    assert_string_equal(buf, "23.44MiB/s");
    nvt_format_pcie_throughput(buf, sizeof(buf), 0);
    assert_string_equal(buf, "0B/s");
    nvt_format_pcie_throughput(buf, sizeof(buf), 1);
    assert_string_equal(buf, "1KiB/s");
    nvt_format_pcie_throughput(buf, sizeof(buf), 1000);
    assert_string_equal(buf, "1000KiB/s");
    nvt_format_pcie_throughput(buf, sizeof(buf), 64 * 1024 * 1024);
    assert_string_equal(buf, "64.00GiB/s");
    assert_int_equal(nvt_format_pcie_throughput(buf, sizeof(buf), NVT_NA_U32), 3);
    assert_string_equal(buf, "N/A");
}

static void test_nvlink(void **state) {
    (void)state;
    char buf[32];
    nvt_format_nvlink_throughput(buf, sizeof(buf), 0.5);
    assert_string_equal(buf, "512B/s");
    /* 0.5 byte rounds half to even: 0. */
    nvt_format_nvlink_throughput(buf, sizeof(buf), 0.5 / 1024.0);
    assert_string_equal(buf, "0B/s");
    nvt_format_nvlink_throughput(buf, sizeof(buf), 25000000.0);
    assert_string_equal(buf, "23.84GiB/s");
    nvt_format_nvlink_throughput(buf, sizeof(buf), NAN);
    assert_string_equal(buf, "N/A");
    nvt_format_nvlink_throughput(buf, sizeof(buf), -1.0);
    assert_string_equal(buf, "N/A");
    nvt_format_nvlink_throughput(buf, sizeof(buf), INFINITY);
    assert_string_equal(buf, "N/A");
}

/* Like snprintf: a short buffer gets a NUL-terminated prefix and the whole length. */
static void test_truncation(void **state) {
    (void)state;
    char buf[4];
    memset(buf, 'x', sizeof(buf));
    assert_int_equal(nvt_format_pcie_throughput(buf, sizeof(buf), 96000), 10);
    assert_string_equal(buf, "93.");
    assert_int_equal(nvt_format_nvlink_throughput(NULL, 0, 0.5), 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcie),
        cmocka_unit_test(test_nvlink),
        cmocka_unit_test(test_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
