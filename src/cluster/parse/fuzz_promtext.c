/*
 * libFuzzer target for the Prometheus text parser (whole and selective), the node summary and the
 * node snapshot: whatever the bytes, no crash, no out-of-bounds read, every sample's labels lie
 * inside the label array, and the summary parsed in place is the one parsed from a copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/node.h"
#include "cluster/parse/promtext.h"
#include "cluster/remote_snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* node_summarize_in_place() (a direct read's) agrees with node_summarize_body(). */
static void check_in_place(const char *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL) {
        return;
    }
    memcpy(text, data, size);
    struct node_summary copied, in_place;
    char why_copied[200], why_in_place[200];
    bool ok = node_summarize_body(data, size, &copied, why_copied, sizeof why_copied);
    if (ok != node_summarize_in_place(text, size, &in_place, why_in_place, sizeof why_in_place) ||
        (ok ? memcmp(&copied, &in_place, sizeof copied) != 0
            : strcmp(why_copied, why_in_place) != 0)) {
        abort();
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct prom_doc doc;
    char err[200];
    check_in_place((const char *)data, size);
    if (prom_parse((const char *)data, size, &doc, err, sizeof err) != 0) {
        return 0;
    }
    for (size_t i = 0; i < doc.sample_count; i++) {
        const struct prom_sample *s = &doc.samples[i];
        if (s->label_first + s->label_count > doc.label_count) {
            abort();
        }
    }
    prom_doc_free(&doc);
    /* The summary reads the lines of its own series only (what a direct read does). */
    struct node_summary summary;
    (void)node_summarize_body((const char *)data, size, &summary, err, sizeof err);
    /* The same body as a node view's snapshot: every process on a device of the snapshot. */
    struct remote_snapshot *rs = remote_snapshot_build((const char *)data, size, err, sizeof err);
    if (rs != NULL) {
        for (size_t i = 0; i < rs->snap.process_count; i++) {
            if (rs->snap.processes[i].device >= rs->snap.device_count) {
                abort();
            }
        }
        remote_snapshot_free(rs);
    }
    return 0;
}
