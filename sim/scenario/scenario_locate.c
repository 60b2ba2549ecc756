/*
 * Finding where a value sits in the scenario text.
 *
 * jansson reports positions for syntax errors only: once a document is parsed, its values carry
 * no line or column.  To point semantic errors (wrong type, unknown key, value out of range) at
 * the offending value, we walk the original text along the JSON path the loader was reading.
 * The text is known to be valid JSON at this point, so this small scanner only has to skip
 * values and compare keys; it never needs to report syntax errors itself.
 */
#include <stdint.h>
#include <string.h>

#include "scenario/scenario_internal.h"

struct cursor {
    const char *text;
    size_t length;
    size_t pos;
};

static void skip_space(struct cursor *c) {
    while (c->pos < c->length && strchr(" \t\r\n", c->text[c->pos]) != NULL &&
           c->text[c->pos] != '\0') {
        c->pos++;
    }
}

/* The bytes that end a bare token.  (strchr() would also match the NUL terminator.) */
static bool is_delimiter(char ch) {
    return ch != '\0' && strchr(",:}] \t\r\n", ch) != NULL;
}

static int hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') {
        return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
        return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
        return ch - 'A' + 10;
    }
    return -1;
}

/* Reads four hex digits after "\u"; returns -1 when they are not there. */
static long read_hex4(const struct cursor *c, size_t at) {
    long v = 0;
    if (at + 4 > c->length) {
        return -1;
    }
    for (size_t i = 0; i < 4; i++) {
        int d = hex_digit(c->text[at + i]);
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *out, size_t room, size_t n, uint32_t cp) {
    char buf[4];
    size_t len = 0;
    if (cp < 0x80) {
        buf[len++] = (char)cp;
    } else if (cp < 0x800) {
        buf[len++] = (char)(0xC0 | (cp >> 6));
        buf[len++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[len++] = (char)(0xE0 | (cp >> 12));
        buf[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[len++] = (char)(0x80 | (cp & 0x3F));
    } else {
        buf[len++] = (char)(0xF0 | (cp >> 18));
        buf[len++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        buf[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[len++] = (char)(0x80 | (cp & 0x3F));
    }
    for (size_t i = 0; i < len && n + 1 < room; i++) {
        out[n++] = buf[i];
    }
    return n;
}

/* Decodes the escape at c->pos (just after the backslash) into out; advances the cursor. */
static size_t decode_escape(struct cursor *c, char *out, size_t room, size_t n) {
    static const char from[] = "\"\\/bfnrt";
    static const char to[] = "\"\\/\b\f\n\r\t";
    char e = c->text[c->pos++];
    if (e != 'u') {
        const char *hit = e != '\0' ? strchr(from, e) : NULL;
        return hit != NULL ? put_utf8(out, room, n, (uint32_t)to[hit - from]) : n;
    }
    long cp = read_hex4(c, c->pos);
    c->pos += 4;
    if (cp >= 0xD800 && cp < 0xDC00 && c->pos + 6 <= c->length && c->text[c->pos] == '\\' &&
        c->text[c->pos + 1] == 'u') {
        long low = read_hex4(c, c->pos + 2);
        if (low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            c->pos += 6;
        }
    }
    return cp < 0 ? n : put_utf8(out, room, n, (uint32_t)cp);
}

/* Reads the string at the cursor (which is on its opening quote), decoding it into out (which
 * may be NULL to skip it).  Strings longer than `room` are cut, which only matters for keys
 * longer than any the loader compares against. */
static void read_string(struct cursor *c, char *out, size_t room) {
    size_t n = 0;
    c->pos++;
    while (c->pos < c->length && c->text[c->pos] != '"') {
        char ch = c->text[c->pos++];
        if (ch == '\\' && c->pos < c->length) {
            if (out != NULL) {
                n = decode_escape(c, out, room, n);
            } else {
                c->pos++;
            }
        } else if (out != NULL && n + 1 < room) {
            out[n++] = ch;
        }
    }
    c->pos++;
    if (out != NULL) {
        out[n] = '\0';
    }
}

/* Skips one value of any kind. */
static void skip_value(struct cursor *c) {
    size_t nesting = 0;
    do {
        skip_space(c);
        if (c->pos >= c->length) {
            return;
        }
        char ch = c->text[c->pos];
        if (ch == '"') {
            read_string(c, NULL, 0);
        } else if (ch == '{' || ch == '[') {
            nesting++;
            c->pos++;
        } else if (ch == '}' || ch == ']') {
            if (nesting == 0) {
                return; /* the end of the enclosing container: not part of this value */
            }
            nesting--;
            c->pos++;
        } else if (ch == ',' || ch == ':') {
            c->pos++;
        } else {
            /* A bare token (number, literal, or a byte such as NUL that the parser let through):
             * step over at least one byte, so that no input can stop the walk. */
            c->pos++;
            while (c->pos < c->length && !is_delimiter(c->text[c->pos])) {
                c->pos++;
            }
        }
    } while (nesting > 0);
}

/* Moves the cursor onto the member `key` of the object at the cursor: onto its key when
 * `stop_at_key`, else onto its value.  Returns false when there is no such member. */
static bool enter_member(struct cursor *c, const char *key, bool stop_at_key) {
    char name[256];
    c->pos++;
    for (;;) {
        skip_space(c);
        if (c->pos >= c->length || c->text[c->pos] != '"') {
            return false;
        }
        size_t key_pos = c->pos;
        read_string(c, name, sizeof(name));
        skip_space(c);
        c->pos++; /* the colon */
        skip_space(c);
        if (strcmp(name, key) == 0) {
            if (stop_at_key) {
                c->pos = key_pos;
            }
            return true;
        }
        skip_value(c);
        skip_space(c);
        if (c->pos >= c->length || c->text[c->pos] != ',') {
            return false;
        }
        c->pos++;
    }
}

static bool enter_element(struct cursor *c, size_t index) {
    c->pos++;
    for (size_t i = 0;; i++) {
        skip_space(c);
        if (c->pos >= c->length || c->text[c->pos] == ']') {
            return false;
        }
        if (i == index) {
            return true;
        }
        skip_value(c);
        skip_space(c);
        if (c->pos >= c->length || c->text[c->pos] != ',') {
            return false;
        }
        c->pos++;
    }
}

static void position_of(const char *text, size_t pos, unsigned int *line, unsigned int *column) {
    unsigned int l = 1;
    unsigned int col = 1;
    for (size_t i = 0; i < pos; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n') {
            l++;
            col = 1;
        } else if ((ch & 0xC0) != 0x80) {
            col++; /* count characters, not UTF-8 continuation bytes, like jansson */
        }
    }
    *line = l;
    *column = col;
}

bool scenario_locate(const char *text, size_t length, const struct scenario_path *path,
                     bool want_key, unsigned int *line, unsigned int *column) {
    struct cursor c = {.text = text, .length = length, .pos = 0};
    bool found = true;
    skip_space(&c);
    for (size_t i = 0; i < path->depth && found; i++) {
        const struct scenario_segment *seg = &path->segments[i];
        bool last = i + 1 == path->depth;
        if (c.pos >= c.length) {
            found = false;
        } else if (seg->key != NULL) {
            found = c.text[c.pos] == '{' && enter_member(&c, seg->key, last && want_key);
        } else {
            found = c.text[c.pos] == '[' && enter_element(&c, seg->index);
        }
        skip_space(&c);
    }
    if (!found) {
        c.pos = 0;
    }
    position_of(text, c.pos < length ? c.pos : length, line, column);
    return found;
}
