/*
 * Bounded string copies that always terminate and report truncation, in the manner of BSD
 * strlcpy/strlcat.  All functions are pure and thread-safe.
 */
#ifndef NVITOP_SRC_UTIL_TEXT_STR_H
#define NVITOP_SRC_UTIL_TEXT_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copy src into dst (size bytes including the NUL; size 0 writes nothing).  Returns strlen(src),
 * so a result >= size means the copy was truncated. */
size_t str_copy(char *dst, size_t size, const char *src);

/* Append src to the string in dst.  Returns the length the full result needs (like strlcat). */
size_t str_append(char *dst, size_t size, const char *src);

/* value in decimal, as snprintf's "%" PRIu64 writes it without the cost of parsing a format (the
 * monitor formats a few hundred numbers a frame).  Returns the length of the full text. */
size_t str_u64(char *dst, size_t size, uint64_t value);

/* snprintf() for formats whose conversions are all strings: "%s", "%-12s", "%*s" (an int width
 * argument before the string, negative for left alignment) and "%%".  Widths count bytes, as
 * printf's do; precisions and other conversions are not supported (the caller's formats are
 * constants).  About ten times cheaper than snprintf for the monitor's table rows.  Returns the
 * length of the full text. */
size_t str_format_s(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* True when text starts with prefix / ends with suffix. */
bool str_starts_with(const char *text, const char *prefix);
bool str_ends_with(const char *text, const char *suffix);

/* Duplicate at most len bytes of text into a fresh NUL-terminated allocation (free() it), or
 * NULL when out of memory. */
char *str_dup_n(const char *text, size_t len);

#endif /* NVITOP_SRC_UTIL_TEXT_STR_H */
