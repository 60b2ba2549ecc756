/*
 * A parser for the Prometheus text exposition format (version 0.0.4), enough for what
 * nvitop-exporter and ours serve: comments, samples with optional labels, an optional
 * timestamp.  Our own (small, fuzzed by tests/fuzz's fuzz_promtext) so that a hostile or broken
 * /metrics body gives an error message, never a crash.  No I/O; pure and thread-safe.
 */
#ifndef NVITOP_SRC_CLUSTER_PARSE_PROMTEXT_H
#define NVITOP_SRC_CLUSTER_PARSE_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>

struct prom_label {
    const char *name;
    const char *value; /* escapes (\\ \" \n) decoded */
};

struct prom_sample {
    const char *name;
    size_t label_first; /* index into prom_doc.labels */
    size_t label_count;
    double value; /* NaN, +Inf and -Inf allowed */
};

/* One parsed body.  Every string points into `text`, which the doc owns (or into the caller's
 * buffer, text NULL, after prom_parse_only_in_place()). */
struct prom_doc {
    char *text;
    struct prom_sample *samples;
    size_t sample_count;
    struct prom_label *labels;
    size_t label_count;
};

/*
 * Parse len bytes (need not be NUL-terminated; an embedded NUL is an error, and so is a body whose
 * last line does not end with a line feed: "truncated: ...").  Returns 0 and fills
 * *doc (free with prom_doc_free()), or -1 with a message like "line 3: expected '=' after label
 * name" in err (size errlen) and *doc empty.  Allocation failure aborts (program code: xalloc).
 */
int prom_parse(const char *body, size_t len, struct prom_doc *doc, char *err, size_t errlen);

/*
 * Which samples prom_parse_only() keeps: called with each sample's metric name (len bytes, not
 * NUL-terminated) and the caller's context.
 */
typedef bool prom_keep_fn(const char *name, size_t len, const void *context);

/*
 * prom_parse() keeping only the samples whose name keep() accepts (the cluster summary uses 7 of
 * nvitop-exporter's 30 names).  Every line is still read and checked, so a body that Prometheus
 * would reject is an error here too.
 */
int prom_parse_only(const char *body, size_t len, prom_keep_fn *keep, const void *context,
                    struct prom_doc *doc, char *err, size_t errlen);

/*
 * prom_parse_only() in the caller's buffer instead of a copy of it: text holds len bytes and room
 * for one more (text[len] is set to NUL).  Names and label values are terminated and decoded in
 * place, so the buffer is changed whether or not the parse succeeds; the doc's strings point into
 * it (doc->text is NULL) and live as long as it does.  Saves a large body's copy.
 */
int prom_parse_only_in_place(char *text, size_t len, prom_keep_fn *keep, const void *context,
                             struct prom_doc *doc, char *err, size_t errlen);

void prom_doc_free(struct prom_doc *doc);

/* Whether a and b hold the same samples in the same order: names, labels (names and values, in
 * order) and values (NaN equal to NaN).  When not, why (size bytes) names the first difference. */
bool prom_doc_equal(const struct prom_doc *a, const struct prom_doc *b, char *why, size_t size);

/* The value of label `name` of sample s, or NULL. */
const char *prom_label_value(const struct prom_doc *doc, const struct prom_sample *s,
                             const char *name);

#endif /* NVITOP_SRC_CLUSTER_PARSE_PROMTEXT_H */
