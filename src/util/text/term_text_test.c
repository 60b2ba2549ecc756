/* term_text.h: control characters and invalid UTF-8 become '?', one per character or byte. */
#include "util/text/term_text.h"

#include <stdbool.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/text/utf8.h"

static void expect(const char *text, const char *want) {
    char out[256];
    size_t len = term_text_clean(text, strlen(text), out);
    assert_string_equal(out, want);
    assert_int_equal(len, strlen(want));
    assert_int_equal(term_text_safe(text, strlen(text)), strcmp(text, want) == 0);
    assert_int_equal(utf8_width(out, len), utf8_width(text, strlen(text)));
    char in_place[256];
    strcpy(in_place, text);
    term_text_clean_in_place(in_place);
    assert_string_equal(in_place, want);
}

static void test_clean(void **state) {
    (void)state;
    expect("python train.py --lr 0.1", "python train.py --lr 0.1");
    expect("caf\xc3\xa9 \xe4\xb8\xad \xe2\x94\x80", "caf\xc3\xa9 \xe4\xb8\xad \xe2\x94\x80");
    expect("\x1b]0;pwned\x07\x1b[2J", "?]0;pwned??[2J");
    expect("a\tb\nc\rd\x7f", "a?b?c?d?");
    expect("\xc2\x9b"
           "31m",
           "?31m"); /* C1 CSI */
    expect("\xff\xfe ok \xe2\x82", "?? ok ??");
    expect("", "");
}

/* Three-byte sequences, which term_text_safe() takes on a path of its own: box rules, blocks and
 * Braille pass; overlong forms, surrogates and truncated ones do not. */
static void test_three_bytes(void **state) {
    (void)state;
    expect("\xe2\x94\x80\xe2\x94\x80\xe2\x96\x88\xe2\xa3\xbf\xef\xbf\xbd",
           "\xe2\x94\x80\xe2\x94\x80\xe2\x96\x88\xe2\xa3\xbf\xef\xbf\xbd");
    expect("\xe0\xa0\x80|\xed\x9f\xbf|\xee\x80\x80", "\xe0\xa0\x80|\xed\x9f\xbf|\xee\x80\x80");
    expect("\xe0\x80\xaf", "???");       /* overlong '/' */
    expect("\xe0\x9f\xbf", "???");       /* overlong U+07FF */
    expect("\xed\xa0\x80", "???");       /* a surrogate */
    expect("\xed\xbf\xbf", "???");       /* another */
    expect("\xe2\x94", "??");            /* truncated */
    expect("\xe2\x94\x1b[2J", "???[2J"); /* an escape inside */
    expect("\xe2\x28\xa1", "?(?");
}

/* term_ascii_run(), which looks at eight bytes at once: every byte value at every position of a
 * 20-byte text of printable ASCII stops the run exactly there when it is not printable ASCII, at
 * every starting alignment and length. */
static void test_ascii_run(void **state) {
    (void)state;
    char text[32];
    for (int b = 0; b < 256; b++) {
        bool printable = b >= 0x20 && b < 0x7F;
        for (size_t at = 0; at < 20; at++) {
            for (size_t shift = 0; shift < 8; shift++) {
                memset(text, ' ' + (int)(at % 90), sizeof(text));
                text[shift + at] = (char)b;
                size_t want = printable ? 20 : at;
                assert_int_equal(term_ascii_run(text + shift, 20), want);
                assert_int_equal(term_ascii_run(text + shift, at), at);
            }
        }
    }
    /* The edges of the range next to each other, and neighbours that could carry or borrow. */
    assert_int_equal(term_ascii_run(" ~ ~ ~ ~ ~ ~ ~ ~", 16), 16);
    assert_int_equal(term_ascii_run("~~~~~~~\x7f", 8), 7);
    assert_int_equal(term_ascii_run("       \x1f", 8), 7);
    assert_int_equal(term_ascii_run("\x7e\x7e\x7e\x7e\x7e\x7e\x7e\x80", 8), 7);
    assert_int_equal(term_ascii_run("abc\0def", 7), 3);
    assert_int_equal(term_ascii_run("", 0), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_three_bytes),
        cmocka_unit_test(test_ascii_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
