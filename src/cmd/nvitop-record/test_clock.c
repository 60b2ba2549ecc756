/*
 * nvitop-record's settable clock for tests (test_clock.h).
 */
#include "cmd/nvitop-record/test_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/parse.h"
#include "util/xalloc.h"

/* One run, "T" or "T+STEPxN", in [text, end). */
static bool parse_run(const char *text, size_t len, struct test_clock_run *run) {
    char buf[96];
    if (len == 0 || len >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    run->step = 1.0;
    run->count = 1;
    char *plus = strchr(buf, '+');
    if (plus != NULL) {
        char *times = strchr(plus, 'x');
        uint64_t n = 0;
        if (times == NULL) {
            return false;
        }
        *plus = '\0';
        *times = '\0';
        if (parse_double(plus + 1, &run->step) != 0 || parse_u64(times + 1, 10, &n) != 0 ||
            n == 0) {
            return false;
        }
        run->count = n;
    }
    return parse_double(buf, &run->start) == 0;
}

bool test_clock_parse(const char *text, struct test_clock *c, char *error, size_t error_size) {
    c->runs = NULL;
    c->run_count = 0;
    for (const char *at = text;;) {
        const char *comma = strchr(at, ',');
        size_t len = comma != NULL ? (size_t)(comma - at) : strlen(at);
        c->runs = xrealloc(c->runs, (c->run_count + 1) * sizeof(*c->runs));
        if (!parse_run(at, len, &c->runs[c->run_count])) {
            snprintf(error, error_size,
                     "NVITOP_RECORD_TEST_TIMES: expected runs such as 1000+1x60,400, got '%s'",
                     text);
            test_clock_fini(c);
            return false;
        }
        c->run_count++;
        if (comma == NULL) {
            return true;
        }
        at = comma + 1;
    }
}

double test_clock_time(const struct test_clock *c, unsigned long long n) {
    for (size_t i = 0; i < c->run_count; i++) {
        const struct test_clock_run *run = &c->runs[i];
        if (n < run->count) {
            return run->start + run->step * (double)n;
        }
        n -= run->count;
    }
    const struct test_clock_run *last = &c->runs[c->run_count - 1];
    return last->start + last->step * (double)(last->count + n);
}

void test_clock_fini(struct test_clock *c) {
    free(c->runs);
    c->runs = NULL;
    c->run_count = 0;
}
