/*
 * Field tables: which member of a public struct each tag of a recorded message holds.  Tags are
 * never reused or renumbered (docs/recording.md); a new member gets a new tag.  The encoder
 * writes every field of a table, the decoder fills every field with its N/A value first, so a
 * field an older file lacks reads as N/A.  Thread-safe (constant tables).
 */
#ifndef NVITOP_SRC_RECORD_CODEC_FIELDS_H
#define NVITOP_SRC_RECORD_CODEC_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "record/codec/wire.h"

enum field_kind {
    FIELD_U32,    /* N/A: NVT_NA_U32 */
    FIELD_U64,    /* N/A: NVT_NA_U64 */
    FIELD_I32,    /* int32_t, N/A: NVT_NA_I32 */
    FIELD_INT,    /* an int-sized enum or status, N/A: -1 (NVT_FEATURE_NA, NVT_COMPUTE_MODE_NA) */
    FIELD_STATUS, /* nvt_status / enum nvt_host_status, default 0 */
    FIELD_BOOL,
    FIELD_CHAR,
    FIELD_SIZE,    /* size_t, N/A: NVT_NA_SIZE */
    FIELD_DOUBLE,  /* N/A: NaN */
    FIELD_ELAPSED, /* a double, now - the double at ref (running time since create time) */
    FIELD_TEXT,    /* char[size] */
    FIELD_DOUBLES  /* double[size / sizeof(double)], packed */
};

struct field {
    uint16_t tag;
    uint16_t kind;
    uint32_t size; /* bytes of the member */
    size_t offset;
    size_t ref; /* FIELD_ELAPSED: offset of the start time it counts from */
};

struct field_table {
    const struct field *fields;
    size_t count;
};

extern const struct field_table fields_system;
extern const struct field_table fields_device_info;
extern const struct field_table fields_device_state;
extern const struct field_table fields_gpu_process;
extern const struct field_table fields_host_process;
extern const struct field_table fields_host_state;

/* Append every field of the table from the struct at base. */
void fields_encode(struct strbuf *out, const struct field_table *table, const void *base);
/* Set every field of the table to its N/A value. */
void fields_default(const struct field_table *table, void *base);
/* Store one field if the table knows its tag and type; returns false when it does not (the caller
 * may know it, or skips it). */
bool fields_decode(const struct field_table *table, void *base, const struct wire_field *field);

/*
 * Patch columns (format 2, docs/recording.md "Patches"): one field of a table over the rows of a
 * list, written only for the rows whose value changed since the previous frame.
 * fields_column_encode() appends one column (wire type 2, the field's tag) per field that changed
 * in some row of cur, and copies the changed values into prev (prev then equals cur for the
 * table's fields); it returns the number of columns.  time is the frame's time.
 * fields_column_decode() applies one column to the rows (holding the previous frame's values);
 * false for a malformed column (an unknown tag is skipped: true).
 */
size_t fields_column_encode(struct strbuf *out, const struct field_table *table, void *prev,
                            size_t prev_stride, const void *cur, size_t cur_stride, size_t rows,
                            double time);
bool fields_column_decode(const struct field_table *table, void *rows_base, size_t stride,
                          size_t rows, const struct wire_field *column, double time);

/* One double as a patch varint (a decimal's scaled delta, see fields_patch.c); false when only
 * the whole double gives cur back.  fields_double_apply() is the inverse. */
bool fields_double_delta(double prev, double cur, uint64_t *out);
double fields_double_apply(double prev, uint64_t value);

#endif /* NVITOP_SRC_RECORD_CODEC_FIELDS_H */
