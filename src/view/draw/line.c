/*
 * Styled lines: text plus spans.  Spans are kept in order of their start offsets and never merged,
 * because two adjacent runs coloured alike are still two escape-sequence groups in nvitop's output.
 */
#include "view/draw/line.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/text/term_text.h"
#include "util/text/utf8.h"
#include "util/xalloc.h"

void view_line_init(struct view_line *line) {
    memset(line, 0, sizeof(*line));
}

void view_line_fini(struct view_line *line) {
    if (line == NULL) {
        return;
    }
    free(line->text);
    free(line->spans);
    view_line_init(line);
}

void view_line_clear(struct view_line *line) {
    line->len = 0;
    line->span_count = 0;
    if (line->text != NULL) {
        line->text[0] = '\0';
    }
}

static void reserve_text(struct view_line *line, size_t extra) {
    size_t need = line->len + extra + 1;
    if (need <= line->cap) {
        return;
    }
    size_t cap = line->cap < 64 ? 64 : line->cap;
    while (cap < need) {
        cap *= 2;
    }
    line->text = xrealloc(line->text, cap);
    line->cap = cap;
}

static void push_span(struct view_line *line, size_t start, size_t len, struct view_style style) {
    if (line->span_count == line->span_cap) {
        size_t cap = line->span_cap < 8 ? 8 : line->span_cap * 2;
        line->spans = xrealloc(line->spans, cap * sizeof(*line->spans));
        line->span_cap = cap;
    }
    struct view_span *span = &line->spans[line->span_count++];
    span->start = start;
    span->len = len;
    span->style = style;
}

static bool style_is_plain(struct view_style style) {
    return style.color == VIEW_COLOR_DEFAULT && style.attrs == 0 && style.bg == VIEW_COLOR_DEFAULT;
}

void view_line_add_n(struct view_line *line, const char *text, size_t len,
                     struct view_style style) {
    /* Every text a line shows passes here, ours and the outside's (command lines, user and host
     * names): control characters and invalid UTF-8 never reach a terminal (term_text.h).  The
     * cleaned text takes the cells the original was measured with. */
    reserve_text(line, len);
    size_t start = line->len;
    if (term_text_safe(text, len)) {
        memcpy(line->text + line->len, text, len);
    } else {
        len = term_text_clean(text, len, line->text + line->len);
    }
    line->len += len;
    line->text[line->len] = '\0';
    if (!style_is_plain(style)) {
        push_span(line, start, len, style);
    }
}

void view_line_add(struct view_line *line, const char *text, struct view_style style) {
    view_line_add_n(line, text, strlen(text), style);
}

void view_line_add_repeat(struct view_line *line, const char *text, size_t count,
                          struct view_style style) {
    size_t unit = strlen(text);
    if (unit == 0 || count == 0) {
        return;
    }
    reserve_text(line, unit * count);
    size_t start = line->len;
    /* One copy of the unit, then the copied part doubled: rules are hundreds of units long. */
    char *base = line->text + start;
    size_t total = unit * count;
    memcpy(base, text, unit);
    for (size_t done = unit; done < total;) {
        size_t more = done < total - done ? done : total - done;
        memcpy(base + done, base, more);
        done += more;
    }
    line->len += total;
    line->text[line->len] = '\0';
    if (!style_is_plain(style)) {
        push_span(line, start, line->len - start, style);
    }
}

void view_line_add_line(struct view_line *line, const struct view_line *other) {
    size_t base = line->len;
    reserve_text(line, other->len);
    if (other->len > 0) {
        memcpy(line->text + base, other->text, other->len);
    }
    line->len += other->len;
    line->text[line->len] = '\0';
    for (size_t i = 0; i < other->span_count; i++) {
        const struct view_span *span = &other->spans[i];
        push_span(line, base + span->start, span->len, span->style);
    }
}

static void add_spaces(struct view_line *line, size_t count, struct view_style style) {
    reserve_text(line, count);
    size_t start = line->len;
    memset(line->text + start, ' ', count);
    line->len += count;
    line->text[line->len] = '\0';
    if (!style_is_plain(style)) {
        push_span(line, start, count, style);
    }
}

void view_line_add_fit(struct view_line *line, const char *text, size_t width, bool align_right,
                       struct view_style style) {
    size_t len = strlen(text);
    size_t cells = 0;
    size_t fit = utf8_fit(text, len, width, &cells);
    size_t pad = width - cells;
    size_t start = line->len;
    reserve_text(line, fit + pad);
    if (align_right) {
        memset(line->text + line->len, ' ', pad);
        line->len += pad;
    }
    memcpy(line->text + line->len, text, fit);
    line->len += fit;
    if (!align_right) {
        memset(line->text + line->len, ' ', pad);
        line->len += pad;
    }
    line->text[line->len] = '\0';
    if (!style_is_plain(style)) {
        push_span(line, start, line->len - start, style);
    }
}

size_t view_line_width(const struct view_line *line) {
    return utf8_width(line->text == NULL ? "" : line->text, line->len);
}

void view_line_pad(struct view_line *line, size_t width) {
    size_t cells = view_line_width(line);
    if (cells < width) {
        add_spaces(line, width - cells, view_style_make(VIEW_COLOR_DEFAULT, 0));
    }
}

/* Byte offset of the cell col (the end of the text when the line is narrower).  A column inside a
 * wide character maps to that character's start. */
static size_t byte_of_col(const struct view_line *line, size_t col) {
    size_t pos = 0;
    size_t cells = 0;
    while (pos < line->len) {
        uint32_t cp;
        size_t n = utf8_decode(line->text + pos, line->len - pos, &cp);
        unsigned w = utf8_cp_width(cp);
        if (cells + w > col) {
            break;
        }
        cells += w;
        pos += n;
    }
    return pos;
}

void view_line_paint(struct view_line *line, size_t col, size_t width, struct view_style style) {
    size_t b0 = byte_of_col(line, col);
    size_t b1 = byte_of_col(line, col + width);
    if (b1 <= b0) {
        return;
    }
    struct view_span *old = line->spans;
    size_t old_count = line->span_count;
    line->spans = NULL;
    line->span_count = 0;
    line->span_cap = 0;
    /* Keep what lies outside [b0, b1), then add the new run and restore the order by start. */
    for (size_t i = 0; i < old_count; i++) {
        const struct view_span *span = &old[i];
        size_t s0 = span->start;
        size_t s1 = span->start + span->len;
        if (s1 <= b0 || s0 >= b1) {
            if (!(span->len == 0 && s0 >= b0 && s0 < b1)) {
                push_span(line, s0, span->len, span->style);
            }
            continue;
        }
        if (s0 < b0) {
            push_span(line, s0, b0 - s0, span->style);
        }
        if (s1 > b1) {
            push_span(line, b1, s1 - b1, span->style);
        }
    }
    free(old);
    if (!style_is_plain(style)) {
        push_span(line, b0, b1 - b0, style);
    }
    for (size_t i = 1; i < line->span_count; i++) {
        struct view_span key = line->spans[i];
        size_t j = i;
        while (j > 0 && line->spans[j - 1].start > key.start) {
            line->spans[j] = line->spans[j - 1];
            j--;
        }
        line->spans[j] = key;
    }
}

void view_line_slice(const struct view_line *src, size_t col, size_t width, struct view_line *dst) {
    view_line_clear(dst);
    size_t pos = 0;
    size_t cells = 0;
    size_t end_col = col + width;
    while (pos < src->len && cells < end_col) {
        uint32_t cp;
        size_t n = utf8_decode(src->text + pos, src->len - pos, &cp);
        unsigned w = utf8_cp_width(cp);
        if (cells >= col && cells + w <= end_col) {
            view_line_add_n(dst, src->text + pos, n, view_style_make(VIEW_COLOR_DEFAULT, 0));
        } else if (cells + w > col && w > 0) {
            /* A wide character cut by the window: show what is left of it as blanks. */
            size_t visible = 0;
            for (size_t c = cells; c < cells + w; c++) {
                visible += c >= col && c < end_col;
            }
            add_spaces(dst, visible, view_style_make(VIEW_COLOR_DEFAULT, 0));
        }
        cells += w;
        pos += n;
    }
    /* Re-apply the styles cell by cell range: map each source span to the window. */
    for (size_t i = 0; i < src->span_count; i++) {
        const struct view_span *span = &src->spans[i];
        size_t c0 = utf8_width(src->text, span->start);
        size_t c1 = c0 + utf8_width(src->text + span->start, span->len);
        size_t from = c0 > col ? c0 : col;
        size_t to = c1 < end_col ? c1 : end_col;
        if (to > from) {
            view_line_paint(dst, from - col, to - from, span->style);
        }
    }
}

/* The ASCII map of nvitop's once mode and monitor (docs/nvitop-behaviour.md §2.7), as UTF-8 source
 * strings. */
static const struct {
    const char *from;
    char to;
} ascii_map[] = {
    {"═", '='}, {"─", '-'}, {"╴", '-'}, {"╒", '+'}, {"╤", '+'}, {"╕", '+'}, {"╪", '+'},
    {"╘", '+'}, {"╧", '+'}, {"╛", '+'}, {"┌", '+'}, {"┬", '+'}, {"┐", '+'}, {"┼", '+'},
    {"└", '+'}, {"┴", '+'}, {"┘", '+'}, {"│", '|'}, {"╞", '|'}, {"╡", '|'}, {"├", '|'},
    {"┤", '|'}, {"▏", '|'}, {"▎", '|'}, {"▍", '|'}, {"▌", '|'}, {"▋", '|'}, {"▊", '|'},
    {"▉", '|'}, {"█", '|'}, {"░", '|'}, {"▲", '^'}, {"▼", 'v'}, {"␤", '?'},
};

static char ascii_of(const char *text, size_t n) {
    if (n < 2) {
        return 0;
    }
    /* Braille patterns (U+2800..U+28FF) are the history graphs' symbols. */
    if (n == 3 && (unsigned char)text[0] == 0xE2 && ((unsigned char)text[1] & 0xFC) == 0xA0) {
        return '=';
    }
    for (size_t i = 0; i < ARRAY_SIZE(ascii_map); i++) {
        if (strlen(ascii_map[i].from) == n && memcmp(ascii_map[i].from, text, n) == 0) {
            return ascii_map[i].to;
        }
    }
    return 0;
}

void view_line_to_ascii(struct view_line *line) {
    if (line->len == 0) {
        return;
    }
    size_t *map = xmalloc((line->len + 1) * sizeof(*map));
    size_t out = 0;
    size_t pos = 0;
    while (pos < line->len) {
        uint32_t cp;
        size_t n = utf8_decode(line->text + pos, line->len - pos, &cp);
        char repl = ascii_of(line->text + pos, n);
        for (size_t k = 0; k < n; k++) {
            map[pos + k] = out;
        }
        if (repl != 0) {
            line->text[out++] = repl;
        } else {
            memmove(line->text + out, line->text + pos, n);
            out += n;
        }
        pos += n;
    }
    map[line->len] = out;
    for (size_t i = 0; i < line->span_count; i++) {
        struct view_span *span = &line->spans[i];
        size_t start = map[span->start];
        size_t end = map[span->start + span->len];
        span->start = start;
        span->len = end - start;
    }
    line->len = out;
    line->text[out] = '\0';
    free(map);
}

void view_lines_init(struct view_lines *lines) {
    memset(lines, 0, sizeof(*lines));
}

void view_lines_clear(struct view_lines *lines) {
    for (size_t i = 0; i < lines->count; i++) {
        view_line_fini(&lines->items[i]);
    }
    lines->count = 0;
}

void view_lines_fini(struct view_lines *lines) {
    if (lines == NULL) {
        return;
    }
    view_lines_clear(lines);
    free(lines->items);
    view_lines_init(lines);
}

struct view_line *view_lines_add(struct view_lines *lines) {
    if (lines->count == lines->cap) {
        size_t cap = lines->cap < 16 ? 16 : lines->cap * 2;
        lines->items = xrealloc(lines->items, cap * sizeof(*lines->items));
        lines->cap = cap;
    }
    struct view_line *line = &lines->items[lines->count++];
    view_line_init(line);
    return line;
}
