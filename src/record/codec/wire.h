/*
 * The recording's tag-length-value encoding (docs/recording.md, "Frames"): every value is a key
 * (tag << 3 | wire type) followed by a varint, an 8-byte little-endian double or a length-prefixed
 * byte string (a string or a nested message).  A reader skips any tag it does not know, which is
 * what lets a newer nvitop read older files and an older one read newer minor versions.
 * Pure functions over caller-owned buffers; thread-safe.
 */
#ifndef NVITOP_SRC_RECORD_CODEC_WIRE_H
#define NVITOP_SRC_RECORD_CODEC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/text/strbuf.h"

enum wire_type {
    WIRE_VARINT = 0,
    WIRE_F64 = 1,
    WIRE_BYTES = 2
};

void wire_put_varint(struct strbuf *out, uint64_t value);
void wire_put_key(struct strbuf *out, unsigned tag, enum wire_type type);
void wire_put_uint(struct strbuf *out, unsigned tag, uint64_t value);
void wire_put_sint(struct strbuf *out, unsigned tag, int64_t value); /* zigzag */
void wire_put_double(struct strbuf *out, unsigned tag, double value);
void wire_put_bytes(struct strbuf *out, unsigned tag, const void *data, size_t size);
void wire_put_string(struct strbuf *out, unsigned tag, const char *text); /* NULL as "" */

/* A bounded reader.  Every read fails (returns false) rather than reading past the end. */
struct wire_reader {
    const unsigned char *at;
    const unsigned char *end;
};

bool wire_get_varint(struct wire_reader *r, uint64_t *out);
/* Next field: its tag, type and value (a varint in *value, a double's bits in *value, or a byte
 * string in bytes and size).  False at the end or on malformed input (see wire_reader_bad). */
struct wire_field {
    unsigned tag;
    enum wire_type type;
    uint64_t value;
    const unsigned char *bytes;
    size_t size;
};
bool wire_next(struct wire_reader *r, struct wire_field *field, bool *bad);

int64_t wire_zigzag_decode(uint64_t value);
double wire_as_double(uint64_t bits);

#endif /* NVITOP_SRC_RECORD_CODEC_WIRE_H */
