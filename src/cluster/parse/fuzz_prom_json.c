/*
 * libFuzzer target for the Prometheus API answer scanner: whatever the bytes, as a query answer
 * and as a target list, no crash and no read outside the body; every label handed out is a
 * NUL-terminated string inside the body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/prom_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct bounds {
    const char *start, *end;
};

static void check(const struct bounds *b, const char *text) {
    if (text != NULL && (text < b->start || text + strlen(text) > b->end)) {
        abort();
    }
}

static void on_series(const struct prom_json_series *series, void *context) {
    if (series->label_count > PROM_JSON_LABELS) {
        abort();
    }
    for (size_t i = 0; i < series->label_count; i++) {
        check(context, series->labels[i].name);
        check(context, series->labels[i].value);
    }
}

static void on_target(const struct prom_json_target *t, void *context) {
    check(context, t->instance);
    check(context, t->job);
    check(context, t->health);
    check(context, t->last_error);
    check(context, t->last_scrape);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *body = malloc(size + 1);
    char err[200];
    if (body == NULL) {
        return 0;
    }
    struct bounds b = {body, body + size};
    memcpy(body, data, size);
    body[size] = '\0';
    (void)prom_json_vector(body, size, on_series, &b, err, sizeof err);
    memcpy(body, data, size);
    (void)prom_json_targets(body, size, on_target, &b, err, sizeof err);
    free(body);
    return 0;
}
