/*
 * libFuzzer target for the dcgm-exporter translation (parse/dcgm.h): whatever the bytes, no
 * crash, and a translation is always Prometheus text our parser reads back into what the directly
 * built translation holds; then the node summary and the node snapshot of the same body (which
 * translate it again).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cluster/node.h"
#include "cluster/parse/dcgm.h"
#include "cluster/parse/promtext.h"
#include "cluster/remote_snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct prom_doc doc;
    char err[200];
    if (prom_parse((const char *)data, size, &doc, err, sizeof err) != 0) {
        return 0;
    }
    struct strbuf out = STRBUF_INIT;
    struct prom_doc built;
    bool translated = dcgm_translate(&doc, &out);
    if (dcgm_translate_doc(&doc, &built) != translated) {
        fputs("the two translations disagree on whether there is one\n", stderr);
        abort();
    }
    if (translated) {
        struct prom_doc again;
        if (prom_parse(out.data, out.len, &again, err, sizeof err) != 0) {
            fprintf(stderr, "translation not read back: %s\n", err);
            abort();
        }
        if (!prom_doc_equal(&again, &built, err, sizeof err)) {
            fprintf(stderr, "the built translation differs from the text's: %s\n", err);
            abort();
        }
        prom_doc_free(&again);
        prom_doc_free(&built);
    }
    strbuf_fini(&out);
    prom_doc_free(&doc);
    struct node_summary summary;
    (void)node_summarize_body((const char *)data, size, &summary, err, sizeof err);
    struct remote_snapshot *rs = remote_snapshot_build((const char *)data, size, err, sizeof err);
    remote_snapshot_free(rs);
    return 0;
}
