#include "util/text/utf8.h"

#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"

static void test_decode(void **state) {
    (void)state;
    uint32_t cp = 0;
    assert_int_equal(utf8_decode("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(utf8_decode("\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(utf8_decode("\xe4\xb8\xad", 3, &cp), 3);
    assert_int_equal(cp, 0x4E2D);
    assert_int_equal(utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    /* Invalid: continuation first, overlong, surrogate, above U+10FFFF, truncated. */
    const char *bad[] = {"\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe4\xb8"};
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        assert_int_equal(utf8_decode(bad[i], strlen(bad[i]), &cp), 1);
        assert_int_equal(cp, UTF8_INVALID);
    }
}

static void test_width_and_fit(void **state) {
    (void)state;
    assert_int_equal(utf8_cp_width('a'), 1);
    assert_int_equal(utf8_cp_width(0x3000), 2);  /* ideographic space: fullwidth */
    assert_int_equal(utf8_cp_width(0xAC00), 2);  /* Hangul syllable */
    assert_int_equal(utf8_cp_width(0x0301), 0);  /* combining acute */
    assert_int_equal(utf8_cp_width(0x200B), 0);  /* zero width space */
    assert_int_equal(utf8_cp_width(0x00AD), 1);  /* soft hyphen */
    assert_int_equal(utf8_cp_width(0x2502), 1);  /* box drawing */
    assert_int_equal(utf8_cp_width(0x20000), 2); /* CJK extension B */
    const char *text = "ab\xe4\xb8\xad\xe6\x96\x87";
    assert_int_equal(utf8_width(text, strlen(text)), 6);
    size_t cells = 0;
    /* Four cells hold "ab" and one wide character; five cells still cannot hold the next. */
    assert_int_equal(utf8_fit(text, strlen(text), 4, &cells), 5);
    assert_int_equal(cells, 4);
    assert_int_equal(utf8_fit(text, strlen(text), 5, &cells), 5);
    assert_int_equal(cells, 4);
    assert_int_equal(utf8_fit(text, strlen(text), 100, NULL), strlen(text));
    /* ASCII after a wide character, control characters one cell each, as utf8_width() counts. */
    const char *mixed = "\xe4\xb8\xad\tx\x01yz";
    assert_int_equal(utf8_fit(mixed, strlen(mixed), 5, &cells), 6);
    assert_int_equal(cells, 5);
    assert_int_equal(utf8_fit(mixed, strlen(mixed), 1, &cells), 0);
    assert_int_equal(cells, 0);
    assert_int_equal(utf8_fit(mixed, strlen(mixed), 7, &cells), strlen(mixed));
    assert_int_equal(cells, utf8_width(mixed, strlen(mixed)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_width_and_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
