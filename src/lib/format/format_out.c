#include <stdio.h>
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
