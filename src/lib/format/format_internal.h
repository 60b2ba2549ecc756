/*
 * Helpers shared by the formatting sources: an snprintf-style bounded writer and
 * locale-independent number conversion (Python's float formatting ignores LC_NUMERIC, and a
 * program that calls setlocale() must still print "24.00GiB", not "24,00GiB").
 */
#ifndef NVITOP_SRC_LIB_FORMAT_FORMAT_INTERNAL_H
#define NVITOP_SRC_LIB_FORMAT_FORMAT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes into buf[size] while counting the full length, like snprintf. */
struct format_out {
    char *buf;
    size_t size;
    size_t len;
};

/* Start writing; buf may be NULL when size is 0.  Terminates buf at once when size > 0. */
void format_out_init(struct format_out *out, char *buf, size_t size);

/* Append len bytes (truncating what does not fit, always NUL-terminated). */
void format_out_put(struct format_out *out, const char *text, size_t len);

/* Append a C string. */
void format_out_puts(struct format_out *out, const char *text);

/* round(|value| * 10^digits) to the nearest integer in *n when that is certain without printing
 * (digits <= 8, no near-tie, magnitude below 2^50); false otherwise (round.c). */
bool format_scaled_integer(double value, int digits, uint64_t *n);

/* snprintf() in the "C" locale.  Returns what snprintf returns. */
int format_c_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* strtod() in the "C" locale. */
double format_c_strtod(const char *text, char **end);

#endif /* NVITOP_SRC_LIB_FORMAT_FORMAT_INTERNAL_H */
