/* The Prometheus API answer scanner (prom_json.h) on hand-written answers. */
#include "cluster/parse/prom_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nvt_cmocka.h"

/* What the callbacks saw, as text: "instance=a,job=j 3@1.5;" per series. */
struct seen {
    char text[512];
};

static void on_series(const struct prom_json_series *series, void *context) {
    struct seen *seen = context;
    size_t used = strlen(seen->text);
    for (size_t i = 0; i < series->label_count; i++) {
        used += (size_t)snprintf(seen->text + used, sizeof seen->text - used, "%s%s=%s",
                                 i > 0 ? "," : "", series->labels[i].name, series->labels[i].value);
    }
    used += (size_t)snprintf(seen->text + used, sizeof seen->text - used, " %g@%g", series->value,
                             series->time);
    for (size_t i = 0; i < series->point_count; i++) {
        used += (size_t)snprintf(seen->text + used, sizeof seen->text - used, " %g@%g",
                                 series->point_value[i], series->point_time[i]);
    }
    snprintf(seen->text + used, sizeof seen->text - used, ";");
}

static void on_target(const struct prom_json_target *t, void *context) {
    struct seen *seen = context;
    size_t used = strlen(seen->text);
    snprintf(seen->text + used, sizeof seen->text - used, "%s/%s/%s/%s/%s;",
             t->instance ? t->instance : "-", t->job ? t->job : "-", t->health ? t->health : "-",
             t->last_error ? t->last_error : "-", t->last_scrape ? t->last_scrape : "-");
}

static bool vector(const char *answer, struct seen *seen, char *err, size_t errlen) {
    char body[1024];
    snprintf(body, sizeof body, "%s", answer);
    memset(seen, 0, sizeof *seen);
    return prom_json_vector(body, strlen(body), on_series, seen, err, errlen);
}

static void test_vector(void **state) {
    (void)state;
    struct seen seen;
    char err[200];
    assert_true(vector("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                       "{\"metric\":{\"instance\":\"a:1\",\"job\":\"j\"},\"value\":[1.5,\"3\"]},"
                       " {\"value\" : [ 2e0 , \"NaN\" ] , \"metric\" : {\"u\":\"\\u00e9\\\"x\","
                       "\"n\":null,\"k\":[1,{\"z\":true}]}, \"histogram\": {}}\n],"
                       "\"extra\":[-0.5e+3,false]}, \"warnings\":[\"w\"]}\n",
                       &seen, err, sizeof err));
    assert_string_equal(seen.text, "instance=a:1,job=j 3@1.5;u=\xc3\xa9\"x nan@2;");
    /* Escapes after plain text, between plain runs, at the end; times in milliseconds. */
    assert_true(vector(
        "{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":{\"u\":\"ab\\ncd\\t\\u00e9f\","
        "\"v\":\"plain\",\"w\":\"x\\\\\"},\"value\":[1764234567.125,\"612.5\"]}]}}",
        &seen, err, sizeof err));
    assert_string_equal(seen.text, "u=ab\ncd\t\xc3\xa9"
                                   "f,v=plain,w=x\\ 612.5@1.76423e+09;");
    assert_true(
        vector("{\"status\":\"success\",\"data\":{\"result\":[]}}", &seen, err, sizeof err));
    assert_string_equal(seen.text, "");
}

static void expect_error(const char *answer, const char *message);

/* A range query's matrix: each series' points, oldest first. */
static void test_matrix(void **state) {
    (void)state;
    struct seen seen;
    char err[200];
    assert_true(vector("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                       "{\"metric\":{\"instance\":\"a:1\"},\"values\":[[10,\"20\"],[20,\"40.5\"]]},"
                       "{\"values\":[],\"metric\":{\"instance\":\"b:1\"}}]}}",
                       &seen, err, sizeof err));
    assert_string_equal(seen.text, "instance=a:1 nan@nan 20@10 40.5@20;instance=b:1 nan@nan;");
    expect_error("{\"status\":\"success\",\"data\":{\"result\":[{\"values\":[1]}]}}",
                 "not a Prometheus API answer (JSON: expected [time, \"value\"] at byte 49)");
}

static void expect_error(const char *answer, const char *message) {
    struct seen seen;
    char err[200];
    assert_false(vector(answer, &seen, err, sizeof err));
    assert_string_equal(err, message);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("<html>", "not a Prometheus API answer (JSON: expected an object at byte 0)");
    expect_error("{\"status\":\"error\",\"error\":\"bad query\"}",
                 "Prometheus answered an error: bad query");
    expect_error("{\"data\":{\"result\":[]}}",
                 "not a Prometheus API answer (no \"status\": \"success\")");
    expect_error("{\"status\":\"success\"}", "not a Prometheus API answer (no \"data\")");
    expect_error("{\"status\":\"success\",\"data\":{}}",
                 "not a Prometheus API answer (JSON: no result list in \"data\" at byte 29)");
    expect_error("{\"status\" \"success\"}",
                 "not a Prometheus API answer (JSON: expected ':' after a key at byte 10)");
    expect_error("{\"a\":01}", "not a Prometheus API answer (JSON: malformed number at byte 7)");
    expect_error("{\"a\":0x1}",
                 "not a Prometheus API answer (JSON: expected ',' or '}' in an object at byte 6)");
    expect_error("{\"a\":\"\\ud800\"}",
                 "not a Prometheus API answer (JSON: lone surrogate in a string at byte 12)");
    expect_error("{\"a\":\"\\u0000\"}",
                 "not a Prometheus API answer (JSON: NUL in a string at byte 12)");
    expect_error("{\"a\":\"x", "not a Prometheus API answer (JSON: unterminated string at byte 7)");
    expect_error("{\"a\":1} x",
                 "not a Prometheus API answer (JSON: text after the answer at byte 8)");
    char deep[300] = "{\"a\":";
    for (int i = 0; i < 100; i++) {
        strcat(deep, "[");
    }
    expect_error(deep, "not a Prometheus API answer (JSON: nested too deeply at byte 69)");
}

static void test_targets(void **state) {
    (void)state;
    char body[] =
        "{\"status\":\"success\",\"data\":{\"activeTargets\":["
        "{\"discoveredLabels\":{\"__address__\":\"a:1\"},\"labels\":{\"instance\":\"a:1\","
        "\"job\":\"nv\"},\"scrapeUrl\":\"http://a:1/metrics\",\"lastError\":\"\","
        "\"lastScrape\":\"2026-11-23T16:10:29.5Z\",\"lastScrapeDuration\":0.01,"
        "\"health\":\"up\"},"
        "{\"labels\":{\"job\":\"nv\"},\"health\":3}],\"droppedTargets\":[]}}";
    struct seen seen = {{0}};
    char err[200];
    assert_true(prom_json_targets(body, strlen(body), on_target, &seen, err, sizeof err));
    assert_string_equal(seen.text, "a:1/nv/up//2026-11-23T16:10:29.5Z;-/nv/-/-/-;");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector),
        cmocka_unit_test(test_matrix),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
