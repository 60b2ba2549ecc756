/*
 * UTF-8 decoding and terminal cell widths.  Invalid or truncated sequences, overlong forms,
 * surrogates and code points above U+10FFFF decode as one byte each, so every byte string can be
 * walked.  Pure and thread-safe.
 */
#ifndef NVITOP_SRC_UTIL_TEXT_UTF8_H
#define NVITOP_SRC_UTIL_TEXT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Marks an invalid byte in utf8_decode()'s output. */
#define UTF8_INVALID UINT32_MAX

/*
 * Decode the character at text (len > 0 bytes available).  Writes the code point, or UTF8_INVALID
 * for an invalid byte, to *cp and returns the number of bytes consumed (1 to 4).
 */
size_t utf8_decode(const char *text, size_t len, uint32_t *cp);

/* Cells a code point takes: 2 for East-Asian wide and fullwidth, 0 for combining marks and
 * format characters, 1 otherwise (also for UTF8_INVALID, which terminals show as one cell). */
unsigned utf8_cp_width(uint32_t cp);

/* Sum of the cell widths of the first len bytes of text. */
size_t utf8_width(const char *text, size_t len);

/* Number of bytes of text (len bytes) that fit into max_cells cells without cutting a character;
 * *cells (may be NULL) receives their width. */
size_t utf8_fit(const char *text, size_t len, size_t max_cells, size_t *cells);

#endif /* NVITOP_SRC_UTIL_TEXT_UTF8_H */
