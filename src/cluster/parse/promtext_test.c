/* The Prometheus text parser and the node summary, on hand-written bodies. */
#include "cluster/parse/promtext.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/fetch/hosts.h"
#include "cluster/node.h"
#include "cluster/prometheus/prom_api.h"
#include "nvt_cmocka.h"
#include "util/array.h"

static void test_parse(void **state) {
    (void)state;
    static const char body[] = "# HELP a help text\n"
                               "# TYPE a gauge\n"
                               "a{x=\"q\\\"\\\\\\n\",y = \"\",} 1.5 1700000000000\r\n"
                               "\n"
                               "  b NaN\n"
                               "c{} -Inf\n"
                               "d 1e3\n";
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse(body, strlen(body), &doc, err, sizeof err), 0);
    assert_int_equal(doc.sample_count, 4);
    assert_string_equal(doc.samples[0].name, "a");
    assert_int_equal(doc.samples[0].label_count, 2);
    assert_string_equal(prom_label_value(&doc, &doc.samples[0], "x"), "q\"\\\n");
    assert_string_equal(prom_label_value(&doc, &doc.samples[0], "y"), "");
    assert_null(prom_label_value(&doc, &doc.samples[0], "z"));
    assert_true(doc.samples[0].value == 1.5);
    assert_string_equal(doc.samples[1].name, "b");
    assert_true(isnan(doc.samples[1].value));
    assert_true(isinf(doc.samples[2].value) && doc.samples[2].value < 0);
    assert_true(doc.samples[3].value == 1000);
    prom_doc_free(&doc);
}

static bool keep_gpu(const char *name, size_t len, const void *context) {
    const char *prefix = context;
    return len >= strlen(prefix) && memcmp(name, prefix, strlen(prefix)) == 0;
}

/* Only the wanted names are kept, but every line is checked: a broken line of a name not wanted
 * is an error too, as it is for Prometheus; and a body cut in the middle of a line is truncated. */
static void test_parse_only(void **state) {
    (void)state;
    static const char body[] = "# TYPE gpu_x gauge\n"
                               "process_y{pid=\"1\"} 4\n"
                               "gpu_x{index=\"0\"} 2\n"
                               "other 1 2\n"
                               "gpu_z 3\n";
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse_only(body, strlen(body), keep_gpu, "gpu_", &doc, err, sizeof err),
                     0);
    assert_int_equal(doc.sample_count, 2);
    assert_string_equal(doc.samples[0].name, "gpu_x");
    assert_string_equal(prom_label_value(&doc, &doc.samples[0], "index"), "0");
    assert_string_equal(doc.samples[1].name, "gpu_z");
    assert_true(doc.samples[1].value == 3);
    assert_int_equal(doc.label_count, 1);
    prom_doc_free(&doc);
    static const char broken[] = "gpu_x 1\nprocess_y{pid=\"1\" broken\ngpu_z 3\n";
    assert_int_equal(
        prom_parse_only(broken, strlen(broken), keep_gpu, "gpu_", &doc, err, sizeof err), -1);
    assert_string_equal(err, "line 2: expected ',' or '}' after label value");
    static const char cut[] = "gpu_x 1\nprocess_y{pid=\"1\"} 4\nprocess_y{pid=\"2\"} 4";
    assert_int_equal(prom_parse_only(cut, strlen(cut), keep_gpu, "gpu_", &doc, err, sizeof err),
                     -1);
    assert_string_equal(err, "truncated: the answer ends in the middle of a line");
    static const char html[] = "gpu_x 1\n<html>\n";
    assert_int_equal(prom_parse_only(html, strlen(html), keep_gpu, "gpu_", &doc, err, sizeof err),
                     -1);
    assert_string_equal(err, "line 2: expected a metric name");
    assert_true(node_summary_uses("gpu_memory_total_MiB", 20, NULL));
    assert_false(node_summary_uses("gpu_memory_total_MiBx", 21, NULL));
    assert_false(node_summary_uses("gpu_memory_total", 16, NULL));
}

/* prom_parse_only_in_place(): the same samples as prom_parse_only(), their strings in the
 * caller's buffer (no copy for the doc to own), and the same errors. */
static void test_parse_in_place(void **state) {
    (void)state;
    static const char body[] = "# TYPE gpu_x gauge\n"
                               "process_y{pid=\"1\"} 4\n"
                               "gpu_x{index=\"0\",name=\"a\\\"b\"} 2\r\n"
                               "gpu_z 3\n";
    char text[sizeof body];
    memcpy(text, body, sizeof body);
    struct prom_doc doc;
    char err[100];
    assert_int_equal(
        prom_parse_only_in_place(text, strlen(body), keep_gpu, "gpu_", &doc, err, sizeof err), 0);
    assert_null(doc.text);
    assert_int_equal(doc.sample_count, 2);
    assert_ptr_equal(doc.samples[0].name,
                     text + strlen("# TYPE gpu_x gauge\nprocess_y{pid=\"1\"} 4\n"));
    assert_string_equal(doc.samples[0].name, "gpu_x");
    assert_string_equal(prom_label_value(&doc, &doc.samples[0], "name"), "a\"b");
    assert_string_equal(doc.samples[1].name, "gpu_z");
    assert_true(doc.samples[1].value == 3);
    prom_doc_free(&doc);
    char broken[] = "gpu_x 1\nprocess_y{pid=\"1\" broken\ngpu_z 3\n";
    assert_int_equal(
        prom_parse_only_in_place(broken, strlen(broken), keep_gpu, "gpu_", &doc, err, sizeof err),
        -1);
    assert_string_equal(err, "line 2: expected ',' or '}' after label value");
    char cut[] = "gpu_x 1\ngpu_z 3";
    assert_int_equal(
        prom_parse_only_in_place(cut, strlen(cut), keep_gpu, "gpu_", &doc, err, sizeof err), -1);
    assert_string_equal(err, "truncated: the answer ends in the middle of a line");
}

static void expect_error(const char *body, const char *message) {
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse(body, strlen(body), &doc, err, sizeof err), -1);
    assert_string_equal(err, message);
    assert_null(doc.samples);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("a 1\nb\n", "line 2: missing value");
    expect_error("a{x=\"1\" 2\n", "line 1: expected ',' or '}' after label value");
    expect_error("a{x=\"1\n", "line 1: unterminated label value");
    expect_error("a{x 1\n", "line 1: expected '=' after label name");
    expect_error("a{=\"1\"} 1\n", "line 1: expected a label name");
    expect_error("a{x=1} 1\n", "line 1: expected '\"' before label value");
    expect_error("a{x=\"\\t\"} 1\n", "line 1: unknown escape in label value");
    expect_error("a one\n", "line 1: malformed value");
    expect_error("a nan\n", "line 1: malformed value");
    expect_error("a 0x10\n", "line 1: malformed value");
    expect_error("a 1 2 3\n", "line 1: unexpected text after the value");
    expect_error("a-b 1\n", "line 1: unexpected character in the metric name");
    expect_error("<html>\n", "line 1: expected a metric name");
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse("a 1\0", 4, &doc, err, sizeof err), -1);
    assert_string_equal(err, "NUL byte in the body");
}

static void test_summary(void **state) {
    (void)state;
    static const char body[] =
        "nvitop_info{hostname=\"n1\",device_count=\"2\",driver_version=\"550.1\"} 1.0\n"
        "gpu_utilization_Percentage{hostname=\"n1\",index=\"0\"} NaN\n"
        "gpu_utilization_Percentage{hostname=\"n1\",index=\"0:0\"} 50\n"
        "gpu_utilization_Percentage{hostname=\"n1\",index=\"1\"} 80\n"
        "gpu_utilization_Percentage{hostname=\"n1\",index=\"2\"} 20\n"
        "gpu_memory_total_MiB{hostname=\"n1\",index=\"0\"} 1000\n"
        "gpu_memory_total_MiB{hostname=\"n1\",index=\"0:0\"} 500\n"
        "gpu_memory_total_MiB{hostname=\"n1\",index=\"1\"} 1000\n"
        "gpu_memory_total_MiB{hostname=\"n1\",index=\"2\"} 1000\n"
        "gpu_memory_used_MiB{hostname=\"n1\",index=\"0:0\"} 400\n"
        "gpu_memory_used_MiB{hostname=\"n1\",index=\"0\"} 400\n"
        "gpu_memory_used_MiB{hostname=\"n1\",index=\"1\"} 100\n"
        "gpu_power_usage_W{hostname=\"n1\",index=\"1\"} 100.5\n"
        "gpu_power_usage_W{hostname=\"n1\",index=\"2\"} 50\n"
        "gpu_temperature_C{hostname=\"n1\",index=\"1\"} 70\n"
        "gpu_temperature_C{hostname=\"n1\",index=\"2\"} 40\n"
        "process_gpu_memory_MiB{index=\"0:0\",pid=\"1\",username=\"bob\"} 300\n"
        "process_gpu_memory_MiB{index=\"1\",pid=\"2\",username=\"amy\"} 200\n"
        "process_gpu_memory_MiB{index=\"1\",pid=\"3\",username=\"bob\"} 50\n"
        "process_gpu_memory_MiB{index=\"2\",pid=\"4\",username=\"cat\"} NaN\n"
        "process_gpu_memory_MiB{index=\"2\",pid=\"5\",username=\"dan\"} 1\n";
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse(body, strlen(body), &doc, err, sizeof err), 0);
    struct node_summary s;
    assert_true(node_summarize(&doc, &s, err, sizeof err));
    assert_string_equal(s.hostname, "n1");
    assert_string_equal(s.driver, "550.1");
    assert_int_equal(s.gpu_count, 3);
    assert_int_equal(s.mig_count, 1);
    assert_true(s.util_mean == 50 && s.util_max == 80); /* GPU 0 (MIG enabled) has no value */
    assert_true(s.memory_used_mib == 500 && s.memory_total_mib == 3000);
    assert_true(s.power_w == 150.5 && s.temperature_max_c == 70);
    assert_int_equal(s.process_count, 5);
    assert_int_equal(s.user_count, 4); /* the table shows NODE_TOP_USERS of them */
    assert_string_equal(s.users[0].name, "bob");
    assert_true(s.users[0].gpu_memory_mib == 350);
    assert_int_equal(s.users[0].gpu_count, 2); /* GPU 0 (its MIG device 0:0) and GPU 1 */
    assert_string_equal(s.users[1].name, "amy");
    assert_int_equal(s.users[1].gpu_count, 1);
    assert_string_equal(s.users[2].name, "dan");
    assert_string_equal(s.users[3].name, "cat"); /* NaN: no memory, but a user */
    prom_doc_free(&doc);

    assert_int_equal(prom_parse("up 1\n", 5, &doc, err, sizeof err), 0);
    assert_false(node_summarize(&doc, &s, err, sizeof err));
    assert_string_equal(
        err, "no nvitop-exporter (gpu_*) or dcgm-exporter (DCGM_FI_*) GPU metrics in the answer");
    prom_doc_free(&doc);
}

static void test_hosts(void **state) {
    (void)state;
    struct node *nodes;
    size_t count;
    char err[200];
    assert_true(hosts_parse("a:1, b:2 ,,https://c:3,http://d:4/x,e:5/x/metrics", &nodes, &count,
                            err, sizeof err));
    assert_int_equal(count, 5);
    assert_string_equal(nodes[0].url, "http://a:1/metrics");
    assert_string_equal(nodes[1].address, "b:2");
    assert_string_equal(nodes[2].url, "https://c:3/metrics");
    assert_string_equal(nodes[3].url, "http://d:4/x");
    assert_string_equal(nodes[4].url, "http://e:5/x/metrics");
    free(nodes);
    assert_false(hosts_parse(",", &nodes, &count, err, sizeof err));
    assert_string_equal(err, "no hosts in ','");
    assert_false(hosts_parse("ftp://x", &nodes, &count, err, sizeof err));
    assert_string_equal(err, "unsupported scheme (http or https only): 'ftp://x'");
    assert_false(hosts_parse("@/nonexistent/h", &nodes, &count, err, sizeof err));
    assert_string_equal(err, "cannot read hosts file '/nonexistent/h': No such file or directory");
}

static bool keep_none(const char *name, size_t len, const void *context) {
    (void)name, (void)len, (void)context;
    return false;
}

/* A line not kept is checked by a quick scan when it has the common shape, and by the full parser
 * otherwise: either way it is accepted or refused, with the same message, as when it is kept. */
static void test_skipped_lines(void **state) {
    (void)state;
    static const char *const lines[] = {
        "a 1\n",
        "a{} 1\n",
        "a{b=\"1\",} 2\n",
        "a{b=\"x\\\"y\"} 1\n",
        "a{b=\"x\"} 1 1700000000\n",
        "a {b=\"x\"} 1\n",
        "a{ b = \"x\" } 1\n",
        "a{b=\"x\"}  1\n",
        "a{b=\"x\"} NaN\n",
        "a{b=\"x\"} -Inf\n",
        "a{b=\"x\"} 1e-3\n",
        "a{b=\"x\"}\t1\n",
        "a{b=\"x\"} 1 \n",
        "a{b=\"x\"} 0x10\n",
        "a{b=\"x\"} 1 2 3\n",
        "a{b=\"x\"}\n",
        "a{b=\"x\"} \n",
        "a{b=\"x\" c=\"y\"} 1\n",
        "a{:b=\"x\"} 1\n",
        "a{b:c=\"x\"} 1\n",
        "a{1b=\"x\"} 1\n",
        "a{b=x} 1\n",
        "a{b=\"x} 1\n",
        "a{b=\"x\"\n",
        "a{b=\"x\"},c 1\n",
        "a{b=\"x\\q\"} 1\n",
        "a-b 1\n",
        "a{b=\"x\"}1\n",
        "a{b=\"\xc3\xa9\"} 1\n",
        "a{b=\"x\"} 1\t2\n",
        "a{b=\"x\"} 1x\n",
        "a{b=\"x\",c=\"y\\\"z\"} 1\n",
        "a{b=\"x\\\\\"} 1\n",
        "a{b=\"x\"} 1 \\\n",
        "a\\b 1\n",
    };
    for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
        struct prom_doc kept, skipped;
        char kept_err[100] = "", skipped_err[100] = "";
        int kept_rc = prom_parse(lines[i], strlen(lines[i]), &kept, kept_err, sizeof kept_err);
        int skipped_rc = prom_parse_only(lines[i], strlen(lines[i]), keep_none, NULL, &skipped,
                                         skipped_err, sizeof skipped_err);
        print_message("%s", lines[i]);
        assert_int_equal(skipped_rc, kept_rc);
        assert_string_equal(skipped_err, kept_err);
        if (skipped_rc == 0) {
            assert_int_equal(skipped.sample_count, 0);
            assert_int_equal(skipped.label_count, 0);
        }
        prom_doc_free(&kept);
        prom_doc_free(&skipped);
    }
}

/* Values are the doubles strtod() gives, whichever way they are converted. */
static void test_values(void **state) {
    (void)state;
    static const char *const values[] = {
        "0",
        "-0",
        "+7",
        "612.5",
        "0.1",
        "0.3",
        "2.675",
        ".5",
        "1.",
        "007",
        "40000",
        "123456789012345",
        "1234567890123456",
        "999999999999999.9",
        "0.000000000000001",
        "9007199254740993",
        "1e3",
        "-1.5E-3",
        "99.99999999999999",
        "4.35",
    };
    for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
        char line[64];
        snprintf(line, sizeof line, "a %s\n", values[i]);
        struct prom_doc doc;
        char err[100];
        assert_int_equal(prom_parse(line, strlen(line), &doc, err, sizeof err), 0);
        assert_int_equal(doc.sample_count, 1);
        double want = strtod(values[i], NULL);
        assert_memory_equal(&doc.samples[0].value, &want, sizeof want);
        prom_doc_free(&doc);
    }
}

static void test_time(void **state) {
    (void)state;
    assert_true(prom_api_parse_time("1970-01-01T00:00:10Z") == 10);
    assert_true(prom_api_parse_time("2026-11-23T16:10:29.5Z") == 1795450229.5);
    assert_true(prom_api_parse_time("2026-11-23T17:10:29.5+01:00") == 1795450229.5);
    assert_true(prom_api_parse_time("2026-11-23T15:40:29.5-00:30") == 1795450229.5);
    assert_true(isnan(prom_api_parse_time("2026-11-23 16:10:29Z")));
    assert_true(isnan(prom_api_parse_time("2026-11-23T16:10:29")));
    assert_true(isnan(prom_api_parse_time("2026-11-23T16:10:29Zx")));
    assert_true(isnan(prom_api_parse_time("")));
    assert_true(isnan(prom_api_parse_time(" 2026-11-23T16:10:29Z")));
    assert_true(isnan(prom_api_parse_time("2026-1-23T16:10:29Z")));
    assert_true(isnan(prom_api_parse_time("+026-11-23T16:10:29Z")));
    assert_true(isnan(prom_api_parse_time("2026-11-23T16:10:2")));
    assert_true(isnan(prom_api_parse_time("2026-11-23T16:10:2xZ")));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),         cmocka_unit_test(test_parse_only),
        cmocka_unit_test(test_errors),        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_hosts),         cmocka_unit_test(test_time),
        cmocka_unit_test(test_skipped_lines), cmocka_unit_test(test_parse_in_place),
        cmocka_unit_test(test_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
