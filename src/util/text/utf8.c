#include "util/text/utf8.h"

#include <stdbool.h>

#include "util/array.h"
#include "util/text/utf8_tables.h"

static bool is_continuation(unsigned char byte) {
    return (byte & 0xC0) == 0x80;
}

size_t utf8_decode(const char *text, size_t len, uint32_t *cp) {
    const unsigned char *s = (const unsigned char *)text;
    unsigned char lead = s[0];
    size_t need;
    uint32_t value;
    uint32_t min;
    if (lead < 0x80) {
        *cp = lead;
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        need = 2;
        value = lead & 0x1F;
        min = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        need = 3;
        value = lead & 0x0F;
        min = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        need = 4;
        value = lead & 0x07;
        min = 0x10000;
    } else {
        *cp = UTF8_INVALID;
        return 1;
    }
    if (len < need) {
        *cp = UTF8_INVALID;
        return 1;
    }
    for (size_t i = 1; i < need; i++) {
        if (!is_continuation(s[i])) {
            *cp = UTF8_INVALID;
            return 1;
        }
        value = (value << 6) | (s[i] & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        *cp = UTF8_INVALID;
        return 1;
    }
    *cp = value;
    return need;
}

static bool in_table(uint32_t cp, const struct cp_range *table, size_t count) {
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < table[mid].first) {
            hi = mid;
        } else if (cp > table[mid].last) {
            lo = mid + 1;
        } else {
            return true;
        }
    }
    return false;
}

unsigned utf8_cp_width(uint32_t cp) {
    if (cp < 0x300) {
        /* Nothing below the combining diacritics is wide or zero-width (U+00AD stays 1). */
        return 1;
    }
    if ((cp >= 0x2500 && cp <= 0x259F) || (cp >= 0x2800 && cp <= 0x28FF)) {
        /* Box drawing, block elements and Braille, the bulk of every frame: all narrow. */
        return 1;
    }
    if (cp == UTF8_INVALID) {
        return 1;
    }
    if (in_table(cp, utf8_zero_width_ranges, ARRAY_SIZE(utf8_zero_width_ranges))) {
        return 0;
    }
    if (in_table(cp, utf8_wide_ranges, ARRAY_SIZE(utf8_wide_ranges))) {
        return 2;
    }
    return 1;
}

size_t utf8_width(const char *text, size_t len) {
    size_t cells = 0;
    size_t i = 0;
    while (i < len) {
        if ((unsigned char)text[i] < 0x80) {
            /* ASCII: one cell per byte (control characters included, as utf8_cp_width says). */
            cells++;
            i++;
            continue;
        }
        uint32_t cp = 0;
        i += utf8_decode(text + i, len - i, &cp);
        cells += utf8_cp_width(cp);
    }
    return cells;
}

size_t utf8_fit(const char *text, size_t len, size_t max_cells, size_t *cells) {
    size_t used = 0;
    size_t i = 0;
    while (i < len) {
        if ((unsigned char)text[i] < 0x80) {
            /* ASCII, most of every row: one cell per byte, as utf8_width() counts it. */
            if (used + 1 > max_cells) {
                break;
            }
            used++;
            i++;
            continue;
        }
        uint32_t cp = 0;
        size_t n = utf8_decode(text + i, len - i, &cp);
        unsigned w = utf8_cp_width(cp);
        if (used + w > max_cells) {
            break;
        }
        used += w;
        i += n;
    }
    if (cells != NULL) {
        *cells = used;
    }
    return i;
}
