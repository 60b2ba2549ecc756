/*
 * The in-memory cell grid every screen draws into (see canvas.h).
 */
#include "tui/canvas.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/text/term_text.h"
#include "util/text/utf8.h"

struct canvas {
    int rows;
    int cols;
    int origin;
    bool ascii;
    struct canvas_cell *cells;
};

/* Cells are compared as bytes: no padding may hide in them. */
_Static_assert(sizeof(struct canvas_cell) == sizeof(((struct canvas_cell *)0)->text) +
                                                 2 * sizeof(uint8_t) + sizeof(struct view_style),
               "struct canvas_cell has padding");

static const struct canvas_cell blank_cell = {.text = " ", .len = 1, .width = 1};

struct canvas *canvas_create(int rows, int cols) {
    struct canvas *canvas = calloc(1, sizeof(*canvas));
    if (canvas == NULL) {
        return NULL;
    }
    if (!canvas_resize(canvas, rows, cols)) {
        free(canvas);
        return NULL;
    }
    return canvas;
}

void canvas_destroy(struct canvas *canvas) {
    if (canvas == NULL) {
        return;
    }
    free(canvas->cells);
    free(canvas);
}

bool canvas_resize(struct canvas *canvas, int rows, int cols) {
    rows = rows < 1 ? 1 : rows;
    cols = cols < 1 ? 1 : cols;
    struct canvas_cell *cells = calloc((size_t)rows * (size_t)cols, sizeof(*cells));
    if (cells == NULL) {
        return false;
    }
    free(canvas->cells);
    canvas->cells = cells;
    canvas->rows = rows;
    canvas->cols = cols;
    canvas_clear(canvas);
    return true;
}

int canvas_rows(const struct canvas *canvas) {
    return canvas->rows;
}

int canvas_cols(const struct canvas *canvas) {
    return canvas->cols;
}

void canvas_clear(struct canvas *canvas) {
    /* One blank, then copies of what is already blank, doubling: a few memcpy() calls a frame
     * instead of a store per cell. */
    size_t count = (size_t)canvas->rows * (size_t)canvas->cols;
    canvas->cells[0] = blank_cell;
    for (size_t done = 1; done < count; done *= 2) {
        size_t n = done < count - done ? done : count - done;
        memcpy(canvas->cells + done, canvas->cells, n * sizeof(*canvas->cells));
    }
    canvas->origin = 0;
}

void canvas_set_origin(struct canvas *canvas, int origin) {
    canvas->origin = origin;
}

bool canvas_row_shown(const struct canvas *canvas, int y) {
    int row = y - canvas->origin;
    return row >= 0 && row < canvas->rows;
}

bool canvas_set_ascii(struct canvas *canvas, bool ascii) {
    bool previous = canvas->ascii;
    canvas->ascii = ascii;
    return previous;
}

/* One character of UTF-8, U+FFFD for an invalid byte: the three-byte form of box drawing,
 * blocks and Braille inline, anything else through util's decoder. */
static size_t decode(const unsigned char *s, size_t len, uint32_t *cp) {
    if (len >= 3 && (s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        uint32_t value = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
                         (uint32_t)(s[2] & 0x3F);
        if (value >= 0x800 && (value < 0xD800 || value > 0xDFFF)) {
            *cp = value;
            return 3;
        }
    }
    size_t n = utf8_decode((const char *)s, len, cp);
    if (*cp == UTF8_INVALID) {
        *cp = 0xFFFD;
    }
    return n;
}

/* Display width of a code point: the C library knows it under a UTF-8 locale; without one every
 * printable character counts 1, which is what the terminal then shows too. */
static int code_point_width(uint32_t cp) {
    if (cp < 0x300 || (cp >= 0x2500 && cp <= 0x28FF)) {
        return 1; /* Latin text, box drawing, blocks and Braille: the bulk of every frame */
    }
    int width = wcwidth((wchar_t)cp);
    if (width < 0) {
        return 1;
    }
    return width > 2 ? 2 : width;
}

/* nvitop's ASCII map (docs/nvitop-behaviour.md §2.7) for one code point; 0 when the character
 * stays. */
static char ascii_for(uint32_t cp) {
    if (cp >= 0x2800 && cp <= 0x28FF) {
        return '=';
    }
    switch (cp) {
    case 0x2550:
        return '=';
    case 0x2500:
    case 0x2574:
        return '-';
    case 0x2552: /* ╒ */
    case 0x2564: /* ╤ */
    case 0x2555: /* ╕ */
    case 0x256A: /* ╪ */
    case 0x2558: /* ╘ */
    case 0x2567: /* ╧ */
    case 0x255B: /* ╛ */
    case 0x250C: /* ┌ */
    case 0x252C: /* ┬ */
    case 0x2510: /* ┐ */
    case 0x253C: /* ┼ */
    case 0x2514: /* └ */
    case 0x2534: /* ┴ */
    case 0x2518: /* ┘ */
        return '+';
    case 0x2502: /* │ */
    case 0x255E: /* ╞ */
    case 0x2561: /* ╡ */
    case 0x251C: /* ├ */
    case 0x2524: /* ┤ */
    case 0x258F: /* ▏ */
    case 0x258E:
    case 0x258D:
    case 0x258C:
    case 0x258B:
    case 0x258A:
    case 0x2589:
    case 0x2588: /* █ */
    case 0x2591: /* ░ */
        return '|';
    case 0x25B2:
        return '^';
    case 0x25BC:
        return 'v';
    case 0x2424:
        return '?';
    default:
        return 0;
    }
}

static struct canvas_cell *cell_at(struct canvas *canvas, int row, int col) {
    return &canvas->cells[(size_t)row * (size_t)canvas->cols + (size_t)col];
}

/* Blank the other half of a wide character that is about to be partly overwritten. */
static void break_wide(struct canvas *canvas, int row, int col) {
    struct canvas_cell *cell = cell_at(canvas, row, col);
    if (cell->width == 0 && col > 0) {
        struct canvas_cell *left = cell_at(canvas, row, col - 1);
        struct view_style style = left->style;
        *left = blank_cell;
        left->style = style;
    } else if (cell->width == 2 && col + 1 < canvas->cols) {
        struct canvas_cell *right = cell_at(canvas, row, col + 1);
        struct view_style style = right->style;
        *right = blank_cell;
        right->style = style;
    }
}

/* Put one character of the given width at (row, col), clipped. */
static void put_char(struct canvas *canvas, int row, int col, const char *bytes, size_t len,
                     int width, struct view_style style) {
    if (row < 0 || row >= canvas->rows || col < 0 || col >= canvas->cols) {
        return;
    }
    struct canvas_cell *cell = cell_at(canvas, row, col);
    if (cell->width != 1) {
        break_wide(canvas, row, col);
    }
    if (width == 2 && col + 1 >= canvas->cols) {
        /* A wide character cut by the right edge becomes a blank, as terminals do. */
        *cell = blank_cell;
        cell->style = style;
        return;
    }
    /* One character (at most 4 bytes), the rest of the text zero. */
    struct canvas_cell fresh = {.len = (uint8_t)len, .width = (uint8_t)width, .style = style};
    for (size_t k = 0; k < len && k < sizeof(fresh.text); k++) {
        fresh.text[k] = bytes[k];
    }
    *cell = fresh;
    if (width == 2) {
        struct canvas_cell *right = cell_at(canvas, row, col + 1);
        if (right->width != 1) {
            break_wide(canvas, row, col + 1);
        }
        memset(right->text, 0, sizeof(right->text));
        right->len = 0;
        right->width = 0;
        right->style = style;
    }
}

/* Append a combining mark to the character left of col when it fits in the cell. */
static void add_combining(struct canvas *canvas, int row, int col, const char *bytes, size_t len) {
    if (row < 0 || row >= canvas->rows || col <= 0 || col > canvas->cols) {
        return;
    }
    struct canvas_cell *cell = cell_at(canvas, row, col - 1);
    if (cell->width == 0 && col >= 2) {
        cell = cell_at(canvas, row, col - 2);
    }
    if (cell->len + len <= sizeof(cell->text)) {
        memcpy(cell->text + cell->len, bytes, len);
        cell->len = (uint8_t)(cell->len + len);
    }
}

/* Store n copies of a ready-made cell of width 1 from (row, col), clipped: the runs of ASCII
 * text, rules and bar blocks that make up most of a frame, without building a cell per copy. */
static void put_run(struct canvas *canvas, int row, int col, const struct canvas_cell *cell,
                    int n) {
    if (row < 0 || row >= canvas->rows) {
        return;
    }
    struct canvas_cell *cells = cell_at(canvas, row, 0);
    int from = col < 0 ? 0 : col;
    int to = n > canvas->cols - col ? canvas->cols : col + n;
    for (int c = from; c < to; c++) {
        if (cells[c].width != 1) {
            break_wide(canvas, row, c);
        }
        cells[c] = *cell;
    }
}

/* How many times the n-byte character at s repeats from s on (at least 1), within len bytes. */
static size_t repeats(const unsigned char *s, size_t len, size_t n) {
    size_t count = 1;
    if (n == 3) {
        /* Box rules and bar blocks, hundreds a frame: three bytes compared at once. */
        const unsigned char *next = s + 3;
        const unsigned char *end = s + len;
        while (end - next >= 3 && next[0] == s[0] && next[1] == s[1] && next[2] == s[2]) {
            next += 3;
            count++;
        }
        return count;
    }
    while ((count + 1) * n <= len) {
        const unsigned char *next = s + count * n;
        size_t k = 0;
        while (k < n && next[k] == s[k]) {
            k++;
        }
        if (k < n) {
            break;
        }
        count++;
    }
    return count;
}

/* Where text[0] sits in the first eight bytes of a cell read as one integer. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TEXT0_SHIFT 56
#else
#define TEXT0_SHIFT 0
#endif
_Static_assert(offsetof(struct canvas_cell, style) == 8 && sizeof(struct canvas_cell) == 12,
               "an ASCII cell is stored as eight bytes and its style");

/* Store printable ASCII text[0 .. to - from) as cells from..to of a row, in style.  Each cell is
 * stored as two plain stores, its first eight bytes (the character, zeros, length 1, width 1)
 * made in a register: building it in memory and copying it made each copy wait for the
 * character's one-byte store before it (three quarters of canvas_textn()'s time, perf). */
static void put_ascii(struct canvas *canvas, int row, int from, int to, const unsigned char *text,
                      struct view_style style) {
    static const struct canvas_cell ascii_cell = {.len = 1, .width = 1};
    uint64_t head = 0;
    memcpy(&head, &ascii_cell, sizeof(head));
    struct canvas_cell *cells = cell_at(canvas, row, 0);
    for (int c = from; c < to; c++) {
        if (cells[c].width != 1) {
            break_wide(canvas, row, c);
        }
        uint64_t bits = head | (uint64_t)text[c - from] << TEXT0_SHIFT;
        unsigned char *out = (unsigned char *)&cells[c];
        memcpy(out, &bits, sizeof(bits));
        memcpy(out + sizeof(bits), &style, sizeof(style));
    }
}

int canvas_textn(struct canvas *canvas, int y, int x, const char *text, size_t len,
                 struct view_style style) {
    const unsigned char *s = (const unsigned char *)text;
    int row = y - canvas->origin;
    int col = x;
    size_t i = 0;
    struct canvas_cell cell = {.len = 1, .width = 1, .style = style};
    while (i < len && s[i] != '\0') {
        if (s[i] >= 0x20 && s[i] < 0x7F) {
            /* Printable ASCII, most of every frame: one byte, one cell, no mapping. */
            size_t run = term_ascii_run(text + i, len - i);
            if (row >= 0 && row < canvas->rows) {
                int from = col < 0 ? 0 : col;
                int to = (int)run > canvas->cols - col ? canvas->cols : col + (int)run;
                put_ascii(canvas, row, from, to, s + i + (size_t)(from - col), style);
            }
            col += (int)run;
            i += run;
            continue;
        }
        uint32_t cp;
        size_t n = decode(s + i, len - i, &cp);
        int width = code_point_width(cp);
        char ascii = canvas->ascii ? ascii_for(cp) : 0;
        if (ascii != 0) {
            put_char(canvas, row, col, &ascii, 1, 1, style);
            col += 1;
        } else if (cp == 0xFFFD || !term_cp_printable(cp)) {
            /* An invalid byte or a control character: term_text.h's rule, as in every output. */
            put_char(canvas, row, col, "?", 1, 1, style);
            col += 1;
        } else if (width == 0) {
            add_combining(canvas, row, col, text + i, n);
        } else if (width == 1 && n < sizeof(cell.text)) {
            /* The same character again (box rules, bar blocks) needs no decoding. */
            size_t count = repeats(s + i, len - i, n);
            struct canvas_cell run = {.len = (uint8_t)n, .width = 1, .style = style};
            memcpy(run.text, s + i, n);
            put_run(canvas, row, col, &run, (int)count);
            col += (int)count;
            i += (count - 1) * n;
        } else {
            put_char(canvas, row, col, text + i, n, width, style);
            col += width;
        }
        i += n;
    }
    return col;
}

bool canvas_ascii(const struct canvas *canvas) {
    return canvas->ascii;
}

void canvas_put_cells(struct canvas *canvas, int y, int x, const struct canvas_cell *cells, int n) {
    int row = y - canvas->origin;
    if (row < 0 || row >= canvas->rows) {
        return;
    }
    for (int i = 0; i < n; i++) {
        int col = x + i;
        if (col < 0 || col >= canvas->cols) {
            continue;
        }
        if (cell_at(canvas, row, col)->width != 1) {
            break_wide(canvas, row, col);
        }
        *cell_at(canvas, row, col) = cells[i];
    }
}

int canvas_text(struct canvas *canvas, int y, int x, const char *text, struct view_style style) {
    return canvas_textn(canvas, y, x, text, strlen(text), style);
}

int canvas_line(struct canvas *canvas, int y, int x, const struct view_line *line) {
    static const struct view_style plain = {0};
    size_t pos = 0;
    int col = x;
    for (size_t k = 0; k < line->span_count; k++) {
        const struct view_span *span = &line->spans[k];
        if (span->start > pos) {
            col = canvas_textn(canvas, y, col, line->text + pos, span->start - pos, plain);
        }
        col = canvas_textn(canvas, y, col, line->text + span->start, span->len, span->style);
        pos = span->start + span->len;
    }
    if (pos < line->len) {
        col = canvas_textn(canvas, y, col, line->text + pos, line->len - pos, plain);
    }
    return col;
}

void canvas_fill(struct canvas *canvas, int y, int x, int n, const char *ch,
                 struct view_style style) {
    size_t len = strlen(ch);
    if (n <= 0 || len == 0) {
        return;
    }
    /* One character drawn as canvas_textn() draws it, then copied: rules and blanks are long. */
    int row = y - canvas->origin;
    int end = canvas_textn(canvas, y, x, ch, len, style);
    const struct canvas_cell *first = canvas_cell(canvas, row, x);
    if (end == x + 1 && first != NULL && first->width == 1 && n > 1) {
        struct canvas_cell cell = *first;
        put_run(canvas, row, x + 1, &cell, n - 1);
        return;
    }
    for (int i = 1; i < n; i++) {
        end = canvas_textn(canvas, y, end, ch, len, style);
    }
}

void canvas_attrs(struct canvas *canvas, int y, int x, int n, uint8_t add, uint8_t remove) {
    int row = y - canvas->origin;
    if (row < 0 || row >= canvas->rows) {
        return;
    }
    for (int col = x < 0 ? 0 : x; col < x + n && col < canvas->cols; col++) {
        struct canvas_cell *cell = cell_at(canvas, row, col);
        cell->style.attrs = (uint8_t)((cell->style.attrs & ~remove) | add);
    }
}

void canvas_color(struct canvas *canvas, int y, int x, int n, uint16_t color) {
    int row = y - canvas->origin;
    if (row < 0 || row >= canvas->rows) {
        return;
    }
    for (int col = x < 0 ? 0 : x; col < x + n && col < canvas->cols; col++) {
        cell_at(canvas, row, col)->style.color = color;
    }
}

void canvas_background(struct canvas *canvas, int y, int x, int n, uint16_t bg) {
    int row = y - canvas->origin;
    if (row < 0 || row >= canvas->rows) {
        return;
    }
    for (int col = x < 0 ? 0 : x; col < x + n && col < canvas->cols; col++) {
        cell_at(canvas, row, col)->style.bg = bg;
    }
}

const struct canvas_cell *canvas_row(const struct canvas *canvas, int row) {
    if (row < 0 || row >= canvas->rows) {
        return NULL;
    }
    return &canvas->cells[(size_t)row * (size_t)canvas->cols];
}

const struct canvas_cell *canvas_cell(const struct canvas *canvas, int row, int col) {
    if (row < 0 || row >= canvas->rows || col < 0 || col >= canvas->cols) {
        return NULL;
    }
    return &canvas->cells[(size_t)row * (size_t)canvas->cols + (size_t)col];
}

size_t canvas_row_text(const struct canvas *canvas, int row, char *buf, size_t size) {
    size_t need = 0;
    if (size > 0) {
        buf[0] = '\0';
    }
    if (row < 0 || row >= canvas->rows) {
        return 0;
    }
    bool truncated = false;
    for (int col = 0; col < canvas->cols; col++) {
        const struct canvas_cell *cell = canvas_cell(canvas, row, col);
        if (!truncated && need + cell->len < size) {
            memcpy(buf + need, cell->text, cell->len);
            buf[need + cell->len] = '\0';
        } else {
            truncated = true;
        }
        need += cell->len;
    }
    return need;
}

int canvas_text_width(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    int width = 0;
    size_t i = 0;
    while (i < len && s[i] != '\0') {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        width += code_point_width(cp == UTF8_INVALID ? 0xFFFD : cp);
        i += n;
    }
    return width;
}
