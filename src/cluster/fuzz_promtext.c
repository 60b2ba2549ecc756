/*
 * libFuzzer target for the Prometheus text parser and the node summary: whatever the bytes, no
 * crash, no out-of-bounds read, and every sample's labels lie inside the label array.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cluster/node.h"
#include "cluster/promtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct prom_doc doc;
    char err[200];
    if (prom_parse((const char *)data, size, &doc, err, sizeof err) != 0) {
        return 0;
    }
    for (size_t i = 0; i < doc.sample_count; i++) {
        const struct prom_sample *s = &doc.samples[i];
        if (s->label_first + s->label_count > doc.label_count) {
            abort();
        }
    }
    struct node_summary summary;
    (void)node_summarize(&doc, &summary, err, sizeof err);
    prom_doc_free(&doc);
    return 0;
}
