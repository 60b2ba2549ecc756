/* The Prometheus text format parser (promtext.h).  Lines are parsed in place in a private copy of
 * the body: names and label values are NUL-terminated where they end, and escapes are decoded in
 * place (decoding only ever shortens a value). */
#include "cluster/parse/promtext.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/decimal.h"
#include "util/xalloc.h"

struct cursor {
    char *p;
    char *end; /* end of the current line (its '\n' or the body's end) */
    struct prom_doc *doc;
    size_t sample_cap;
    size_t label_cap;
    prom_keep_fn *keep; /* NULL: every sample */
    const void *keep_context;
    bool plain; /* the current line has no backslash: no label value has an escape */
};

/* The characters of names, by ASCII code (the rest, from 128, are none): a metric name starts
 * with [a-zA-Z_:] (NAME_START) and goes on with [a-zA-Z0-9_:] (NAME); a label name is a metric
 * name without ':' (LABEL).  A table, as names are most of a body's bytes. */
enum {
    NAME_START = 1,
    NAME = 2,
    LABEL = 4
};
static const unsigned char name_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 3, 0, 0, 0, 0, 0,
    0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 7,
    0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0,
};

static bool is_name_start(char c) {
    return (name_class[(unsigned char)c] & NAME_START) != 0;
}

static void skip_blanks(struct cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) {
        c->p++;
    }
}

static bool is_name_char(char c) {
    return (name_class[(unsigned char)c] & NAME) != 0;
}

static bool is_label_char(char c) {
    return (name_class[(unsigned char)c] & LABEL) != 0;
}

/* A name at the cursor; returns its start or NULL.  The caller terminates it.  The line ends in
 * a NUL (at c->end), which is no name character. */
static char *scan_name(struct cursor *c, bool label) {
    char *start = c->p, *p = c->p;
    if (p >= c->end || !is_name_start(*p) || (label && *p == ':')) {
        return NULL;
    }
    if (label) {
        while (is_label_char(*p)) {
            p++;
        }
    } else {
        while (is_name_char(*p)) {
            p++;
        }
    }
    c->p = p;
    return start;
}

/* A quoted label value at the cursor (on the opening quote), decoded in place. */
static const char *scan_value(struct cursor *c, const char **why) {
    if (c->p >= c->end || *c->p != '"') {
        *why = "expected '\"' before label value";
        return NULL;
    }
    char *start = ++c->p;
    char *out = start;
    /* Most values have no escape: the closing quote, then no backslash before it (none at all on
     * most lines). */
    char *quote = memchr(c->p, '"', (size_t)(c->end - c->p));
    if (quote != NULL && (c->plain || memchr(c->p, '\\', (size_t)(quote - c->p)) == NULL)) {
        c->p = quote + 1;
        *quote = '\0';
        return start;
    }
    /* The line is NUL-terminated at c->end: runs without a quote or a backslash are found with
     * strcspn() and moved only once an escape has shortened the value. */
    for (;;) {
        size_t run = strcspn(c->p, "\"\\");
        if (out != c->p) {
            memmove(out, c->p, run);
        }
        out += run;
        c->p += run;
        if (c->p >= c->end) {
            *why = "unterminated label value";
            return NULL;
        }
        if (*c->p == '"') {
            break;
        }
        c->p++; /* the backslash */
        if (c->p >= c->end) {
            *why = "unterminated label value";
            return NULL;
        }
        char e = *c->p++;
        if (e != 'n' && e != '\\' && e != '"') {
            *why = "unknown escape in label value";
            return NULL;
        }
        *out++ = e == 'n' ? '\n' : e;
    }
    c->p++; /* the closing quote */
    *out = '\0';
    return start;
}

static void push_label(struct cursor *c, const char *name, const char *value) {
    struct prom_doc *d = c->doc;
    if (d->label_count == c->label_cap) {
        c->label_cap = c->label_cap ? c->label_cap * 2 : 64;
        d->labels = xrealloc(d->labels, c->label_cap * sizeof *d->labels);
    }
    d->labels[d->label_count++] = (struct prom_label){name, value};
}

static bool parse_labels(struct cursor *c, const char **why) {
    c->p++; /* '{' */
    for (;;) {
        skip_blanks(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return true;
        }
        char *name = scan_name(c, true);
        if (name == NULL) {
            *why = "expected a label name";
            return false;
        }
        char *name_end = c->p;
        skip_blanks(c);
        if (c->p >= c->end || *c->p != '=') {
            *why = "expected '=' after label name";
            return false;
        }
        c->p++;
        skip_blanks(c);
        *name_end = '\0'; /* safe: the '=' or a blank was there */
        const char *value = scan_value(c, why);
        if (value == NULL) {
            return false;
        }
        push_label(c, name, value);
        skip_blanks(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
        } else if (c->p >= c->end || *c->p != '}') {
            *why = "expected ',' or '}' after label value";
            return false;
        }
    }
}

/* Whether token may be one of the words NaN, Inf, +Inf, -Inf (a cheap test before comparing). */
static bool may_be_word(const char *token) {
    return token[0] == 'N' || token[0] == 'I' || (token[0] != '\0' && token[1] == 'I');
}

/* The value token: a float as Go's ParseFloat reads it for Prometheus, incl. NaN and Inf. */
static bool parse_number(const char *token, double *out) {
    if (may_be_word(token)) {
        if (strcmp(token, "NaN") == 0) {
            *out = NAN;
            return true;
        }
        if (strcmp(token, "+Inf") == 0 || strcmp(token, "Inf") == 0) {
            *out = INFINITY;
            return true;
        }
        if (strcmp(token, "-Inf") == 0) {
            *out = -INFINITY;
            return true;
        }
    }
    if (decimal_short(token, out)) { /* digits, a sign and a point only */
        return true;
    }
    if (*token == '\0' || strpbrk(token, "xXnNiI") != NULL) {
        return false; /* no hex floats, no strtod spellings of nan/inf */
    }
    char *end;
    *out = strtod(token, &end);
    return *end == '\0';
}

/* Whether token is a number parse_number() accepts, without converting it (strtod() was most of
 * the cost of checking the lines a caller does not keep): Go's decimal float syntax, NaN, Inf. */
static bool is_number(const char *token) {
    if (may_be_word(token) && (strcmp(token, "NaN") == 0 || strcmp(token, "+Inf") == 0 ||
                               strcmp(token, "Inf") == 0 || strcmp(token, "-Inf") == 0)) {
        return true;
    }
    const char *p = token;
    if (*p == '+' || *p == '-') {
        p++;
    }
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            p++;
            digits++;
        }
    }
    if (digits == 0) {
        return false;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') {
            p++;
        }
        if (!(*p >= '0' && *p <= '9')) {
            return false;
        }
        while (*p >= '0' && *p <= '9') {
            p++;
        }
    }
    return *p == '\0';
}

/* Whether the rest of a sample not wanted, from the end of its name at p to the line's end (its
 * NUL), is a line of the common shape: labels with plain values (the line has no backslash), one
 * blank, a number, no timestamp.  A line of that shape is valid; any other line (valid or not) is
 * read again by parse_sample()'s full path, which says what is wrong with it.  This only checks,
 * so that the three quarters of an exporter's body that a summary does not keep cost a scan. */
static bool plain_rest_valid(const char *p, const char *end, bool plain) {
    if (*p == '{') {
        if (!plain) {
            return false;
        }
        p++;
        while (*p != '}') {
            if (!is_name_start(*p) || *p == ':') {
                return false;
            }
            while (is_label_char(*p)) {
                p++;
            }
            if (p[0] != '=' || p[1] != '"') {
                return false;
            }
            p += 2;
            const char *quote = memchr(p, '"', (size_t)(end - p));
            if (quote == NULL) {
                return false;
            }
            p = quote + 1;
            if (*p == ',') {
                p++;
            } else if (*p != '}') {
                return false;
            }
        }
        p++;
    }
    /* is_number() refuses a blank or a tab: a second field (a timestamp) takes the full path. */
    return *p == ' ' && p + 1 < end && is_number(p + 1);
}

static bool parse_sample(struct cursor *c, const char **why) {
    struct prom_doc *d = c->doc;
    char *name = scan_name(c, false);
    if (name == NULL) {
        *why = "expected a metric name";
        return false;
    }
    /* The name is terminated only after its labels are parsed: its end may be the '{'. */
    char *name_end = c->p;
    /* A sample not wanted is still read to its end, so that a broken line is an error wherever
     * it is; its labels are then dropped and it is not kept. */
    bool wanted = c->keep == NULL || c->keep(name, (size_t)(name_end - name), c->keep_context);
    if (!wanted && plain_rest_valid(name_end, c->end, c->plain)) {
        c->p = c->end;
        return true;
    }
    size_t first = d->label_count;
    skip_blanks(c);
    if (c->p < c->end && *c->p == '{' && !parse_labels(c, why)) {
        return false;
    }
    if (c->p == name_end && c->p < c->end && *c->p != ' ' && *c->p != '\t') {
        *why = "unexpected character in the metric name";
        return false;
    }
    skip_blanks(c);
    char *token = c->p;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\t') {
        c->p++;
    }
    char *token_end = c->p;
    skip_blanks(c);
    if (c->p < c->end) { /* an optional timestamp (ignored), then nothing */
        char *ts = c->p;
        while (c->p < c->end && ((*c->p >= '0' && *c->p <= '9') || *c->p == '-')) {
            c->p++;
        }
        skip_blanks(c);
        if (c->p == ts || c->p < c->end) {
            *why = "unexpected text after the value";
            return false;
        }
    }
    *token_end = '\0';
    *name_end = '\0';
    if (!wanted) {
        d->label_count = first;
        if (!is_number(token)) {
            *why = token == token_end ? "missing value" : "malformed value";
            return false;
        }
        return true;
    }
    double value;
    if (!parse_number(token, &value)) {
        *why = token == token_end ? "missing value" : "malformed value";
        return false;
    }
    if (d->sample_count == c->sample_cap) {
        c->sample_cap = c->sample_cap ? c->sample_cap * 2 : 64;
        d->samples = xrealloc(d->samples, c->sample_cap * sizeof *d->samples);
    }
    d->samples[d->sample_count++] =
        (struct prom_sample){name, first, d->label_count - first, value};
    return true;
}

int prom_parse(const char *body, size_t len, struct prom_doc *doc, char *err, size_t errlen) {
    return prom_parse_only(body, len, NULL, NULL, doc, err, errlen);
}

/* The checks before a parse: no NUL, a last line ended. */
static bool body_valid(const char *body, size_t len, char *err, size_t errlen) {
    if (memchr(body, '\0', len) != NULL) {
        snprintf(err, errlen, "NUL byte in the body");
        return false;
    }
    if (len > 0 && body[len - 1] != '\n') {
        /* Every line of the format ends with a line feed: a body cut short by a connection that
         * ended early (with framing that looked complete) must not read as a healthy node. */
        snprintf(err, errlen, "truncated: the answer ends in the middle of a line");
        return false;
    }
    return true;
}

/* Parse text[0..len) (NUL at text[len]) into doc, whose text member the caller has set. */
static int parse_text(char *text, size_t len, prom_keep_fn *keep, const void *context,
                      struct prom_doc *doc, char *err, size_t errlen) {
    struct cursor c = {.p = text, .doc = doc, .keep = keep, .keep_context = context};
    char *const text_end = text + len;
    size_t line = 0;
    while (c.p < text_end) {
        line++;
        char *nl = memchr(c.p, '\n', (size_t)(text_end - c.p));
        c.end = nl != NULL ? nl : text_end;
        *c.end = '\0';
        if (c.end > c.p && c.end[-1] == '\r') { /* tolerate CRLF */
            *--c.end = '\0';
        }
        c.plain = c.end <= c.p || memchr(c.p, '\\', (size_t)(c.end - c.p)) == NULL;
        skip_blanks(&c);
        const char *why = NULL;
        if (c.p < c.end && *c.p != '#' && !parse_sample(&c, &why)) {
            snprintf(err, errlen, "line %zu: %s", line, why);
            prom_doc_free(doc);
            return -1;
        }
        c.p = nl != NULL ? nl + 1 : text_end;
    }
    return 0;
}

int prom_parse_only(const char *body, size_t len, prom_keep_fn *keep, const void *context,
                    struct prom_doc *doc, char *err, size_t errlen) {
    memset(doc, 0, sizeof *doc);
    if (!body_valid(body, len, err, errlen)) {
        return -1;
    }
    doc->text = xmalloc(len + 1);
    memcpy(doc->text, body, len);
    doc->text[len] = '\0';
    return parse_text(doc->text, len, keep, context, doc, err, errlen);
}

int prom_parse_only_in_place(char *text, size_t len, prom_keep_fn *keep, const void *context,
                             struct prom_doc *doc, char *err, size_t errlen) {
    memset(doc, 0, sizeof *doc);
    if (!body_valid(text, len, err, errlen)) {
        return -1;
    }
    text[len] = '\0';
    return parse_text(text, len, keep, context, doc, err, errlen);
}

void prom_doc_free(struct prom_doc *doc) {
    free(doc->text);
    free(doc->samples);
    free(doc->labels);
    memset(doc, 0, sizeof *doc);
}

bool prom_doc_equal(const struct prom_doc *a, const struct prom_doc *b, char *why, size_t size) {
    if (a->sample_count != b->sample_count) {
        snprintf(why, size, "%zu samples against %zu", a->sample_count, b->sample_count);
        return false;
    }
    for (size_t i = 0; i < a->sample_count; i++) {
        const struct prom_sample *x = &a->samples[i], *y = &b->samples[i];
        bool same_value = x->value == y->value || (isnan(x->value) && isnan(y->value));
        if (strcmp(x->name, y->name) != 0 || !same_value || x->label_count != y->label_count) {
            snprintf(why, size, "sample %zu: %s %.17g (%zu labels) against %s %.17g (%zu labels)",
                     i, x->name, x->value, x->label_count, y->name, y->value, y->label_count);
            return false;
        }
        for (size_t k = 0; k < x->label_count; k++) {
            const struct prom_label *p = &a->labels[x->label_first + k];
            const struct prom_label *q = &b->labels[y->label_first + k];
            if (strcmp(p->name, q->name) != 0 || strcmp(p->value, q->value) != 0) {
                snprintf(why, size, "sample %zu (%s), label %zu: %s=\"%s\" against %s=\"%s\"", i,
                         x->name, k, p->name, p->value, q->name, q->value);
                return false;
            }
        }
    }
    return true;
}

const char *prom_label_value(const struct prom_doc *doc, const struct prom_sample *s,
                             const char *name) {
    for (size_t i = 0; i < s->label_count; i++) {
        const struct prom_label *l = &doc->labels[s->label_first + i];
        if (l->name[0] == name[0] && strcmp(l->name, name) == 0) {
            return l->value;
        }
    }
    return NULL;
}
