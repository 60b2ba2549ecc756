/*
 * A growable, always NUL-terminated string buffer.  Appending never truncates silently: on an
 * allocation failure the buffer keeps its previous contents and the call returns false.
 */
#ifndef NVITOP_SRC_UTIL_TEXT_STRBUF_H
#define NVITOP_SRC_UTIL_TEXT_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
    char *data; /* NULL until the first append; strbuf_cstr() never returns NULL */
    size_t len;
    size_t cap;
};

#define STRBUF_INIT                                                                                \
    { NULL, 0, 0 }

/* Release the memory and reset to the empty state.  Accepts a zero-initialised buffer. */
void strbuf_fini(struct strbuf *sb);

/* Forget the contents but keep the allocation. */
void strbuf_clear(struct strbuf *sb);

/* Make room for at least extra more bytes plus the NUL.  Returns false when out of memory. */
bool strbuf_reserve(struct strbuf *sb, size_t extra);

/* Append len bytes (which may contain NULs), one character, a C string, or formatted text.  Each
 * returns false (buffer unchanged) when out of memory. */
bool strbuf_append(struct strbuf *sb, const char *data, size_t len);
bool strbuf_append_char(struct strbuf *sb, char c);
bool strbuf_append_str(struct strbuf *sb, const char *text);
bool strbuf_appendf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool strbuf_vappendf(struct strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* The contents as a C string; "" for an empty buffer.  Valid until the next change. */
const char *strbuf_cstr(const struct strbuf *sb);

/* Hand the allocation to the caller (free() it) and reset the buffer.  Returns NULL only when out
 * of memory (an empty buffer without an allocation gets a fresh "" allocation). */
char *strbuf_detach(struct strbuf *sb);

#endif /* NVITOP_SRC_UTIL_TEXT_STRBUF_H */
