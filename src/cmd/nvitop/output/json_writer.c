/*
 * JSON writing with RFC 8259 escaping.
 */
#include "cmd/nvitop/output/json_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/text/utf8.h"

void json_init(struct json_writer *w, struct strbuf *out) {
    w->out = out;
    w->depth = 0;
    w->need_comma = false;
    w->after_key = false;
    w->ok = true;
    w->compact = false;
}

static void put(struct json_writer *w, const char *text) {
    w->ok = strbuf_append_str(w->out, text) && w->ok;
}

static void newline(struct json_writer *w) {
    if (w->compact) {
        return;
    }
    put(w, "\n");
    for (unsigned i = 0; i < w->depth; i++) {
        put(w, "  ");
    }
}

/* Separator and indentation before a value or a key. */
static void before_value(struct json_writer *w) {
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->need_comma) {
        put(w, ",");
    }
    if (w->depth > 0) {
        newline(w);
    }
}

static void open_container(struct json_writer *w, const char *bracket) {
    before_value(w);
    put(w, bracket);
    w->depth++;
    w->need_comma = false;
}

static void close_container(struct json_writer *w, const char *bracket) {
    bool empty = !w->need_comma;
    w->depth--;
    if (!empty) {
        newline(w);
    }
    put(w, bracket);
    w->need_comma = true;
    if (w->depth == 0) {
        put(w, "\n");
    }
}

void json_begin_object(struct json_writer *w) {
    open_container(w, "{");
}

void json_end_object(struct json_writer *w) {
    close_container(w, "}");
}

void json_begin_array(struct json_writer *w) {
    open_container(w, "[");
}

void json_end_array(struct json_writer *w) {
    close_container(w, "]");
}

static void put_string(struct json_writer *w, const char *value) {
    put(w, "\"");
    size_t len = 0;
    while (value[len] != '\0') {
        len++;
    }
    size_t pos = 0;
    while (pos < len) {
        uint32_t cp;
        size_t n = utf8_decode(value + pos, len - pos, &cp);
        char esc[16];
        if (cp == UTF8_INVALID) {
            put(w, "\\ufffd");
        } else if (cp == '"' || cp == '\\') {
            snprintf(esc, sizeof(esc), "\\%c", (char)cp);
            put(w, esc);
        } else if (cp < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
            put(w, esc);
        } else {
            w->ok = strbuf_append(w->out, value + pos, n) && w->ok;
        }
        pos += n;
    }
    put(w, "\"");
}

void json_key(struct json_writer *w, const char *key) {
    before_value(w);
    put_string(w, key);
    put(w, ": ");
    w->after_key = true;
}

void json_string(struct json_writer *w, const char *value) {
    if (value == NULL) {
        json_null(w);
        return;
    }
    before_value(w);
    put_string(w, value);
    w->need_comma = true;
}

void json_u64(struct json_writer *w, uint64_t value) {
    char text[32];
    snprintf(text, sizeof(text), "%" PRIu64, value);
    before_value(w);
    put(w, text);
    w->need_comma = true;
}

void json_i64(struct json_writer *w, int64_t value) {
    char text[32];
    snprintf(text, sizeof(text), "%" PRId64, value);
    before_value(w);
    put(w, text);
    w->need_comma = true;
}

void json_double(struct json_writer *w, double value) {
    if (!isfinite(value)) {
        json_null(w);
        return;
    }
    char text[64];
    /* Shortest text that reads back to the same double. */
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(text, sizeof(text), "%.*g", precision, value);
        if (strtod(text, NULL) == value) {
            break;
        }
    }
    before_value(w);
    put(w, text);
    w->need_comma = true;
}

void json_bool(struct json_writer *w, bool value) {
    before_value(w);
    put(w, value ? "true" : "false");
    w->need_comma = true;
}

void json_null(struct json_writer *w) {
    before_value(w);
    put(w, "null");
    w->need_comma = true;
}
