/*
 * Patch columns (fields.h, docs/recording.md "Patches"): for one field of a table over the rows
 * of a list (devices, processes, ...), a bitmap of the rows whose value changed since the
 * previous frame, then the new values of those rows, each as a delta:
 *   integers: the zigzag varint of the difference;
 *   doubles: a varint zigzag(delta) << 3 | code, code 0-6 meaning "a decimal with that many
 *     digits after the point" (the delta is between the values scaled by 10^code and rounded);
 *     code 7 with nothing above it: the 8 bytes of the double follow; code 7 with p > 0 above it
 *     (running times): start time + running time, the wall-clock time the process was read, is
 *     zigzag^-1(p - 1) units in the last place after the previous row's (the frame's time for the
 *     first), as processes are read one after the other;
 *   strings and arrays of doubles: a varint length and the bytes.
 * Unchanged values cost one bit.  Lossless: the encoder checks that the decoder's arithmetic gives
 * the same bits back, else writes the whole double.
 */
#include <math.h>
#include <string.h>

#include <nvitop/snapshot.h>

#include "record/codec/fields.h"

#define MAX_DIGITS   6
#define CODE_ELAPSED 7
#define EXACT_LIMIT  4503599627370496.0 /* 2^52: integers below are exact in a double */

static const double powers[MAX_DIGITS + 1] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};

static uint64_t bits_of(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

static double from_bits(uint64_t b) {
    double v;
    memcpy(&v, &b, sizeof(v));
    return v;
}

static uint64_t zigzag(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* v scaled by 10^digits and rounded, or 0 when that is not an exact integer (N/A, huge). */
static int64_t scaled(double v, unsigned digits) {
    double m = v * powers[digits];
    return fabs(m) < EXACT_LIMIT ? (int64_t)llround(m) : 0;
}

bool fields_double_delta(double prev, double cur, uint64_t *out) {
    if (!isfinite(cur)) {
        return false;
    }
    uint64_t want = bits_of(cur);
    for (unsigned d = 0; d <= MAX_DIGITS; d++) {
        if (!(fabs(cur * powers[d]) < EXACT_LIMIT)) {
            return false;
        }
        int64_t n = scaled(cur, d);
        if (bits_of((double)n / powers[d]) != want) {
            continue;
        }
        uint64_t z = zigzag(n - scaled(prev, d));
        if (z > UINT64_MAX >> 3) {
            return false;
        }
        *out = z << 3 | d;
        return true;
    }
    return false;
}

double fields_double_apply(double prev, uint64_t value) {
    unsigned code = (unsigned)(value & 7U);
    if (code > MAX_DIGITS) {
        return NAN;
    }
    int64_t delta = wire_zigzag_decode(value >> 3);
    /* Wrapping arithmetic: a hostile delta must not be undefined behaviour. */
    int64_t n = (int64_t)((uint64_t)scaled(prev, code) + (uint64_t)delta);
    return (double)n / powers[code];
}

/* An integer field widened to 64 bits (N/A sizes as 2^64-1, as the keyframes store them). */
static uint64_t int_value(enum field_kind kind, const unsigned char *at) {
    switch (kind) {
    case FIELD_U32: {
        uint32_t v;
        memcpy(&v, at, sizeof(v));
        return v;
    }
    case FIELD_U64: {
        uint64_t v;
        memcpy(&v, at, sizeof(v));
        return v;
    }
    case FIELD_I32: {
        int32_t v;
        memcpy(&v, at, sizeof(v));
        return (uint64_t)(int64_t)v;
    }
    case FIELD_INT:
    case FIELD_STATUS: {
        int v;
        memcpy(&v, at, sizeof(v));
        return (uint64_t)(int64_t)v;
    }
    case FIELD_BOOL: {
        bool v;
        memcpy(&v, at, sizeof(v));
        return v ? 1 : 0;
    }
    case FIELD_CHAR:
        return *at;
    case FIELD_SIZE: {
        size_t v;
        memcpy(&v, at, sizeof(v));
        return v == NVT_NA_SIZE ? UINT64_MAX : (uint64_t)v;
    }
    default:
        return 0;
    }
}

static void set_int(enum field_kind kind, unsigned char *at, uint64_t value) {
    switch (kind) {
    case FIELD_U32: {
        uint32_t v = (uint32_t)value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_U64:
        memcpy(at, &value, sizeof(value));
        break;
    case FIELD_I32: {
        int32_t v = (int32_t)(uint32_t)value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_INT:
    case FIELD_STATUS: {
        int v = (int)(int32_t)(uint32_t)value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_BOOL: {
        bool v = value != 0;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_CHAR:
        *at = (unsigned char)value;
        break;
    case FIELD_SIZE: {
        size_t v = value == UINT64_MAX ? NVT_NA_SIZE : (size_t)value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    default:
        break;
    }
}

/* Called for every field of every row of every frame: the common sizes compare inline. */
static inline bool changed(const struct field *f, const unsigned char *prev,
                           const unsigned char *cur) {
    switch (f->kind == FIELD_TEXT ? 0 : f->size) {
    case 1:
        return *prev != *cur;
    case 4: {
        uint32_t a;
        uint32_t b;
        memcpy(&a, prev, sizeof(a));
        memcpy(&b, cur, sizeof(b));
        return a != b;
    }
    case 8: {
        uint64_t a;
        uint64_t b;
        memcpy(&a, prev, sizeof(a));
        memcpy(&b, cur, sizeof(b));
        return a != b;
    }
    case 0:
        return strncmp((const char *)prev, (const char *)cur, f->size) != 0;
    default:
        return memcmp(prev, cur, f->size) != 0;
    }
}

static double get_double(const unsigned char *at) {
    double v;
    memcpy(&v, at, sizeof(v));
    return v;
}

/* A running time as an offset from the previous row's wall-clock time (*chain, bits). */
static bool elapsed_value(double start, double cur, uint64_t *chain, uint64_t *out) {
    if (!isfinite(start) || !isfinite(cur) || !(start > 0.0)) {
        return false;
    }
    double wall = start + cur;
    if (!(wall > 0.0) || !isfinite(wall) || bits_of(wall - start) != bits_of(cur)) {
        return false;
    }
    uint64_t z = zigzag((int64_t)(bits_of(wall) - *chain));
    if (z >= UINT64_MAX >> 3) {
        return false;
    }
    *out = (z + 1) << 3 | CODE_ELAPSED;
    *chain = bits_of(wall);
    return true;
}

static void put_value(struct strbuf *out, const struct field *f, const unsigned char *prev,
                      const unsigned char *row, uint64_t *chain) {
    const unsigned char *at = row + f->offset;
    enum field_kind kind = (enum field_kind)f->kind;
    if (kind == FIELD_TEXT || kind == FIELD_DOUBLES) {
        size_t n = kind == FIELD_TEXT ? strnlen((const char *)at, f->size) : f->size;
        wire_put_varint(out, n);
        (void)strbuf_append(out, (const char *)at, n);
    } else if (kind == FIELD_DOUBLE || kind == FIELD_ELAPSED) {
        uint64_t v = 0;
        double cur = get_double(at);
        if ((kind == FIELD_ELAPSED && elapsed_value(get_double(row + f->ref), cur, chain, &v)) ||
            fields_double_delta(get_double(prev), cur, &v)) {
            wire_put_varint(out, v);
        } else {
            unsigned char raw[8];
            uint64_t b = bits_of(cur);
            for (size_t i = 0; i < 8; i++) {
                raw[i] = (unsigned char)(b >> (8 * i));
            }
            wire_put_varint(out, CODE_ELAPSED);
            (void)strbuf_append(out, (const char *)raw, sizeof(raw));
        }
    } else {
        wire_put_varint(out, zigzag((int64_t)(int_value(kind, at) - int_value(kind, prev))));
    }
}

size_t fields_column_encode(struct strbuf *out, const struct field_table *table, void *prev,
                            size_t prev_stride, const void *cur, size_t cur_stride, size_t rows,
                            double time) {
    unsigned char *p = prev;
    const unsigned char *c = cur;
    size_t columns = 0;
    size_t map_size = (rows + 7) / 8;
    struct strbuf column = STRBUF_INIT;
    for (size_t i = 0; i < table->count; i++) {
        const struct field *f = &table->fields[i];
        size_t first = 0;
        while (first < rows && !changed(f, p + first * prev_stride + f->offset,
                                        c + first * cur_stride + f->offset)) {
            first++;
        }
        if (first == rows) {
            continue;
        }
        strbuf_clear(&column);
        for (size_t k = 0; k < map_size; k++) {
            (void)strbuf_append_char(&column, 0);
        }
        uint64_t chain = bits_of(time);
        for (size_t r = first; r < rows; r++) {
            unsigned char *pa = p + r * prev_stride + f->offset;
            const unsigned char *row = c + r * cur_stride;
            if (!changed(f, pa, row + f->offset)) {
                continue;
            }
            if (column.data != NULL) {
                column.data[r / 8] = (char)(column.data[r / 8] | 1 << (r % 8));
            }
            put_value(&column, f, pa, row, &chain);
            memcpy(pa, row + f->offset, f->size);
        }
        wire_put_bytes(out, f->tag, column.data, column.len);
        columns++;
    }
    strbuf_fini(&column);
    return columns;
}

static bool take_bytes(struct wire_reader *r, size_t n, const unsigned char **bytes) {
    if ((size_t)(r->end - r->at) < n) {
        return false;
    }
    *bytes = r->at;
    r->at += n;
    return true;
}

static bool read_value(struct wire_reader *r, const struct field *f, unsigned char *row,
                       uint64_t *chain) {
    unsigned char *at = row + f->offset;
    enum field_kind kind = (enum field_kind)f->kind;
    uint64_t v = 0;
    const unsigned char *bytes = NULL;
    if (!wire_get_varint(r, &v)) {
        return false;
    }
    if (kind == FIELD_TEXT || kind == FIELD_DOUBLES) {
        if (v > (uint64_t)(r->end - r->at) || !take_bytes(r, (size_t)v, &bytes)) {
            return false;
        }
        size_t n = kind == FIELD_TEXT ? f->size - 1 : f->size;
        n = (size_t)v < n ? (size_t)v : n;
        memcpy(at, bytes, n);
        if (kind == FIELD_TEXT) {
            at[n] = '\0';
        }
        return true;
    }
    if (kind != FIELD_DOUBLE && kind != FIELD_ELAPSED) {
        set_int(kind, at, int_value(kind, at) + (uint64_t)wire_zigzag_decode(v));
        return true;
    }
    double value = NAN;
    if (v == CODE_ELAPSED) {
        if (!take_bytes(r, 8, &bytes)) {
            return false;
        }
        uint64_t b = 0;
        for (size_t i = 0; i < 8; i++) {
            b |= (uint64_t)bytes[i] << (8 * i);
        }
        value = from_bits(b);
    } else if ((v & 7U) == CODE_ELAPSED) {
        if (kind != FIELD_ELAPSED) {
            return false; /* only running times use this code */
        }
        *chain += (uint64_t)wire_zigzag_decode((v >> 3) - 1);
        value = from_bits(*chain) - get_double(row + f->ref);
    } else {
        value = fields_double_apply(get_double(at), v);
    }
    memcpy(at, &value, sizeof(value));
    return true;
}

bool fields_column_decode(const struct field_table *table, void *rows_base, size_t stride,
                          size_t rows, const struct wire_field *column, double time) {
    const struct field *f = NULL;
    for (size_t i = 0; i < table->count; i++) {
        if (table->fields[i].tag == column->tag) {
            f = &table->fields[i];
            break;
        }
    }
    if (f == NULL || column->type != WIRE_BYTES) {
        return true; /* a later version's field: skipped */
    }
    size_t map_size = (rows + 7) / 8;
    if (column->size < map_size) {
        return false;
    }
    const unsigned char *map = column->bytes;
    struct wire_reader r = {column->bytes + map_size, column->bytes + column->size};
    uint64_t chain = bits_of(time);
    for (size_t row = 0; row < rows; row++) {
        if ((map[row / 8] >> (row % 8) & 1U) != 0 &&
            !read_value(&r, f, (unsigned char *)rows_base + row * stride, &chain)) {
            return false;
        }
    }
    return true;
}
