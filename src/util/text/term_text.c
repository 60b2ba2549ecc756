/* Text from outside, made safe for a terminal (term_text.h). */
#include "util/text/term_text.h"

#include <string.h>

#include "util/text/utf8.h"

bool term_cp_printable(uint32_t cp) {
    return cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp <= 0x9F) && cp != UTF8_INVALID;
}

/* A well-formed three-byte sequence at s (len bytes left): U+0800 to U+FFFF without surrogates,
 * all printable.  Box rules, blocks and Braille, the bulk of a frame after ASCII, take this path
 * rather than the general decoder. */
static bool three_byte_ok(const unsigned char *s, size_t len) {
    if (len < 3 || s[0] < 0xE0 || s[0] > 0xEF || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) {
        return false;
    }
    /* E0 80-9F would be overlong, ED A0-BF a surrogate. */
    return (s[0] != 0xE0 || s[1] >= 0xA0) && (s[0] != 0xED || s[1] < 0xA0);
}

/* Each byte of a word with its top bit set where that byte is below 0x20 or above 0x7E (and
 * perhaps in a byte above such a one, through a borrow or carry: a word with a flag set is then
 * looked at byte by byte, so a false flag only costs time). */
#define ONES  0x0101010101010101u
#define HIGHS 0x8080808080808080u

size_t term_ascii_run(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (len - i >= sizeof(uint64_t)) {
        uint64_t w;
        memcpy(&w, s + i, sizeof(w));
        /* b - 0x20 borrows below 0x20, b + 1 reaches 0x80 from 0x7F, and b has it from 0x80. */
        if (((w - 0x20 * ONES) | (w + ONES) | w) & HIGHS) {
            break;
        }
        i += sizeof(w);
    }
    while (i < len && s[i] >= 0x20 && s[i] < 0x7F) {
        i++;
    }
    return i;
}

bool term_text_safe(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7F) {
            i += term_ascii_run(text + i, len - i); /* the common case: printable ASCII */
            continue;
        }
        if (three_byte_ok(s + i, len - i)) {
            i += 3;
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
