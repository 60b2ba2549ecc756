/* term_text.h: control characters and invalid UTF-8 become '?', one per character or byte. */
#include "util/text/term_text.h"

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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_three_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
