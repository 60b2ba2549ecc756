/*
 * A minimal streaming JSON writer: objects, arrays, keys, strings (escaped; invalid UTF-8 becomes
 * U+FFFD), integers, finite doubles and null.  Commas and two-space indentation are handled
 * here (none with compact set after json_init()).  Appends to a strbuf; out-of-memory leaves the
 * buffer short (checked by the caller).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_WRITER_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/text/strbuf.h"

struct json_writer {
    struct strbuf *out;
    unsigned depth;
    bool need_comma;
    bool after_key;
    bool ok;      /* false once an append failed */
    bool compact; /* one line (JSON Lines): no newlines or indentation inside the document */
};

void json_init(struct json_writer *w, struct strbuf *out);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *value); /* NULL writes null */
void json_u64(struct json_writer *w, uint64_t value);
void json_i64(struct json_writer *w, int64_t value);
void json_double(struct json_writer *w, double value); /* NaN and infinities write null */
void json_bool(struct json_writer *w, bool value);
void json_null(struct json_writer *w);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_WRITER_H */
