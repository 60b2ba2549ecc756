#include "util/str.h"

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
