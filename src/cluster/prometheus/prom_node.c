/* One node's series from Prometheus, as Prometheus text (prom_node.h). */
#include "cluster/prometheus/prom_node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/prom_json.h"
#include "cluster/prometheus/prom_api.h"
#include "util/text/strbuf.h"

/* The exporter's series: its info, the devices' and the processes' (not Prometheus's own "up" or
 * scrape_* series of the target), or dcgm-exporter's. */
#define SERIES "__name__=~\"nvitop_info|gpu_.+|process_.+|DCGM_FI_.+\""

void prom_node_query(const char *instance, char *buf, size_t size) {
    int n = snprintf(buf, size, "{" SERIES ",instance=\"");
    size_t used = n > 0 && (size_t)n < size ? (size_t)n : 0;
    /* PromQL's string escapes; room is kept for the closing quote and brace. */
    for (const char *c = instance; *c != '\0' && used + 5 < size; c++) {
        if (*c == '\\' || *c == '"' || *c == '\n') {
            buf[used++] = '\\';
        }
        buf[used++] = *c == '\n' ? 'n' : *c;
    }
    snprintf(buf + used, size - used, "\"}");
}

struct writing {
    struct strbuf text;
    bool ok; /* false once an append failed (out of memory) */
};

static void append_value(struct writing *w, const char *value) {
    for (const char *c = value; *c != '\0'; c++) {
        const char *escaped = *c == '\\' ? "\\\\" : *c == '"' ? "\\\"" : *c == '\n' ? "\\n" : NULL;
        w->ok = w->ok && (escaped != NULL ? strbuf_append_str(&w->text, escaped)
                                          : strbuf_append_char(&w->text, *c));
    }
}

/* One series as a line "name{label="value",...} value". */
static void on_series(const struct prom_json_series *series, void *context) {
    struct writing *w = context;
    const char *name = prom_json_label(series, "__name__");
    if (name == NULL) {
        return;
    }
    w->ok = w->ok && strbuf_append_str(&w->text, name) && strbuf_append_char(&w->text, '{');
    bool first = true;
    for (size_t i = 0; i < series->label_count; i++) {
        const struct prom_label *l = &series->labels[i];
        if (strcmp(l->name, "__name__") == 0) {
            continue;
        }
        w->ok = w->ok && (first || strbuf_append_char(&w->text, ',')) &&
                strbuf_append_str(&w->text, l->name) && strbuf_append_str(&w->text, "=\"");
        append_value(w, l->value);
        w->ok = w->ok && strbuf_append_char(&w->text, '"');
        first = false;
    }
    double v = series->value;
    if (isnan(v)) {
        w->ok = w->ok && strbuf_append_str(&w->text, "} NaN\n");
    } else if (isinf(v)) {
        w->ok = w->ok && strbuf_append_str(&w->text, v > 0 ? "} +Inf\n" : "} -Inf\n");
    } else {
        w->ok = w->ok && strbuf_appendf(&w->text, "} %.17g\n", v);
    }
}

bool prom_node_read(const char *base_url, const struct fetch_options *options, const char *instance,
                    char **text, size_t *len, char *err, size_t errlen) {
    char query[1024];
    prom_node_query(instance, query, sizeof query);
    struct strbuf body = STRBUF_INIT;
    if (!prom_api_get(base_url, "/api/v1/query?query=", query, options, &body, err, errlen)) {
        strbuf_fini(&body);
        return false;
    }
    struct writing w = {STRBUF_INIT, true};
    bool ok = prom_json_vector(body.data, body.len, on_series, &w, err, errlen);
    strbuf_fini(&body);
    ok = ok && w.ok && strbuf_append(&w.text, "", 0);
    if (!ok) {
        if (w.ok == false) {
            snprintf(err, errlen, "out of memory");
        }
        strbuf_fini(&w.text);
        return false;
    }
    *len = w.text.len;
    *text = strbuf_detach(&w.text);
    return true;
}
