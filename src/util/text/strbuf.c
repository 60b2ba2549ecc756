#include "util/text/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_fini(struct strbuf *sb) {
    free(sb->data);
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
}

void strbuf_clear(struct strbuf *sb) {
    sb->len = 0;
    if (sb->data != NULL) {
        sb->data[0] = '\0';
    }
}

bool strbuf_reserve(struct strbuf *sb, size_t extra) {
    if (extra > SIZE_MAX - sb->len - 1) {
        return false;
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap) {
        return true;
    }
    size_t cap = sb->cap < 64 ? 64 : sb->cap;
    while (cap < need) {
        /* Doubling keeps appends amortised O(1); fall back to the exact size near the limit. */
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    }
    char *data = realloc(sb->data, cap);
    if (data == NULL) {
        return false;
    }
    if (sb->data == NULL) {
        data[0] = '\0';
    }
    sb->data = data;
    sb->cap = cap;
    return true;
}

bool strbuf_append(struct strbuf *sb, const char *data, size_t len) {
    if (!strbuf_reserve(sb, len)) {
        return false;
    }
    if (len > 0) {
        memcpy(sb->data + sb->len, data, len);
    }
    sb->len += len;
    sb->data[sb->len] = '\0';
    return true;
}

bool strbuf_append_char(struct strbuf *sb, char c) {
    return strbuf_append(sb, &c, 1);
}

bool strbuf_append_str(struct strbuf *sb, const char *text) {
    return strbuf_append(sb, text, strlen(text));
}

bool strbuf_vappendf(struct strbuf *sb, const char *fmt, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    int need = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (need < 0 || !strbuf_reserve(sb, (size_t)need)) {
        return false;
    }
    vsnprintf(sb->data + sb->len, (size_t)need + 1, fmt, ap);
    sb->len += (size_t)need;
    return true;
}

bool strbuf_appendf(struct strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    bool ok = strbuf_vappendf(sb, fmt, ap);
    va_end(ap);
    return ok;
}

const char *strbuf_cstr(const struct strbuf *sb) {
    return sb->data != NULL ? sb->data : "";
}

char *strbuf_detach(struct strbuf *sb) {
    char *data = sb->data;
    if (data == NULL) {
        data = calloc(1, 1);
    }
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
    return data;
}
