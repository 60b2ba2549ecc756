/*
 * printf and strtod in the "C" numeric locale whatever the caller's (format_internal.h), with
 * POSIX's per-thread locales; format_c_locale_windows.c is the Windows build's.
 */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "format_internal.h"

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
