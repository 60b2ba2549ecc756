/*
 * A small strict JSON parser behind the Jansson subset of jansson.h (see there for why).  RFC 8259
 * grammar; strings are checked to be UTF-8 and \u escapes (surrogate pairs included) become UTF-8;
 * nesting is limited so hostile input cannot exhaust the stack.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"

enum {
    JSON_LITE_MAX_DEPTH = 512
};

struct json_t {
    json_type type;
    size_t refcount;
    union {
        struct {
            char **keys;
            json_t **values;
            size_t count;
            size_t capacity;
        } object;
        struct {
            json_t **items;
            size_t count;
            size_t capacity;
        } array;
        struct {
            char *text;
            size_t length;
        } string;
        json_int_t integer;
        double real;
    } u;
};

struct parser {
    const char *text;
    size_t length;
    size_t pos;
    size_t flags;
    json_error_t *error;
    int failed;
};

static json_t *new_value(json_type type) {
    json_t *value = calloc(1, sizeof(*value));
    if (value != NULL) {
        value->type = type;
        value->refcount = 1;
    }
    return value;
}

void json_decref(json_t *json) {
    if (json == NULL || --json->refcount > 0) {
        return;
    }
    if (json->type == JSON_OBJECT) {
        for (size_t i = 0; i < json->u.object.count; i++) {
            free(json->u.object.keys[i]);
            json_decref(json->u.object.values[i]);
        }
        free(json->u.object.keys);
        free(json->u.object.values);
    } else if (json->type == JSON_ARRAY) {
        for (size_t i = 0; i < json->u.array.count; i++) {
            json_decref(json->u.array.items[i]);
        }
        free(json->u.array.items);
    } else if (json->type == JSON_STRING) {
        free(json->u.string.text);
    }
    free(json);
}

json_type json_typeof(const json_t *json) {
    return json->type;
}

const char *json_string_value(const json_t *json) {
    return json_is_string(json) ? json->u.string.text : NULL;
}

size_t json_string_length(const json_t *json) {
    return json_is_string(json) ? json->u.string.length : 0;
}

json_int_t json_integer_value(const json_t *json) {
    return json_is_integer(json) ? json->u.integer : 0;
}

double json_number_value(const json_t *json) {
    if (json_is_integer(json)) {
        return (double)json->u.integer;
    }
    return json_is_real(json) ? json->u.real : 0.0;
}

size_t json_array_size(const json_t *array) {
    return json_is_array(array) ? array->u.array.count : 0;
}

json_t *json_array_get(const json_t *array, size_t index) {
    return json_is_array(array) && index < array->u.array.count ? array->u.array.items[index]
                                                                : NULL;
}

size_t json_object_size(const json_t *object) {
    return json_is_object(object) ? object->u.object.count : 0;
}

static size_t find_key(const json_t *object, const char *key) {
    for (size_t i = 0; i < object->u.object.count; i++) {
        if (strcmp(object->u.object.keys[i], key) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

json_t *json_object_get(const json_t *object, const char *key) {
    if (!json_is_object(object) || key == NULL) {
        return NULL;
    }
    size_t i = find_key(object, key);
    return i == SIZE_MAX ? NULL : object->u.object.values[i];
}

int json_object_del(json_t *object, const char *key) {
    if (!json_is_object(object) || key == NULL) {
        return -1;
    }
    size_t i = find_key(object, key);
    if (i == SIZE_MAX) {
        return -1;
    }
    free(object->u.object.keys[i]);
    json_decref(object->u.object.values[i]);
    size_t rest = object->u.object.count - i - 1;
    memmove(object->u.object.keys + i, object->u.object.keys + i + 1, rest * sizeof(char *));
    memmove(object->u.object.values + i, object->u.object.values + i + 1, rest * sizeof(json_t *));
    object->u.object.count--;
    return 0;
}

const char *json_lite_object_key(const json_t *object, size_t index) {
    return index < json_object_size(object) ? object->u.object.keys[index] : NULL;
}

json_t *json_lite_object_value(const json_t *object, size_t index) {
    return index < json_object_size(object) ? object->u.object.values[index] : NULL;
}

static int object_add(json_t *object, char *key, json_t *value) {
    if (object->u.object.count == object->u.object.capacity) {
        size_t capacity = object->u.object.capacity ? object->u.object.capacity * 2 : 8;
        char **keys = realloc(object->u.object.keys, capacity * sizeof(*keys));
        if (keys == NULL) {
            return -1;
        }
        object->u.object.keys = keys;
        json_t **values = realloc(object->u.object.values, capacity * sizeof(*values));
        if (values == NULL) {
            return -1;
        }
        object->u.object.values = values;
        object->u.object.capacity = capacity;
    }
    object->u.object.keys[object->u.object.count] = key;
    object->u.object.values[object->u.object.count] = value;
    object->u.object.count++;
    return 0;
}

static int array_add(json_t *array, json_t *value) {
    if (array->u.array.count == array->u.array.capacity) {
        size_t capacity = array->u.array.capacity ? array->u.array.capacity * 2 : 8;
        json_t **items = realloc(array->u.array.items, capacity * sizeof(*items));
        if (items == NULL) {
            return -1;
        }
        array->u.array.items = items;
        array->u.array.capacity = capacity;
    }
    array->u.array.items[array->u.array.count++] = value;
    return 0;
}

json_t *json_copy(json_t *json) {
    if (json == NULL) {
        return NULL;
    }
    if (json->type != JSON_OBJECT && json->type != JSON_ARRAY) {
        json->refcount++;
        return json;
    }
    json_t *copy = new_value(json->type);
    if (copy == NULL) {
        return NULL;
    }
    size_t count = json->type == JSON_OBJECT ? json->u.object.count : json->u.array.count;
    for (size_t i = 0; i < count; i++) {
        int rc;
        if (json->type == JSON_OBJECT) {
            char *key = strdup(json->u.object.keys[i]);
            rc = key != NULL ? object_add(copy, key, json->u.object.values[i]) : -1;
            if (rc != 0) {
                free(key);
            }
        } else {
            rc = array_add(copy, json->u.array.items[i]);
        }
        if (rc != 0) {
            json_decref(copy);
            return NULL;
        }
        (json->type == JSON_OBJECT ? json->u.object.values[i] : json->u.array.items[i])->refcount++;
    }
    return copy;
}

/* ---- parsing ---- */

static void fail(struct parser *p, const char *format, ...) {
    if (p->failed) {
        return;
    }
    p->failed = 1;
    int line = 1;
    int column = 1;
    for (size_t i = 0; i < p->pos && i < p->length; i++) {
        if (p->text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    p->error->line = line;
    p->error->column = column;
    p->error->position = p->pos > INT32_MAX ? INT32_MAX : (int)p->pos;
    va_list ap;
    va_start(ap, format);
    vsnprintf(p->error->text, sizeof(p->error->text), format, ap);
    va_end(ap);
}

static void skip_space(struct parser *p) {
    while (p->pos < p->length && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
                                  p->text[p->pos] == '\n' || p->text[p->pos] == '\r')) {
        p->pos++;
    }
}

static int peek(const struct parser *p) {
    return p->pos < p->length ? (unsigned char)p->text[p->pos] : -1;
}

static int hex4(struct parser *p, unsigned *out) {
    if (p->length - p->pos < 4) {
        return -1;
    }
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->text[p->pos + (size_t)i];
        v <<= 4;
        if (c >= '0' && c <= '9') {
            v |= (unsigned)(c - '0');
        } else if (c >= 'a' && c <= 'f') {
            v |= (unsigned)(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
            v |= (unsigned)(c - 'A' + 10);
        } else {
            return -1;
        }
    }
    p->pos += 4;
    *out = v;
    return 0;
}

static size_t put_utf8(char *out, unsigned cp) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Length of the valid UTF-8 sequence at s (up to n bytes), 0 when invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t n) {
    size_t len = s[0] < 0x80                    ? 1
                 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
                 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                                : 0;
    if (len == 0 || len > n) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)) {
        return 0;
    }
    return len;
}

/* The string starting at the opening quote; *length gets its decoded length.  NULL on error. */
static char *parse_string(struct parser *p, size_t *length) {
    p->pos++; /* the quote */
    /* Decoded text is never longer than the source. */
    size_t end = p->pos;
    while (end < p->length && p->text[end] != '"') {
        end += p->text[end] == '\\' ? 2 : 1;
    }
    if (end >= p->length) {
        fail(p, "premature end of input in a string");
        return NULL;
    }
    char *out = malloc(end - p->pos + 1);
    if (out == NULL) {
        fail(p, "out of memory");
        return NULL;
    }
    size_t n = 0;
    while (p->text[p->pos] != '"') {
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c < 0x20) {
            fail(p, "control character 0x%x in a string", c);
            free(out);
            return NULL;
        }
        if (c != '\\') {
            size_t len = utf8_sequence((const unsigned char *)p->text + p->pos, p->length - p->pos);
            if (len == 0) {
                fail(p, "invalid UTF-8 in a string");
                free(out);
                return NULL;
            }
            memcpy(out + n, p->text + p->pos, len);
            n += len;
            p->pos += len;
            continue;
        }
        p->pos++;
        char e = p->text[p->pos++];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (simple != NULL && e != '\0') {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            out[n++] = decoded[simple - "\"\\/bfnrt"];
            continue;
        }
        unsigned cp = 0;
        if (e != 'u' || hex4(p, &cp) != 0) {
            fail(p, "invalid escape in a string");
            free(out);
            return NULL;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            unsigned low = 0;
            if (p->length - p->pos < 2 || p->text[p->pos] != '\\' || p->text[p->pos + 1] != 'u' ||
                (p->pos += 2, hex4(p, &low) != 0) || low < 0xDC00 || low > 0xDFFF) {
                fail(p, "invalid Unicode surrogate pair in a string");
                free(out);
                return NULL;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail(p, "invalid Unicode surrogate in a string");
            free(out);
            return NULL;
        } else if (cp == 0) {
            fail(p, "\\u0000 is not allowed in a string");
            free(out);
            return NULL;
        }
        n += put_utf8(out + n, cp);
    }
    p->pos++; /* the closing quote */
    out[n] = '\0';
    *length = n;
    return out;
}

static json_t *parse_number(struct parser *p) {
    size_t start = p->pos;
    int is_real = 0;
    if (peek(p) == '-') {
        p->pos++;
    }
    if (peek(p) == '0') {
        p->pos++;
    } else if (peek(p) >= '1' && peek(p) <= '9') {
        while (peek(p) >= '0' && peek(p) <= '9') {
            p->pos++;
        }
    } else {
        fail(p, "invalid token");
        return NULL;
    }
    if (peek(p) == '.') {
        is_real = 1;
        p->pos++;
        if (!(peek(p) >= '0' && peek(p) <= '9')) {
            fail(p, "invalid number");
            return NULL;
        }
        while (peek(p) >= '0' && peek(p) <= '9') {
            p->pos++;
        }
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        is_real = 1;
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-') {
            p->pos++;
        }
        if (!(peek(p) >= '0' && peek(p) <= '9')) {
            fail(p, "invalid number");
            return NULL;
        }
        while (peek(p) >= '0' && peek(p) <= '9') {
            p->pos++;
        }
    }
    char buffer[400];
    size_t len = p->pos - start;
    if (len >= sizeof(buffer)) {
        fail(p, "number too long");
        return NULL;
    }
    memcpy(buffer, p->text + start, len);
    buffer[len] = '\0';
    json_t *value = new_value(is_real ? JSON_REAL : JSON_INTEGER);
    if (value == NULL) {
        fail(p, "out of memory");
        return NULL;
    }
    errno = 0;
    if (is_real) {
        value->u.real = strtod(buffer, NULL);
        if (errno == ERANGE && fabs(value->u.real) > 1.0) {
            fail(p, "real number overflow");
            json_decref(value);
            return NULL;
        }
    } else {
        value->u.integer = strtoll(buffer, NULL, 10);
        if (errno == ERANGE) {
            fail(p, "too big integer");
            json_decref(value);
            return NULL;
        }
    }
    return value;
}

static json_t *parse_value(struct parser *p, int depth);

static json_t *parse_object(struct parser *p, int depth) {
    json_t *object = new_value(JSON_OBJECT);
    if (object == NULL) {
        fail(p, "out of memory");
        return NULL;
    }
    p->pos++; /* { */
    skip_space(p);
    if (peek(p) == '}') {
        p->pos++;
        return object;
    }
    for (;;) {
        skip_space(p);
        if (peek(p) != '"') {
            fail(p, "string or '}' expected");
            break;
        }
        size_t key_length = 0;
        char *key = parse_string(p, &key_length);
        if (key == NULL) {
            break;
        }
        if (strlen(key) != key_length ||
            ((p->flags & JSON_REJECT_DUPLICATES) != 0 && find_key(object, key) != SIZE_MAX)) {
            fail(p, strlen(key) != key_length ? "NUL byte in object key not supported"
                                              : "duplicate object key");
            free(key);
            break;
        }
        skip_space(p);
        if (peek(p) != ':') {
            fail(p, "':' expected");
            free(key);
            break;
        }
        p->pos++;
        json_t *value = parse_value(p, depth + 1);
        if (value == NULL) {
            free(key);
            break;
        }
        if (object_add(object, key, value) != 0) {
            fail(p, "out of memory");
            free(key);
            json_decref(value);
            break;
        }
        skip_space(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == '}') {
            p->pos++;
            return object;
        }
        fail(p, "'}' expected");
        break;
    }
    json_decref(object);
    return NULL;
}

static json_t *parse_array(struct parser *p, int depth) {
    json_t *array = new_value(JSON_ARRAY);
    if (array == NULL) {
        fail(p, "out of memory");
        return NULL;
    }
    p->pos++; /* [ */
    skip_space(p);
    if (peek(p) == ']') {
        p->pos++;
        return array;
    }
    for (;;) {
        json_t *value = parse_value(p, depth + 1);
        if (value == NULL) {
            break;
        }
        if (array_add(array, value) != 0) {
            fail(p, "out of memory");
            json_decref(value);
            break;
        }
        skip_space(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == ']') {
            p->pos++;
            return array;
        }
        fail(p, "']' expected");
        break;
    }
    json_decref(array);
    return NULL;
}

static json_t *parse_literal(struct parser *p, const char *word, json_type type) {
    size_t len = strlen(word);
    if (p->length - p->pos < len || memcmp(p->text + p->pos, word, len) != 0) {
        fail(p, "invalid token");
        return NULL;
    }
    p->pos += len;
    json_t *value = new_value(type);
    if (value == NULL) {
        fail(p, "out of memory");
    }
    return value;
}

static json_t *parse_value(struct parser *p, int depth) {
    if (depth > JSON_LITE_MAX_DEPTH) {
        fail(p, "maximum parsing depth reached");
        return NULL;
    }
    skip_space(p);
    switch (peek(p)) {
    case '{':
        return parse_object(p, depth);
    case '[':
        return parse_array(p, depth);
    case '"': {
        size_t length = 0;
        char *text = parse_string(p, &length);
        if (text == NULL) {
            return NULL;
        }
        json_t *value = new_value(JSON_STRING);
        if (value == NULL) {
            free(text);
            fail(p, "out of memory");
            return NULL;
        }
        value->u.string.text = text;
        value->u.string.length = length;
        return value;
    }
    case 't':
        return parse_literal(p, "true", JSON_TRUE);
    case 'f':
        return parse_literal(p, "false", JSON_FALSE);
    case 'n':
        return parse_literal(p, "null", JSON_NULL);
    case -1:
        fail(p, "premature end of input");
        return NULL;
    default:
        return parse_number(p);
    }
}

json_t *json_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error) {
    json_error_t ignored;
    struct parser p = {
        .text = buffer, .length = buflen, .flags = flags, .error = error ? error : &ignored};
    memset(p.error, 0, sizeof(*p.error));
    if (buffer == NULL) {
        fail(&p, "wrong arguments");
        return NULL;
    }
    skip_space(&p);
    if (peek(&p) != '{' && peek(&p) != '[') {
        fail(&p, "'[' or '{' expected");
        return NULL;
    }
    json_t *root = parse_value(&p, 0);
    if (root == NULL) {
        return NULL;
    }
    skip_space(&p);
    if (p.pos != p.length) {
        fail(&p, "end of file expected");
        json_decref(root);
        return NULL;
    }
    return root;
}
