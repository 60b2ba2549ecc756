#include "util/text/str.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t str_copy(char *dst, size_t size, const char *src) {
    size_t len = strlen(src);
    if (size == 0) {
        return len;
    }
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return len;
}

size_t str_u64(char *dst, size_t size, uint64_t value) {
    char digits[20]; /* UINT64_MAX has 20 */
    size_t n = 0;
    do {
        digits[sizeof(digits) - 1 - n] = (char)('0' + value % 10);
        value /= 10;
        n++;
    } while (value != 0);
    if (size > 0) {
        size_t keep = n < size - 1 ? n : size - 1;
        memcpy(dst, digits + sizeof(digits) - n, keep);
        dst[keep] = '\0';
    }
    return n;
}

/* Append len bytes of text at out[*pos], within size (keeping room for the NUL); *pos counts them
 * all. */
static void put_bytes(char *dst, size_t size, size_t *pos, const char *text, size_t len) {
    if (*pos + 1 < size) {
        size_t room = size - 1 - *pos;
        memcpy(dst + *pos, text, len < room ? len : room);
    }
    *pos += len;
}

static void put_blanks(char *dst, size_t size, size_t *pos, size_t count) {
    static const char blanks[] = "                                ";
    while (count > 0) {
        size_t n = count < sizeof(blanks) - 1 ? count : sizeof(blanks) - 1;
        put_bytes(dst, size, pos, blanks, n);
        count -= n;
    }
}

size_t str_format_s(char *dst, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t pos = 0;
    const char *p = fmt;
    while (*p != '\0') {
        const char *percent = strchr(p, '%');
        size_t literal = percent == NULL ? strlen(p) : (size_t)(percent - p);
        put_bytes(dst, size, &pos, p, literal);
        if (percent == NULL) {
            break;
        }
        p = percent + 1;
        if (*p == '%') {
            put_bytes(dst, size, &pos, "%", 1);
            p++;
            continue;
        }
        bool left = false;
        long width = 0;
        if (*p == '-') {
            left = true;
            p++;
        }
        if (*p == '*') {
            width = va_arg(ap, int);
            p++;
        } else {
            while (*p >= '0' && *p <= '9') {
                width = width * 10 + (*p - '0');
                p++;
            }
        }
        if (width < 0) {
            left = true;
            width = -width;
        }
        if (*p == 's') {
            p++;
        }
        const char *text = va_arg(ap, const char *);
        size_t len = strlen(text);
        size_t pad = (size_t)width > len ? (size_t)width - len : 0;
        if (!left) {
            put_blanks(dst, size, &pos, pad);
        }
        put_bytes(dst, size, &pos, text, len);
        if (left) {
            put_blanks(dst, size, &pos, pad);
        }
    }
    va_end(ap);
    if (size > 0) {
        dst[pos < size ? pos : size - 1] = '\0';
    }
    return pos;
}

size_t str_append(char *dst, size_t size, const char *src) {
    size_t used = strnlen(dst, size);
    if (used == size) {
        /* dst is not terminated within size: nothing can be appended safely. */
        return size + strlen(src);
    }
    return used + str_copy(dst + used, size - used, src);
}

bool str_starts_with(const char *text, const char *prefix) {
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

bool str_ends_with(const char *text, const char *suffix) {
    size_t len = strlen(text);
    size_t suffix_len = strlen(suffix);
    return suffix_len <= len && memcmp(text + len - suffix_len, suffix, suffix_len) == 0;
}

char *str_dup_n(const char *text, size_t len) {
    if (len == SIZE_MAX) {
        return NULL;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return NULL;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}
