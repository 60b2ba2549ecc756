/*
 * Strict number parsing: the whole text must be the number (no leading or trailing blanks, no
 * sign on unsigned values, no empty strings), and values out of range are reported, not clamped.
 * Each function returns 0, EINVAL for malformed text or ERANGE for an out-of-range value, and
 * writes *out only on success.  Pure and thread-safe.
 */
#ifndef NVITOP_SRC_UTIL_TEXT_PARSE_H
#define NVITOP_SRC_UTIL_TEXT_PARSE_H

#include <stdint.h>

/* Unsigned decimal (base 10) or any base strtoull() accepts (base 0 allows 0x.. and 0..). */
int parse_u64(const char *text, int base, uint64_t *out);
int parse_u32(const char *text, int base, uint32_t *out);

/* Signed decimal within [min, max]. */
int parse_i64(const char *text, int64_t min, int64_t max, int64_t *out);

/* A finite decimal floating-point number (strtod syntax, but no "inf"/"nan", no hex floats). */
int parse_double(const char *text, double *out);

/*
 * Scan one unsigned decimal field at *cursor for space-separated files like /proc/<pid>/stat:
 * skips blanks (space, tab), reads digits, stops at the first non-digit and moves *cursor past
 * them.  Returns EINVAL when no digit follows the blanks, ERANGE on overflow.
 */
int parse_u64_field(const char **cursor, uint64_t *out);

/* Same for an optionally negative decimal (/proc/<pid>/stat has signed fields). */
int parse_i64_field(const char **cursor, int64_t *out);

/* Skip blanks, then skip one field of non-blank characters.  Returns EINVAL at end of line. */
int parse_skip_field(const char **cursor);

#endif /* NVITOP_SRC_UTIL_TEXT_PARSE_H */
