#include "util/text/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"
#include "util/text/str.h"

static void test_strbuf(void **state) {
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    assert_string_equal(strbuf_cstr(&sb), "");
    assert_true(strbuf_append_str(&sb, "GPU"));
    assert_true(strbuf_append_char(&sb, ' '));
    assert_true(strbuf_appendf(&sb, "%d: %s", 3, "A100"));
    assert_string_equal(strbuf_cstr(&sb), "GPU 3: A100");
    assert_int_equal(sb.len, 11);
    for (int i = 0; i < 1000; i++) {
        assert_true(strbuf_append(&sb, "0123456789", 10));
    }
    assert_int_equal(sb.len, 10011);
    assert_int_equal(strlen(strbuf_cstr(&sb)), 10011);
    strbuf_clear(&sb);
    assert_string_equal(strbuf_cstr(&sb), "");
    assert_true(strbuf_append(&sb, "a\0b", 3));
    assert_int_equal(sb.len, 3);
    assert_false(strbuf_reserve(&sb, SIZE_MAX));
    char *owned = strbuf_detach(&sb);
    assert_memory_equal(owned, "a\0b", 4);
    assert_null(sb.data);
    free(owned);
    owned = strbuf_detach(&sb);
    assert_string_equal(owned, "");
    free(owned);
    strbuf_fini(&sb);
}

static void test_str(void **state) {
    (void)state;
    char buf[6];
    assert_int_equal(str_copy(buf, sizeof(buf), "hello world"), 11);
    assert_string_equal(buf, "hello");
    assert_int_equal(str_copy(buf, sizeof(buf), "hi"), 2);
    assert_int_equal(str_append(buf, sizeof(buf), "!!!!"), 6);
    assert_string_equal(buf, "hi!!!");
    assert_int_equal(str_copy(NULL, 0, "abc"), 3);
    assert_true(str_starts_with("nvitop", "nvi"));
    assert_false(str_starts_with("nv", "nvi"));
    assert_true(str_ends_with("libnvidia-ml.so.1", ".so.1"));
    assert_false(str_ends_with("a", "ab"));
    char *dup = str_dup_n("abcdef", 3);
    assert_string_equal(dup, "abc");
    free(dup);
    assert_null(str_dup_n("x", SIZE_MAX));
}

/* str_u64() against snprintf, truncation included. */
static void test_str_u64(void **state) {
    (void)state;
    static const uint64_t values[] = {0, 7, 10, 99, 100, 4294967295u, 4294967296u, UINT64_MAX};
    for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
        char mine[32];
        char theirs[32];
        int len = snprintf(theirs, sizeof(theirs), "%" PRIu64, values[i]);
        assert_int_equal(str_u64(mine, sizeof(mine), values[i]), len);
        assert_string_equal(mine, theirs);
        char small[4];
        snprintf(theirs, sizeof(small), "%" PRIu64, values[i]);
        assert_int_equal(str_u64(small, sizeof(small), values[i]), len);
        assert_string_equal(small, theirs);
    }
    assert_int_equal(str_u64(NULL, 0, 12345), 5);
}

/* str_format_s() against snprintf: widths, left alignment, "*" widths (negative too), "%%",
 * texts longer than their width and truncation. */
static void test_str_format_s(void **state) {
    (void)state;
    const char *long_text = "a text much longer than the thirty-two blanks of one padding step";
    char mine[256];
    char theirs[256];
    for (int width = -70; width <= 70; width += 7) {
        for (size_t size = 0; size <= sizeof(mine); size += size < 16 ? 1 : 60) {
            int n = snprintf(size > 0 ? theirs : NULL, size, "│ %3s  %-19s %4s │ %*s%s 100%% %s|",
                             "12", "NVIDIA H100", "On", width, "x", "", long_text);
            size_t m =
                str_format_s(size > 0 ? mine : NULL, size, "│ %3s  %-19s %4s │ %*s%s 100%% %s|",
                             "12", "NVIDIA H100", "On", width, "x", "", long_text);
            assert_int_equal(m, n);
            if (size > 0) {
                assert_string_equal(mine, theirs);
            }
        }
    }
    assert_int_equal(str_format_s(mine, sizeof(mine), "plain"), 5);
    assert_string_equal(mine, "plain");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strbuf),
        cmocka_unit_test(test_str),
        cmocka_unit_test(test_str_u64),
        cmocka_unit_test(test_str_format_s),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
