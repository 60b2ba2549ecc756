/* bytes2human and human2bytes with nvitop 1.7's rules. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <nvitop/format.h>

#include "format_internal.h"

static size_t put_text(char *buf, size_t size, const char *text) {
    struct format_out out;
    format_out_init(&out, buf, size);
    format_out_puts(&out, text);
    return out.len;
}

/* "{round(b / unit, digits):.{digits}f}{suffix}". */
static size_t put_scaled(char *buf, size_t size, uint64_t bytes, uint64_t unit, int digits,
                         const char *suffix) {
    /* Dividing by a power of two is exact, so this is Python's correctly rounded b / unit. */
    double scaled = (double)bytes / (double)unit;
    double rounded = nvt_round_half_even_digits(scaled, digits);
    char text[64];
    size_t len = nvt_format_fixed(text, sizeof(text), rounded, digits);
    if (len >= sizeof(text)) {
        len = sizeof(text) - 1;
    }
    struct format_out out;
    format_out_init(&out, buf, size);
    format_out_put(&out, text, len);
    format_out_puts(&out, suffix);
    return out.len;
}

size_t nvt_format_bytes(char *buf, size_t size, uint64_t bytes, uint64_t min_unit) {
    if (nvt_is_na_u64(bytes)) {
        return put_text(buf, size, "N/A");
    }
    if (bytes < NVT_KiB && min_unit < NVT_KiB) {
        char text[32];
        snprintf(text, sizeof(text), "%" PRIu64 "B", bytes);
        return put_text(buf, size, text);
    }
    if (bytes < NVT_MiB && min_unit <= NVT_KiB) {
        return put_scaled(buf, size, bytes, NVT_KiB, 0, "KiB");
    }
    if (bytes < 100 * NVT_MiB && min_unit <= NVT_MiB) {
        return put_scaled(buf, size, bytes, NVT_MiB, 2, "MiB");
    }
    if (bytes < 1000 * NVT_MiB && min_unit <= NVT_MiB) {
        return put_scaled(buf, size, bytes, NVT_MiB, 1, "MiB");
    }
    if (bytes < 20 * NVT_GiB && min_unit <= NVT_MiB) {
        return put_scaled(buf, size, bytes, NVT_MiB, 0, "MiB");
    }
    if (bytes < 100 * NVT_GiB && min_unit <= NVT_GiB) {
        return put_scaled(buf, size, bytes, NVT_GiB, 2, "GiB");
    }
    if (bytes < 1000 * NVT_GiB && min_unit <= NVT_GiB) {
        return put_scaled(buf, size, bytes, NVT_GiB, 1, "GiB");
    }
    if (bytes < 100 * NVT_TiB && min_unit <= NVT_TiB) {
        return put_scaled(buf, size, bytes, NVT_TiB, 2, "TiB");
    }
    if (bytes < 1000 * NVT_TiB && min_unit <= NVT_TiB) {
        return put_scaled(buf, size, bytes, NVT_TiB, 1, "TiB");
    }
    if (bytes < 100 * NVT_PiB) {
        return put_scaled(buf, size, bytes, NVT_PiB, 2, "PiB");
    }
    return put_scaled(buf, size, bytes, NVT_PiB, 1, "PiB");
}

/* Python's \s for ASCII text. */
static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static const char *skip_spaces(const char *p) {
    while (is_space(*p)) {
        p++;
    }
    return p;
}

static const char *skip_digits(const char *p) {
    while (isdigit((unsigned char)*p)) {
        p++;
    }
    return p;
}

/* Multiplier of a unit prefix letter (K, M, G, T, P; any case), 0 for anything else. */
static double unit_multiplier(char letter, bool binary) {
    static const char letters[] = "KMGTP";
    const char *hit = strchr(letters, toupper((unsigned char)letter));
    if (letter == '\0' || hit == NULL) {
        return 0.0;
    }
    double multiplier = 1.0;
    for (const char *p = letters; p <= hit; p++) {
        multiplier *= binary ? 1024.0 : 1000.0;
    }
    return multiplier;
}

/*
 * The grammar is nvitop's regular expression
 *     ^\s*\+?\s*(\d+(\.\d+)?)\s*([KMGTP]i?)?B?\s*$   (case-insensitive)
 * with ASCII digits and blanks only.  The value is int(float(number) * multiplier), as in nvitop.
 */
nvt_status nvt_parse_bytes(const char *text, uint64_t *out) {
    if (text == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    const char *p = skip_spaces(text);
    if (*p == '+') {
        p = skip_spaces(p + 1);
    }
    const char *number = p;
    p = skip_digits(p);
    if (p == number) {
        return NVT_ERR_PARSE;
    }
    if (*p == '.') {
        const char *fraction = p + 1;
        p = skip_digits(fraction);
        if (p == fraction) {
            return NVT_ERR_PARSE;
        }
    }
    const char *number_end = p;
    p = skip_spaces(p);
    double multiplier = 1.0;
    if (unit_multiplier(*p, false) != 0.0) {
        bool binary = p[1] == 'i' || p[1] == 'I';
        multiplier = unit_multiplier(*p, binary);
        p += binary ? 2 : 1;
    }
    if (*p == 'b' || *p == 'B') {
        p++;
    }
    if (*skip_spaces(p) != '\0') {
        return NVT_ERR_PARSE;
    }
    /* strtod stops exactly at number_end: what follows is a blank, a unit letter or the end. */
    char *end = NULL;
    double value = format_c_strtod(number, &end) * multiplier;
    if (end != number_end) {
        return NVT_ERR_PARSE;
    }
    if (!(value < 18446744073709551616.0)) {
        return NVT_ERR_OUT_OF_RANGE;
    }
    *out = (uint64_t)value;
    return NVT_OK;
}
