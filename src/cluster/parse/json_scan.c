/* A strict JSON scanner (json_scan.h): objects and arrays are walked member by member, strings
 * decoded in place, every value checked; nesting is limited so that a hostile text cannot
 * exhaust the stack. */
#include "cluster/parse/json_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/decimal.h"

/* Deeper than any Prometheus answer (4 levels) by far. */
#define MAX_DEPTH 64

bool jscan_fail(struct json_scan *s, const char *what) {
    if (s->error == NULL) {
        s->error = what;
    }
    return false;
}

void jscan_skip_blanks(struct json_scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) {
        s->p++;
    }
}

/* Consume c (after blanks), or fail. */
bool jscan_expect(struct json_scan *s, char c, const char *what) {
    jscan_skip_blanks(s);
    if (s->p >= s->end || *s->p != c) {
        return jscan_fail(s, what);
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

static bool hex4(struct json_scan *s, uint32_t *out) {
    if (s->end - s->p < 4) {
        return jscan_fail(s, "truncated \\u escape");
    }
    *out = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(*s->p++);
        if (d < 0) {
            return jscan_fail(s, "bad \\u escape");
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
char *jscan_string(struct json_scan *s) {
    if (!jscan_expect(s, '"', "expected a string")) {
        return NULL;
    }
    char *start = s->p;
    /* Most strings have no escape: their characters are passed over, not copied onto
     * themselves, up to the closing quote or the first escape (from which they are decoded). */
    const char *const end = s->end;
    char *p = s->p;
    while (p < end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20) {
        p++;
    }
    s->p = p;
    char *out = p;
    while (s->p < s->end && *s->p != '"') {
        unsigned char c = (unsigned char)*s->p++;
        if (c < 0x20) {
            jscan_fail(s, "control character in a string");
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
            jscan_fail(s, "bad escape in a string");
            return NULL;
        }
        if (cp >= 0xD800 && cp < 0xDC00) { /* a surrogate pair */
            if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u') {
                jscan_fail(s, "lone surrogate in a string");
                return NULL;
            }
            s->p += 2;
            if (!hex4(s, &low) || low < 0xDC00 || low >= 0xE000) {
                jscan_fail(s, "lone surrogate in a string");
                return NULL;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
            jscan_fail(s, "lone surrogate in a string");
            return NULL;
        }
        if (cp == 0) {
            jscan_fail(s, "NUL in a string");
            return NULL;
        }
        put_utf8(&out, cp);
    }
    if (s->p >= s->end) {
        jscan_fail(s, "unterminated string");
        return NULL;
    }
    s->p++;
    *out = '\0';
    return start;
}

/* A number at the cursor, checked against JSON's grammar (strtod alone would take hex, "inf"). */
bool jscan_number(struct json_scan *s, double *out) {
    jscan_skip_blanks(s);
    char *start = s->p;
    if (s->p < s->end && *s->p == '-') {
        s->p++;
    }
    size_t digits = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        s->p++, digits++;
    }
    if (digits == 0 || (digits > 1 && s->p[-(long)digits] == '0')) {
        return jscan_fail(s, "malformed number");
    }
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        for (digits = 0; s->p < s->end && *s->p >= '0' && *s->p <= '9'; s->p++, digits++) {
        }
        if (digits == 0) {
            return jscan_fail(s, "malformed number");
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
            return jscan_fail(s, "malformed number");
        }
    }
    char copy[64];
    size_t len = (size_t)(s->p - start);
    if (len >= sizeof copy) {
        return jscan_fail(s, "number too long");
    }
    memcpy(copy, start, len);
    copy[len] = '\0';
    if (!decimal_short(copy, out)) {
        *out = strtod(copy, NULL);
    }
    return true;
}

static bool jscan_literal(struct json_scan *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) {
        return jscan_fail(s, "unexpected character");
    }
    s->p += n;
    return true;
}

/* The next member of an object whose '{' was read: true with its key (the cursor after the
 * ':'), false at the closing '}' (read) or on error (s->error). */
bool jscan_member(struct json_scan *s, bool *first, char **key) {
    jscan_skip_blanks(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return false;
    }
    if (!*first && !jscan_expect(s, ',', "expected ',' or '}' in an object")) {
        return false;
    }
    *first = false;
    *key = jscan_string(s);
    return *key != NULL && jscan_expect(s, ':', "expected ':' after a key");
}

/* Whether an array whose '[' was read has another element (the cursor on it). */
bool jscan_element(struct json_scan *s, bool *first) {
    jscan_skip_blanks(s);
    if (s->p < s->end && *s->p == ']') {
        s->p++;
        return false;
    }
    if (!*first && !jscan_expect(s, ',', "expected ',' or ']' in an array")) {
        return false;
    }
    *first = false;
    return true;
}

bool jscan_skip_value(struct json_scan *s, int depth) {
    jscan_skip_blanks(s);
    if (depth > MAX_DEPTH) {
        return jscan_fail(s, "nested too deeply");
    }
    if (s->p >= s->end) {
        return jscan_fail(s, "truncated answer");
    }
    bool first = true;
    char *key;
    double ignored;
    switch (*s->p) {
    case '{':
        s->p++;
        while (jscan_member(s, &first, &key)) {
            if (!jscan_skip_value(s, depth + 1)) {
                return false;
            }
        }
        return s->error == NULL;
    case '[':
        s->p++;
        while (jscan_element(s, &first)) {
            if (!jscan_skip_value(s, depth + 1)) {
                return false;
            }
        }
        return s->error == NULL;
    case '"':
        return jscan_string(s) != NULL;
    case 't':
        return jscan_literal(s, "true");
    case 'f':
        return jscan_literal(s, "false");
    case 'n':
        return jscan_literal(s, "null");
    default:
        return jscan_number(s, &ignored);
    }
}

/* A string value, or NULL (skipped) when the value is of another type. */
const char *jscan_string_or_skip(struct json_scan *s) {
    jscan_skip_blanks(s);
    if (s->p < s->end && *s->p == '"') {
        return jscan_string(s);
    }
    jscan_skip_value(s, 1);
    return NULL;
}
