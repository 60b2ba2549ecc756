/*
 * nvitop-collect's writers: numbers in their shortest exact form, CSV quoting, the header widened
 * by rewriting a file, new keys left out (with a warning) where the output cannot be rewritten,
 * and JSON Lines with null for N/A.
 */
#include "collect_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

static void check_number(double value, const char *expected) {
    char buf[32];
    collect_format_number(buf, sizeof(buf), value);
    assert_string_equal(buf, expected);
}

static void test_numbers(void **state) {
    (void)state;
    check_number(50.0, "50");
    check_number(0.0, "0");
    check_number(4.2, "4.2");
    check_number(0.1 + 0.2, "0.30000000000000004");
    check_number(1795447099.211891, "1795447099.211891");
    check_number(-2.5, "-2.5");
    check_number(1e-7, "1e-07");
    check_number(1e20, "1e+20");
    check_number(NAN, "");
}

/* Everything written to a temporary file, as text. */
static char *contents(FILE *f) {
    fflush(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = calloc(1, (size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    return text;
}

static void test_csv_widens_a_file(void **state) {
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct collect_writer *w = collect_writer_new(f, true, COLLECT_CSV, "test");
    struct nvt_metric first[] = {{"t/gpu:0/x", 1.0}, {"t/gpu:(0, 1)/y", NAN}};
    assert_true(collect_writer_row(w, first, 2));
    struct nvt_metric second[] = {{"t/gpu:0/x", 2.5}, {"t/pid:7/\"q\"", 3.0}};
    assert_true(collect_writer_row(w, second, 2));
    char *text = contents(f);
    assert_string_equal(text, "t/gpu:0/x,\"t/gpu:(0, 1)/y\",\"t/pid:7/\"\"q\"\"\"\n"
                              "1,,\n"
                              "2.5,,3\n");
    free(text);
    /* An unchanged header appends. */
    assert_true(collect_writer_row(w, first, 1));
    text = contents(f);
    assert_non_null(strstr(text, "2.5,,3\n1,,\n"));
    free(text);
    collect_writer_free(w);
    fclose(f);
}

static void test_csv_pipe_keeps_its_header(void **state) {
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct collect_writer *w = collect_writer_new(f, false, COLLECT_CSV, "test");
    struct nvt_metric first[] = {{"a", 1.0}};
    struct nvt_metric second[] = {{"a", 2.0}, {"b", 3.0}};
    assert_true(collect_writer_row(w, first, 1));
    assert_true(collect_writer_row(w, second, 2)); /* warns once on stderr */
    char *text = contents(f);
    assert_string_equal(text, "a\n1\n2\n");
    free(text);
    collect_writer_free(w);
    fclose(f);
}

static void test_jsonl(void **state) {
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct collect_writer *w = collect_writer_new(f, true, COLLECT_JSONL, "test");
    struct nvt_metric row[] = {{"t/host/cpu_percent (%)/mean", 12.5}, {"t/a\\b", NAN}};
    assert_true(collect_writer_row(w, row, 2));
    char *text = contents(f);
    assert_string_equal(text, "{\"t/host/cpu_percent (%)/mean\": 12.5, \"t/a\\\\b\": null}\n");
    free(text);
    collect_writer_free(w);
    fclose(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_csv_widens_a_file),
        cmocka_unit_test(test_csv_pipe_keeps_its_header),
        cmocka_unit_test(test_jsonl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
