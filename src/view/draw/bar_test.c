/*
 * view_bar() against nvitop 1.7's make_bar_chart (expected strings produced by nvitop itself).
 */
#include "view/draw/bar.h"

#include <math.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"

struct bar_case {
    const char *prefix;
    double value;
    bool integral;
    size_t width;
    const char *extra;
    bool swap;
    const char *blank;
    const char *expected;
};

static const struct bar_case cases[] = {
    {"MEM", 0, true, 30, NULL, false, NULL, "MEM: ▏ 0%                     "},
    {"MEM", 0.4, false, 30, NULL, false, NULL, "MEM: ▏ 0.4%                   "},
    {"MEM", 50, true, 30, NULL, false, NULL, "MEM: ██████████▌ 50%          "},
    {"MEM", 99.5, false, 30, NULL, false, NULL, "MEM: ████████████████████▉ MAX"},
    {"MEM", 150, true, 30, NULL, false, NULL, "MEM: █████████████████████ MAX"},
    {"MEM", NAN, false, 30, NULL, false, NULL, "MEM: ░░░░░░░░░░░░░░░░░░░░░ N/A"},
    {"MEM", 81.8, false, 40, "20110MiB", true, " ", "MEM: █████████████████████████▍ 20110MiB"},
    {"UTL", 87, true, 40, "@ 1980MHz", false, " ", "UTL: ███████████████████████████ 87%    "},
    {"PWR", NAN, false, 20, "312W", true, " ", "PWR: ░░░░░░░░░░ 312W"},
    {"CPU", 45.5, false, 36, "UPTIME: 5:38", false, " ", "CPU: ████████████▎ 45.5%            "},
    {"SWP", 0.0, false, 29, NULL, false, NULL, "SWP: ▏ 0.0%                  "},
    {"MBW", 5, true, 10, "@ 1215MHz", false, " ", "MBW: ▏ 5% "},
    {"MEM", 12.5, false, 25, NULL, false, NULL, "MEM: ██ 12.5%            "},
};

static void test_bars_match_nvitop(void **state) {
    (void)state;
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const struct bar_case *c = &cases[i];
        struct strbuf out = STRBUF_INIT;
        struct view_percent percent = {c->value, c->integral};
        struct view_bar_options options = {c->extra, c->swap, c->blank};
        assert_true(view_bar(&out, c->prefix, percent, c->width, &options));
        assert_string_equal(strbuf_cstr(&out), c->expected);
        strbuf_fini(&out);
    }
}

static void test_bar_too_narrow_never_crashes(void **state) {
    (void)state;
    for (size_t width = 0; width < 12; width++) {
        struct strbuf out = STRBUF_INIT;
        struct view_percent percent = {42.0, false};
        struct view_bar_options options = {"USED: 1.00GiB", true, " "};
        assert_true(view_bar(&out, "MEM", percent, width, &options));
        assert_true(strncmp(strbuf_cstr(&out), "MEM: ", 5) == 0);
        strbuf_fini(&out);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bars_match_nvitop),
        cmocka_unit_test(test_bar_too_narrow_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
