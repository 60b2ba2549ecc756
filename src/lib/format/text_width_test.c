#include <nvitop/format.h>

#include "nvt_cmocka.h"

static void test_width(void **state) {
    (void)state;
    assert_int_equal(nvt_text_width(""), 0);
    assert_int_equal(nvt_text_width("nvitop"), 6);
    assert_int_equal(nvt_text_width("\u4e2d\u6587"), 4);       /* CJK: wide */
    assert_int_equal(nvt_text_width("\uff21"), 2);             /* fullwidth A */
    assert_int_equal(nvt_text_width("e\u0301"), 1);            /* combining acute */
    assert_int_equal(nvt_text_width("\u2502\u2588\u2550"), 3); /* box drawing: narrow */
    assert_int_equal(nvt_text_width("\xff\xfe"), 2);           /* invalid bytes: 1 each */
    assert_int_equal(nvt_text_width("\xe4\xb8"), 2);           /* truncated sequence */
    assert_int_equal(nvt_text_width("\U0001F600"), 2);         /* emoji presentation: wide */
    assert_int_equal(nvt_text_width(NULL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
