/* Prometheus API answers without a JSON tree (prom_json.h).  A small recursive-descent scanner
 * over the body: objects and arrays are walked member by member, the members nvitop wants are
 * read and every other value is checked and skipped.  Nesting is limited so that a hostile
 * answer cannot exhaust the stack. */
#include "cluster/prom_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

/* Deeper than any Prometheus answer (4 levels) by far. */
#define MAX_DEPTH 64

struct scan {
    char *start;
    char *p;
    char *end;
    const char *error; /* what went wrong, at p; NULL while all is well */
};

static bool fail(struct scan *s, const char *what) {
    if (s->error == NULL) {
        s->error = what;
    }
    return false;
}

static void skip_blanks(struct scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) {
        s->p++;
    }
}

/* Consume c (after blanks), or fail. */
static bool expect(struct scan *s, char c, const char *what) {
    skip_blanks(s);
    if (s->p >= s->end || *s->p != c) {
        return fail(s, what);
    }
    s->p++;
    return true;
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static bool hex4(struct scan *s, uint32_t *out) {
    if (s->end - s->p < 4) {
        return fail(s, "truncated \\u escape");
    }
    *out = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(*s->p++);
        if (d < 0) {
            return fail(s, "bad \\u escape");
        }
        *out = *out << 4 | (uint32_t)d;
    }
    return true;
}

/* Write code point cp as UTF-8 at *out (never longer than the escape it came from). */
static void put_utf8(char **out, uint32_t cp) {
    unsigned char *o = (unsigned char *)*out;
    if (cp < 0x80) {
        *o++ = (unsigned char)cp;
    } else if (cp < 0x800) {
        *o++ = (unsigned char)(0xC0 | cp >> 6);
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (unsigned char)(0xE0 | cp >> 12);
        *o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | cp >> 18);
        *o++ = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    }
    *out = (char *)o;
}

/* A string at the cursor (after blanks), decoded in place and NUL-terminated (the terminator
 * lands at or before the closing quote, already read).  NULL on error. */
static char *string(struct scan *s) {
    if (!expect(s, '"', "expected a string")) {
        return NULL;
    }
    char *start = s->p, *out = s->p;
    while (s->p < s->end && *s->p != '"') {
        unsigned char c = (unsigned char)*s->p++;
        if (c < 0x20) {
            fail(s, "control character in a string");
            return NULL;
        }
        if (c != '\\') {
            *out++ = (char)c;
            continue;
        }
        if (s->p >= s->end) {
            break;
        }
        char e = *s->p++;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e != '\0' && simple != NULL) {
            *out++ = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            continue;
        }
        uint32_t cp, low;
        if (e != 'u' || !hex4(s, &cp)) {
            fail(s, "bad escape in a string");
            return NULL;
        }
        if (cp >= 0xD800 && cp < 0xDC00) { /* a surrogate pair */
            if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u') {
                fail(s, "lone surrogate in a string");
                return NULL;
            }
            s->p += 2;
            if (!hex4(s, &low) || low < 0xDC00 || low >= 0xE000) {
                fail(s, "lone surrogate in a string");
                return NULL;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
            fail(s, "lone surrogate in a string");
            return NULL;
        }
        if (cp == 0) {
            fail(s, "NUL in a string");
            return NULL;
        }
        put_utf8(&out, cp);
    }
    if (s->p >= s->end) {
        fail(s, "unterminated string");
        return NULL;
    }
    s->p++;
    *out = '\0';
    return start;
}

/* A number at the cursor, checked against JSON's grammar (strtod alone would take hex, "inf"). */
static bool number(struct scan *s, double *out) {
    skip_blanks(s);
    char *start = s->p;
    if (s->p < s->end && *s->p == '-') {
        s->p++;
    }
    size_t digits = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        s->p++, digits++;
    }
    if (digits == 0 || (digits > 1 && s->p[-(long)digits] == '0')) {
        return fail(s, "malformed number");
    }
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        for (digits = 0; s->p < s->end && *s->p >= '0' && *s->p <= '9'; s->p++, digits++) {
        }
        if (digits == 0) {
            return fail(s, "malformed number");
        }
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) {
            s->p++;
        }
        for (digits = 0; s->p < s->end && *s->p >= '0' && *s->p <= '9'; s->p++, digits++) {
        }
        if (digits == 0) {
            return fail(s, "malformed number");
        }
    }
    char copy[64];
    size_t len = (size_t)(s->p - start);
    if (len >= sizeof copy) {
        return fail(s, "number too long");
    }
    memcpy(copy, start, len);
    copy[len] = '\0';
    *out = strtod(copy, NULL);
    return true;
}

static bool literal(struct scan *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) {
        return fail(s, "unexpected character");
    }
    s->p += n;
    return true;
}

/* The next member of an object whose '{' was read: true with its key (the cursor after the
 * ':'), false at the closing '}' (read) or on error (s->error). */
static bool member(struct scan *s, bool *first, char **key) {
    skip_blanks(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return false;
    }
    if (!*first && !expect(s, ',', "expected ',' or '}' in an object")) {
        return false;
    }
    *first = false;
    *key = string(s);
    return *key != NULL && expect(s, ':', "expected ':' after a key");
}

/* Whether an array whose '[' was read has another element (the cursor on it). */
static bool element(struct scan *s, bool *first) {
    skip_blanks(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return false;
    }
    if (!*first && !expect(s, ',', "expected ',' or ']' in an array")) {
        return false;
    }
    *first = false;
    return true;
}

static bool skip_value(struct scan *s, int depth) {
    skip_blanks(s);
    if (depth > MAX_DEPTH) {
        return fail(s, "nested too deeply");
    }
    if (s->p >= s->end) {
        return fail(s, "truncated answer");
    }
    bool first = true;
    char *key;
    double ignored;
    switch (*s->p) {
    case '{':
        s->p++;
        while (member(s, &first, &key)) {
            if (!skip_value(s, depth + 1)) {
                return false;
            }
        }
        return s->error == NULL;
    case '[':
        s->p++;
        while (element(s, &first)) {
            if (!skip_value(s, depth + 1)) {
                return false;
            }
        }
        return s->error == NULL;
    case '"':
        return string(s) != NULL;
    case 't':
        return literal(s, "true");
    case 'f':
        return literal(s, "false");
    case 'n':
        return literal(s, "null");
    default:
        return number(s, &ignored);
    }
}

/* A string value, or NULL (skipped) when the value is of another type. */
static const char *string_or_skip(struct scan *s) {
    skip_blanks(s);
    if (s->p < s->end && *s->p == '"') {
        return string(s);
    }
    skip_value(s, 1);
    return NULL;
}

/* An object of string values into labels (others skipped). */
static bool labels(struct scan *s, struct prom_label *out, size_t *count) {
    *count = 0;
    if (!expect(s, '{', "expected an object of labels")) {
        return false;
    }
    bool first = true;
    char *key;
    while (member(s, &first, &key)) {
        const char *value = string_or_skip(s);
        if (value != NULL && *count < PROM_JSON_LABELS) {
            out[(*count)++] = (struct prom_label){key, value};
        }
    }
    return s->error == NULL;
}

/* [time, "value"] */
static bool sample_value(struct scan *s, struct prom_json_series *series) {
    if (!expect(s, '[', "expected [time, \"value\"]") || !number(s, &series->time) ||
        !expect(s, ',', "expected [time, \"value\"]")) {
        return false;
    }
    const char *text = string(s);
    if (text == NULL || !expect(s, ']', "expected [time, \"value\"]")) {
        return false;
    }
    char *end;
    double v = strtod(text, &end);
    series->value = *text != '\0' && *end == '\0' ? v : NAN;
    return true;
}

struct walk {
    prom_json_series_fn *series;
    prom_json_target_fn *target;
    void *context;
};

static bool one_series(struct scan *s, const struct walk *w) {
    struct prom_json_series series = {.label_count = 0, .time = NAN, .value = NAN};
    if (!expect(s, '{', "expected a series object")) {
        return false;
    }
    bool first = true;
    char *key;
    while (member(s, &first, &key)) {
        bool ok = strcmp(key, "metric") == 0  ? labels(s, series.labels, &series.label_count)
                  : strcmp(key, "value") == 0 ? sample_value(s, &series)
                                              : skip_value(s, 1);
        if (!ok) {
            return false;
        }
    }
    if (s->error == NULL) {
        w->series(&series, w->context);
    }
    return s->error == NULL;
}

static bool one_target(struct scan *s, const struct walk *w) {
    struct prom_json_target target = {0};
    if (!expect(s, '{', "expected a target object")) {
        return false;
    }
    bool first = true;
    char *key;
    while (member(s, &first, &key)) {
        if (strcmp(key, "labels") == 0) {
            struct prom_label l[PROM_JSON_LABELS];
            size_t n;
            if (!labels(s, l, &n)) {
                return false;
            }
            for (size_t i = 0; i < n; i++) {
                if (strcmp(l[i].name, "instance") == 0) {
                    target.instance = l[i].value;
                } else if (strcmp(l[i].name, "job") == 0) {
                    target.job = l[i].value;
                }
            }
        } else if (strcmp(key, "health") == 0) {
            target.health = string_or_skip(s);
        } else if (strcmp(key, "lastError") == 0) {
            target.last_error = string_or_skip(s);
        } else if (strcmp(key, "lastScrape") == 0) {
            target.last_scrape = string_or_skip(s);
        } else if (!skip_value(s, 1)) {
            return false;
        }
        if (s->error != NULL) {
            return false;
        }
    }
    if (s->error == NULL) {
        w->target(&target, w->context);
    }
    return s->error == NULL;
}

/* data: {..., "<list>": [items], ...}; items read by one_series or one_target. */
static bool data(struct scan *s, const struct walk *w) {
    const char *list = w->series != NULL ? "result" : "activeTargets";
    if (!expect(s, '{', "expected \"data\" to be an object")) {
        return false;
    }
    bool first = true, seen = false;
    char *key;
    while (member(s, &first, &key)) {
        if (strcmp(key, list) != 0) {
            if (!skip_value(s, 1)) {
                return false;
            }
            continue;
        }
        seen = true;
        if (!expect(s, '[', "expected an array of results")) {
            return false;
        }
        bool first_item = true;
        while (element(s, &first_item)) {
            if (!(w->series != NULL ? one_series(s, w) : one_target(s, w))) {
                return false;
            }
        }
    }
    return s->error == NULL && (seen || fail(s, "no result list in \"data\""));
}

static bool walk(char *body, size_t len, const struct walk *w, char *err, size_t errlen) {
    struct scan s = {body, body, body + len, NULL};
    const char *status = NULL, *message = NULL;
    bool first = true, seen_data = false;
    char *key;
    if (expect(&s, '{', "expected an object")) {
        while (member(&s, &first, &key)) {
            bool ok = true;
            if (strcmp(key, "status") == 0) {
                status = string_or_skip(&s);
            } else if (strcmp(key, "error") == 0) {
                message = string_or_skip(&s);
            } else if (strcmp(key, "data") == 0) {
                seen_data = true;
                ok = data(&s, w);
            } else {
                ok = skip_value(&s, 1);
            }
            if (!ok || s.error != NULL) {
                break;
            }
        }
    }
    skip_blanks(&s);
    if (s.error == NULL && s.p != s.end) {
        fail(&s, "text after the answer");
    }
    if (s.error != NULL) {
        snprintf(err, errlen, "not a Prometheus API answer (JSON: %s at byte %zu)", s.error,
                 (size_t)(s.p - s.start));
        return false;
    }
    if (status != NULL && strcmp(status, "success") != 0 && message != NULL) {
        snprintf(err, errlen, "Prometheus answered an error: %s", message);
        return false;
    }
    if (status == NULL || strcmp(status, "success") != 0) {
        snprintf(err, errlen, "not a Prometheus API answer (no \"status\": \"success\")");
        return false;
    }
    if (!seen_data) {
        snprintf(err, errlen, "not a Prometheus API answer (no \"data\")");
        return false;
    }
    return true;
}

bool prom_json_vector(char *body, size_t len, prom_json_series_fn *series, void *context, char *err,
                      size_t errlen) {
    struct walk w = {series, NULL, context};
    return walk(body, len, &w, err, errlen);
}

bool prom_json_targets(char *body, size_t len, prom_json_target_fn *target, void *context,
                       char *err, size_t errlen) {
    struct walk w = {NULL, target, context};
    return walk(body, len, &w, err, errlen);
}

const char *prom_json_label(const struct prom_json_series *series, const char *name) {
    for (size_t i = 0; i < series->label_count; i++) {
        if (strcmp(series->labels[i].name, name) == 0) {
            return series->labels[i].value;
        }
    }
    return NULL;
}
