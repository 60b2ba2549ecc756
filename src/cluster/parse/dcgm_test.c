/* dcgm-exporter bodies read as nvitop-exporter's: the translation's text, the blank values, and
 * the node summary and node snapshot of the bodies in tests/cluster/dcgm (written from
 * dcgm-exporter's documented default counters and labels: 3.x, 4.x with Kubernetes labels, 4.x
 * with MIG instances).  argv[1]: that folder. */
#include "cluster/parse/dcgm.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/node.h"
#include "cluster/remote_snapshot.h"
#include "nvt_cmocka.h"
#include "util/sys/file.h"

static const char *bodies_dir;

static char *read_body(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", bodies_dir, name);
    char *text = NULL;
    assert_int_equal(file_read_at(AT_FDCWD, path, 1 << 20, &text, len), 0);
    return text;
}

static void test_blank(void **state) {
    (void)state;
    assert_true(dcgm_blank(2147483632.0));          /* DCGM_INT32_BLANK */
    assert_true(dcgm_blank(2147483634.0));          /* DCGM_INT32_NOT_SUPPORTED */
    assert_true(dcgm_blank(2147483635.0));          /* DCGM_INT32_NOT_PERMISSIONED */
    assert_true(dcgm_blank(140737488355328.0));     /* DCGM_FP64_BLANK */
    assert_true(dcgm_blank(140737488355331.0));     /* DCGM_FP64_NOT_PERMISSIONED */
    assert_true(dcgm_blank(9223372036854775794.0)); /* DCGM_INT64_NOT_SUPPORTED */
    assert_false(dcgm_blank(0));
    assert_false(dcgm_blank(2147483631.0));
    assert_false(dcgm_blank(2147483636.0));
    assert_false(dcgm_blank(140737488355332.0));
    assert_false(dcgm_blank(79));
    assert_true(dcgm_is_family("DCGM_FI_DEV_GPU_UTIL", 20));
    assert_false(dcgm_is_family("DCGM_F", 6));
    assert_false(dcgm_is_family("gpu_utilization_Percentage", 26));
    assert_true(dcgm_is_read("DCGM_FI_DEV_FB_RESERVED", 23));
    assert_false(dcgm_is_read("DCGM_FI_DEV_FB_RESERVE", 22));
    assert_false(dcgm_is_read("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 36));
}

static void test_translate(void **state) {
    (void)state;
    static const char body[] =
        "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",device=\"nvidia1\",modelName=\"M\","
        "Hostname=\"h\",DCGM_FI_DRIVER_VERSION=\"550.1\",container=\"c\",namespace=\"ns\","
        "pod=\"p\"} 40\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"h\",pod=\"p\",namespace=\"ns\"} "
        "100\n"
        "DCGM_FI_DEV_FB_FREE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"h\"} 900\n"
        "DCGM_FI_DEV_FB_RESERVED{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"h\"} 24\n"
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"h\"} 140737488355328\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"0\",GPU_I_ID=\"3\",GPU_I_PROFILE=\"1g.10gb\",modelName=\"M\"} "
        "7\n"
        "DCGM_FI_DEV_FB_FREE{gpu=\"0\",GPU_I_ID=\"3\",GPU_I_PROFILE=\"1g.10gb\"} 3\n"
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"x\"} 50\n" /* not a GPU index: skipped */
        "up 1\n";
    struct prom_doc doc;
    char err[100];
    assert_int_equal(prom_parse(body, strlen(body), &doc, err, sizeof err), 0);
    struct strbuf out = STRBUF_INIT;
    assert_true(dcgm_translate(&doc, &out));
    prom_doc_free(&doc);
    static const char *const lines[] = {
        "nvitop_info{hostname=\"h\",driver_version=\"550.1\",exporter=\"dcgm-exporter\"} 1",
        "gpu_memory_total_MiB{hostname=\"h\",index=\"0\",devicename=\"\",uuid=\"\"} 10",
        "gpu_utilization_Percentage{hostname=\"h\",index=\"0\",devicename=\"\",uuid=\"\"} NaN",
        "gpu_memory_used_MiB{hostname=\"h\",index=\"0\",devicename=\"\",uuid=\"\"} 7",
        "gpu_memory_free_MiB{hostname=\"h\",index=\"0\",devicename=\"\",uuid=\"\"} 3",
        "gpu_memory_total_MiB{hostname=\"h\",index=\"0:3\",devicename=\"M MIG 1g.10gb\",uuid=\"\"} "
        "10",
        "gpu_memory_total_MiB{hostname=\"h\",index=\"1\",devicename=\"M\",uuid=\"GPU-b\"} 1024",
        "gpu_utilization_Percentage{hostname=\"h\",index=\"1\",devicename=\"M\",uuid=\"GPU-b\"} 40",
        "gpu_power_usage_W{hostname=\"h\",index=\"1\",devicename=\"M\",uuid=\"GPU-b\"} NaN",
        "nvitop_pod_gpu_memory_MiB{index=\"1\",username=\"ns/p\"} 100",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (strstr(strbuf_cstr(&out), lines[i]) == NULL) {
            fail_msg("missing line %s in\n%s", lines[i], strbuf_cstr(&out));
        }
    }
    /* A second parse of the translation succeeds (it is Prometheus text). */
    assert_int_equal(prom_parse(out.data, out.len, &doc, err, sizeof err), 0);
    prom_doc_free(&doc);
    strbuf_fini(&out);

    /* Not dcgm-exporter's: nothing written. */
    assert_int_equal(
        prom_parse("gpu_utilization_Percentage{index=\"0\"} 5\n", 40, &doc, err, sizeof err), 0);
    assert_false(dcgm_translate(&doc, &out));
    assert_int_equal(out.len, 0);
    prom_doc_free(&doc);
}

/* The document built directly holds what a parse of the text translation holds, sample for
 * sample: the summary and the node view read the one, the tests above the other. */
static void check_same_translation(const char *body, size_t len) {
    struct prom_doc doc, parsed, built;
    char err[200];
    assert_int_equal(prom_parse(body, len, &doc, err, sizeof err), 0);
    struct strbuf text = STRBUF_INIT;
    assert_true(dcgm_translate(&doc, &text));
    assert_int_equal(prom_parse(text.data, text.len, &parsed, err, sizeof err), 0);
    assert_true(dcgm_translate_doc(&doc, &built));
    prom_doc_free(&doc); /* the built document's strings are its own */
    if (!prom_doc_equal(&parsed, &built, err, sizeof err)) {
        fail_msg("the built translation differs: %s\n%s", err, strbuf_cstr(&text));
    }
    assert_true(built.sample_count > 0);
    prom_doc_free(&parsed);
    prom_doc_free(&built);
    strbuf_fini(&text);
}

static void test_translate_doc(void **state) {
    (void)state;
    static const char *const names[] = {"dcgm-3x.prom", "dcgm-4x-k8s.prom", "dcgm-4x-mig.prom"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len;
        char *body = read_body(names[i], &len);
        check_same_translation(body, len);
        free(body);
    }
    /* Escapes, a value past 1e15, -Inf and a fraction (written with %.17g, read back). */
    static const char odd[] =
        "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"a\\\\b\\\"c\\nd\",modelName=\"M\"} 0.1\n"
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 1e300\n"
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} -Inf\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"0\",pod=\"p\"} 12.75\n";
    check_same_translation(odd, strlen(odd));
    struct prom_doc doc, built;
    char err[100];
    assert_int_equal(prom_parse("up 1\n", 5, &doc, err, sizeof err), 0);
    assert_false(dcgm_translate_doc(&doc, &built));
    assert_int_equal(built.sample_count, 0);
    prom_doc_free(&doc);
}

static void test_summaries(void **state) {
    (void)state;
    size_t len;
    char *body = read_body("dcgm-3x.prom", &len);
    struct node_summary s;
    char why[200];
    assert_true(node_summarize_body(body, len, &s, why, sizeof why));
    free(body);
    assert_true(s.dcgm);
    assert_string_equal(s.hostname, "dgx-a");
    assert_string_equal(s.driver, ""); /* 3.x has no DCGM_FI_DRIVER_VERSION label */
    assert_int_equal(s.gpu_count, 2);
    assert_int_equal(s.mig_count, 0);
    assert_true(s.util_mean == 46.5 && s.util_max == 93);
    assert_true(s.memory_used_mib == 30710 && s.memory_total_mib == 81072);
    assert_true(fabs(s.power_w - 287.514) < 1e-9); /* GPU 1's power is DCGM_FP64_BLANK */
    assert_true(s.temperature_max_c == 61);
    assert_int_equal(s.process_count, 0);
    assert_int_equal(s.user_count, 0);
    /* GPU 0: SW thermal slowdown (0x20) and above its slowdown temperature. */
    assert_int_equal(s.flags, NODE_FLAG_THROTTLE | NODE_FLAG_HOT);
    char flags[64];
    node_flags_text(flags, sizeof flags, &s);
    assert_string_equal(flags, "THROTTLE,HOT");

    body = read_body("dcgm-4x-k8s.prom", &len);
    assert_true(node_summarize_body(body, len, &s, why, sizeof why));
    free(body);
    assert_string_equal(s.hostname, "k8s-gpu-7");
    assert_string_equal(s.driver, "550.54.15");
    assert_int_equal(s.gpu_count, 4);
    assert_true(s.util_mean == 58.75 && s.util_max == 100);
    assert_true(s.memory_used_mib == 159295);
    assert_true(s.memory_total_mib == 4 * 81506.0);
    assert_true(s.power_w == 1671 && s.temperature_max_c == 71);
    assert_int_equal(s.user_count, 2); /* pods as users: GPU 3 has an empty pod label */
    assert_string_equal(s.users[0].name, "ml/train-0");
    assert_true(s.users[0].gpu_memory_mib == 139264);
    assert_string_equal(s.users[1].name, "serving/infer-a");
    /* GPU 3's row remapping failed and it has double-bit ECC errors; the SW power cap (0x4) and
     * a blank slowdown are no flag. */
    assert_int_equal(s.flags, NODE_FLAG_ECC);

    body = read_body("dcgm-4x-mig.prom", &len);
    assert_true(node_summarize_body(body, len, &s, why, sizeof why));
    free(body);
    assert_string_equal(s.hostname, "mig-node");
    assert_string_equal(s.driver, "535.161.08");
    assert_int_equal(s.gpu_count, 2);
    assert_int_equal(s.mig_count, 2);
    /* GPU 0's utilization is DCGM_INT32_NOT_SUPPORTED (MIG enabled): GPU 1's alone. */
    assert_true(s.util_mean == 12 && s.util_max == 12);
    /* GPU 0's memory is its two instances' sum. */
    assert_true(s.memory_used_mib == 20224 + 13 + 11000);
    assert_true(s.memory_total_mib == 40224 + 40424 + 81559);
    assert_int_equal(s.flags, NODE_FLAG_XID);
    assert_true(s.xid_last == 79);
    node_flags_text(flags, sizeof flags, &s);
    assert_string_equal(flags, "XID:79");
}

static void test_snapshot(void **state) {
    (void)state;
    size_t len;
    char *body = read_body("dcgm-4x-mig.prom", &len);
    char err[200];
    struct remote_snapshot *rs = remote_snapshot_build(body, len, err, sizeof err);
    free(body);
    assert_non_null(rs);
    const struct nvt_snapshot *snap = &rs->snap;
    assert_int_equal(snap->device_count, 4);
    assert_int_equal(snap->system.device_count, 2);
    assert_string_equal(snap->system.driver_version, "535.161.08");
    assert_string_equal(snap->host.hostname, "mig-node");
    assert_string_equal(rs->devices[0].info.name, "NVIDIA A100-SXM4-80GB");
    assert_int_equal(rs->devices[0].child_count, 2);
    assert_true(rs->devices[1].info.is_mig);
    assert_string_equal(rs->devices[1].info.name, "NVIDIA A100-SXM4-80GB MIG 3g.40gb");
    assert_int_equal(rs->devices[1].state.memory_used_bytes, 20224ull << 20);
    assert_int_equal(rs->devices[0].state.gpu_util_pct, NVT_NA_U32); /* a blank value */
    assert_int_equal(rs->devices[3].state.gpu_util_pct, 12);
    assert_int_equal(rs->devices[3].state.temperature_c, 39);
    assert_int_equal(snap->process_count, 0);
    remote_snapshot_free(rs);

    /* Uncorrectable ECC errors per GPU (DCGM_FI_DEV_ECC_DBE_VOL_TOTAL): the panel's column. */
    body = read_body("dcgm-4x-k8s.prom", &len);
    rs = remote_snapshot_build(body, len, err, sizeof err);
    free(body);
    assert_non_null(rs);
    assert_int_equal(rs->snap.device_count, 4);
    assert_int_equal(rs->devices[0].state.ecc_uncorrected_volatile, 0);
    assert_int_equal(rs->devices[3].state.ecc_uncorrected_volatile, 2);
    remote_snapshot_free(rs);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BODIES_DIR\n", argv[0]);
        return 2;
    }
    bodies_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blank),         cmocka_unit_test(test_translate),
        cmocka_unit_test(test_translate_doc), cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_snapshot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
