/*
 * printf and strtod in the "C" numeric locale (format_internal.h) for the Windows build: the C
 * runtime there has no uselocale(), so printf runs with this thread's numeric locale set to "C"
 * for the call (a per-thread locale, _configthreadlocale), and strtod gets the C locale object of
 * _strtod_l().
 */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"

int format_c_snprintf(char *buf, size_t size, const char *fmt, ...) {
    /* Only this thread's numeric locale changes, and only for this call. */
    int previous = _configthreadlocale(_ENABLE_PER_THREAD_LOCALE);
    const char *current = setlocale(LC_NUMERIC, NULL);
    char saved[256] = "";
    int restore = current != NULL && strcmp(current, "C") != 0 && strlen(current) < sizeof(saved);
    if (restore) {
        strcpy(saved, current);
        setlocale(LC_NUMERIC, "C");
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (restore) {
        setlocale(LC_NUMERIC, saved);
    }
    if (previous != -1) {
        _configthreadlocale(previous);
    }
    return n;
}

double format_c_strtod(const char *text, char **end) {
    _locale_t c = _create_locale(LC_NUMERIC, "C");
    if (c == NULL) {
        return strtod(text, end);
    }
    double value = _strtod_l(text, end, c);
    _free_locale(c);
    return value;
}
