/*
 * The tag-length-value encoding of wire.h.
 */
#include "record/codec/wire.h"

#include <string.h>

void wire_put_varint(struct strbuf *out, uint64_t value) {
    unsigned char bytes[10];
    size_t n = 0;
    do {
        unsigned char byte = value & 0x7FU;
        value >>= 7;
        bytes[n++] = (unsigned char)(byte | (value != 0 ? 0x80U : 0U));
    } while (value != 0);
    (void)strbuf_append(out, (const char *)bytes, n);
}

void wire_put_key(struct strbuf *out, unsigned tag, enum wire_type type) {
    wire_put_varint(out, (uint64_t)tag << 3 | (uint64_t)type);
}

void wire_put_uint(struct strbuf *out, unsigned tag, uint64_t value) {
    wire_put_key(out, tag, WIRE_VARINT);
    wire_put_varint(out, value);
}

void wire_put_sint(struct strbuf *out, unsigned tag, int64_t value) {
    uint64_t zigzag = ((uint64_t)value << 1) ^ (uint64_t)(value >> 63);
    wire_put_uint(out, tag, zigzag);
}

void wire_put_double(struct strbuf *out, unsigned tag, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    unsigned char bytes[8];
    for (size_t i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(bits >> (8 * i));
    }
    wire_put_key(out, tag, WIRE_F64);
    (void)strbuf_append(out, (const char *)bytes, sizeof(bytes));
}

void wire_put_bytes(struct strbuf *out, unsigned tag, const void *data, size_t size) {
    wire_put_key(out, tag, WIRE_BYTES);
    wire_put_varint(out, size);
    (void)strbuf_append(out, data, size);
}

void wire_put_string(struct strbuf *out, unsigned tag, const char *text) {
    text = text != NULL ? text : "";
    wire_put_bytes(out, tag, text, strlen(text));
}

bool wire_get_varint(struct wire_reader *r, uint64_t *out) {
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (r->at >= r->end) {
            return false;
        }
        unsigned char byte = *r->at++;
        value |= (uint64_t)(byte & 0x7FU) << shift;
        if ((byte & 0x80U) == 0) {
            *out = value;
            return true;
        }
    }
    return false; /* more than 10 bytes */
}

bool wire_next(struct wire_reader *r, struct wire_field *field, bool *bad) {
    *bad = false;
    if (r->at >= r->end) {
        return false;
    }
    uint64_t key = 0;
    if (!wire_get_varint(r, &key) || key >> 3 > 0xFFFFU) {
        *bad = true;
        return false;
    }
    field->tag = (unsigned)(key >> 3);
    field->type = (enum wire_type)(key & 7U);
    field->bytes = NULL;
    field->size = 0;
    field->value = 0;
    switch (field->type) {
    case WIRE_VARINT:
        *bad = !wire_get_varint(r, &field->value);
        break;
    case WIRE_F64:
        if (r->end - r->at < 8) {
            *bad = true;
            break;
        }
        for (size_t i = 0; i < 8; i++) {
            field->value |= (uint64_t)r->at[i] << (8 * i);
        }
        r->at += 8;
        break;
    case WIRE_BYTES: {
        uint64_t size = 0;
        if (!wire_get_varint(r, &size) || size > (uint64_t)(r->end - r->at)) {
            *bad = true;
            break;
        }
        field->bytes = r->at;
        field->size = (size_t)size;
        r->at += size;
        break;
    }
    default:
        *bad = true; /* an unknown wire type cannot be skipped */
        break;
    }
    return !*bad;
}

int64_t wire_zigzag_decode(uint64_t value) {
    return (int64_t)(value >> 1) ^ -(int64_t)(value & 1U);
}

double wire_as_double(uint64_t bits) {
    double value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}
