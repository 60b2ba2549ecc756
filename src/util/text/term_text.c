/* Text from outside, made safe for a terminal (term_text.h). */
#include "util/text/term_text.h"

#include <string.h>

#include "util/text/utf8.h"

bool term_cp_printable(uint32_t cp) {
    return cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F) && cp != UTF8_INVALID;
}

bool term_text_safe(const char *text, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7F) {
            i++; /* the common case: printable ASCII */
            continue;
        }
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (!term_cp_printable(cp)) {
            return false;
        }
        i += n;
    }
    return true;
}

size_t term_text_clean(const char *text, size_t len, char *out) {
    size_t i = 0;
    size_t o = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (term_cp_printable(cp)) {
            memcpy(out + o, text + i, n);
            o += n;
        } else {
            out[o++] = TERM_TEXT_REPLACEMENT;
        }
        i += n;
    }
    out[o] = '\0';
    return o;
}

void term_text_clean_in_place(char *text) {
    /* The output never runs ahead of the input, so a forward copy within the buffer is safe. */
    size_t len = strlen(text);
    size_t i = 0;
    size_t o = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (term_cp_printable(cp)) {
            memmove(text + o, text + i, n);
            o += n;
        } else {
            text[o++] = TERM_TEXT_REPLACEMENT;
        }
        i += n;
    }
    text[o] = '\0';
}
