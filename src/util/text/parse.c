#include "util/text/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *text, int base, uint64_t *out) {
    /* strtoull accepts leading blanks and a minus sign (wrapping the value); reject both. */
    if (text == NULL || !isalnum((unsigned char)text[0])) {
        return EINVAL;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, base);
    if (end == text || *end != '\0') {
        return EINVAL;
    }
    if (errno == ERANGE || value > UINT64_MAX) {
        return ERANGE;
    }
    *out = (uint64_t)value;
    return 0;
}

int parse_u32(const char *text, int base, uint32_t *out) {
    uint64_t value = 0;
    int err = parse_u64(text, base, &value);
    if (err != 0) {
        return err;
    }
    if (value > UINT32_MAX) {
        return ERANGE;
    }
    *out = (uint32_t)value;
    return 0;
}

int parse_i64(const char *text, int64_t min, int64_t max, int64_t *out) {
    if (text == NULL || (text[0] != '-' && text[0] != '+' && !isdigit((unsigned char)text[0]))) {
        return EINVAL;
    }
    if ((text[0] == '-' || text[0] == '+') && !isdigit((unsigned char)text[1])) {
        return EINVAL;
    }
    errno = 0;
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (end == text || *end != '\0') {
        return EINVAL;
    }
    if (errno == ERANGE || value < min || value > max) {
        return ERANGE;
    }
    *out = (int64_t)value;
    return 0;
}

int parse_double(const char *text, double *out) {
    if (text == NULL || text[0] == '\0' || isspace((unsigned char)text[0])) {
        return EINVAL;
    }
    /* strtod would also take "inf", "nan" and hexadecimal floats, which are never meant here. */
    for (const char *p = text; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p) && strchr("+-.eE", *p) == NULL) {
            return EINVAL;
        }
    }
    errno = 0;
    char *end = NULL;
    double value = strtod(text, &end);
    if (end == text || *end != '\0') {
        return EINVAL;
    }
    if (errno == ERANGE && (isinf(value) || fabs(value) > 1.0)) {
        return ERANGE;
    }
    /* An underflow to a denormal or zero is still the closest double: accept it. */
    *out = value;
    return 0;
}

static const char *skip_blanks(const char *p) {
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    return p;
}

/* The value of an ASCII digit, or 10 and above for anything else (isdigit() without the locale's
 * table: this runs for every number of every /proc/<pid>/stat). */
static unsigned digit_value(char c) {
    return (unsigned)(unsigned char)c - (unsigned)'0';
}

/* Nineteen decimal digits always fit in 64 bits; only longer numbers are checked for overflow. */
#define U64_SAFE_DIGITS 19

int parse_u64_field(const char **cursor, uint64_t *out) {
    const char *p = skip_blanks(*cursor);
    if (digit_value(*p) > 9) {
        return EINVAL;
    }
    const char *start = p;
    uint64_t value = 0;
    for (unsigned digit = digit_value(*p); digit <= 9; digit = digit_value(*++p)) {
        if (p - start >= U64_SAFE_DIGITS && value > (UINT64_MAX - digit) / 10) {
            return ERANGE;
        }
        value = value * 10 + digit;
    }
    *out = value;
    *cursor = p;
    return 0;
}

int parse_i64_field(const char **cursor, int64_t *out) {
    const char *p = skip_blanks(*cursor);
    bool negative = *p == '-';
    if (negative) {
        p++;
    }
    uint64_t magnitude = 0;
    int err = parse_u64_field(&p, &magnitude);
    if (err != 0) {
        return err;
    }
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (magnitude > limit) {
        return ERANGE;
    }
    if (negative) {
        *out = magnitude == limit ? INT64_MIN : -(int64_t)magnitude;
    } else {
        *out = (int64_t)magnitude;
    }
    *cursor = p;
    return 0;
}

int parse_skip_field(const char **cursor) {
    const char *p = skip_blanks(*cursor);
    if (*p == '\0' || *p == '\n') {
        return EINVAL;
    }
    while (*p != '\0' && *p != '\n' && *p != ' ' && *p != '\t') {
        p++;
    }
    *cursor = p;
    return 0;
}
