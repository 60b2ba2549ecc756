/*
 * Short UUID prefixes in CUDA_VISIBLE_DEVICES (uuid_prefix.h).  Only the length is judged here;
 * whether a long enough prefix names exactly one device is the library's business
 * (nvt_cuda_visible_devices).
 */
#include "uuid_prefix.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool starts_with(const char *text, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return len >= n && strncmp(text, prefix, n) == 0;
}

/* Length of the "MIG-GPU-", "GPU-" or "MIG-" an entry starts with, 0 for an index or other. */
static size_t kind_length(const char *text, size_t len) {
    if (starts_with(text, len, "MIG-GPU-")) {
        return 8;
    }
    if (starts_with(text, len, "GPU-") || starts_with(text, len, "MIG-")) {
        return 4;
    }
    return 0;
}

/* Hex digits of a UUID-like body (up to '/' or its end), or SIZE_MAX when it holds anything
 * else, which makes it not a prefix at all (the library rejects it as malformed). */
static size_t hex_digits(const char *body, size_t len) {
    size_t digits = 0;
    for (size_t i = 0; i < len && body[i] != '/'; i++) {
        if (isxdigit((unsigned char)body[i])) {
            digits++;
        } else if (body[i] != '-') {
            return (size_t)-1;
        }
    }
    return digits;
}

bool nvisel_check_uuid_prefixes(const char *value, const char *where, char *message, size_t size) {
    const char *cursor = value;
    while (cursor != NULL) {
        const char *comma = strchr(cursor, ',');
        size_t len = comma != NULL ? (size_t)(comma - cursor) : strlen(cursor);
        while (len > 0 && isspace((unsigned char)*cursor)) {
            cursor++;
            len--;
        }
        while (len > 0 && isspace((unsigned char)cursor[len - 1])) {
            len--;
        }
        size_t skip = kind_length(cursor, len);
        if (skip > 0 && hex_digits(cursor + skip, len - skip) < NVISEL_UUID_PREFIX_MIN) {
            snprintf(message, size,
                     "'%.*s' in %s is too short a UUID prefix: give at least %d hex digits after "
                     "'%.*s', or the full UUID",
                     (int)len, cursor, where, NVISEL_UUID_PREFIX_MIN, (int)skip, cursor);
            return false;
        }
        cursor = comma != NULL ? comma + 1 : NULL;
    }
    return true;
}
