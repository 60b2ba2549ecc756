/*
 * One rule for text from outside our code that reaches a terminal: process command lines and
 * names, user names, other nodes' labels, reasons from libraries.  Such text may hold escape
 * sequences (ESC ] 0 ; title BEL retitles a terminal, ESC [ 2 J clears it) or bytes that are not
 * UTF-8.  Every control character (C0, DEL, C1) and every byte of invalid UTF-8 is shown as one
 * '?', which takes the one cell the original took in utf8_width()'s count, so a text cleaned
 * after its columns were laid out keeps them.  Pure and thread-safe.
 */
#ifndef NVITOP_SRC_UTIL_TEXT_TERM_TEXT_H
#define NVITOP_SRC_UTIL_TEXT_TERM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TERM_TEXT_REPLACEMENT '?'

/* How many bytes from text on (at most len) are printable ASCII (0x20 to 0x7E): the bulk of every
 * text a screen shows, scanned eight bytes at a time. */
size_t term_ascii_run(const char *text, size_t len);

/* Whether a code point from utf8_decode() (UTF8_INVALID included) may be written as is. */
bool term_cp_printable(uint32_t cp);

/* Whether text (len bytes) may be written to a terminal as is. */
bool term_text_safe(const char *text, size_t len);

/* text (len bytes) with each control character and invalid byte replaced by '?', into out (room
 * for len + 1 bytes; it may not overlap text), NUL-terminated.  Returns the length written (at
 * most len). */
size_t term_text_clean(const char *text, size_t len, char *out);

/* term_text_clean() of a NUL-terminated string in place. */
void term_text_clean_in_place(char *text);

#endif /* NVITOP_SRC_UTIL_TEXT_TERM_TEXT_H */
