#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"

void format_out_init(struct format_out *out, char *buf, size_t size) {
    out->buf = buf;
    out->size = buf != NULL ? size : 0;
    out->len = 0;
    if (out->size > 0) {
        out->buf[0] = '\0';
    }
}

void format_out_put(struct format_out *out, const char *text, size_t len) {
    if (out->size > 0 && out->len < out->size - 1) {
        size_t room = out->size - 1 - out->len;
        size_t n = len < room ? len : room;
        memcpy(out->buf + out->len, text, n);
        out->buf[out->len + n] = '\0';
    }
    out->len += len;
}

void format_out_puts(struct format_out *out, const char *text) {
    format_out_put(out, text, strlen(text));
}

/*
 * The "C" locale object.  glibc hands out its static C locale for this request without
 * allocating, so the call is cheap; should it ever fail we fall back to the current locale rather
 * than fail the formatting.
 */
static locale_t c_locale(void) {
    return newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

int format_c_snprintf(char *buf, size_t size, const char *fmt, ...) {
    locale_t c = c_locale();
    locale_t previous = c != (locale_t)0 ? uselocale(c) : (locale_t)0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (c != (locale_t)0) {
        uselocale(previous);
        freelocale(c);
    }
    return n;
}

double format_c_strtod(const char *text, char **end) {
    locale_t c = c_locale();
    if (c == (locale_t)0) {
        return strtod(text, end);
    }
    double value = strtod_l(text, end, c);
    freelocale(c);
    return value;
}
