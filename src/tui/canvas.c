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

/* A character with its combining marks: the text of a cluster cell (canvas.h). */
struct cluster {
    char text[CANVAS_CELL_TEXT];
    uint8_t len;
};

/* The canvas's table of clusters, each text once, so that a text has one index: an array and,
 * over it, an open-addressed hash index (slot_count, a power of two, at least twice count;
 * each slot 0 or an index + 1).  Empty on most screens, so nothing is allocated until the first
 * combining mark. */
struct clusters {
    struct cluster *items;
    uint32_t count;
    uint32_t cap;
    uint32_t *slots;
    uint32_t slot_count;
    uint32_t generation; /* counts renewals (canvas_clusters_generation()) */
};

struct canvas {
    int rows;
    int cols;
    int origin;
    bool ascii;
    struct canvas_cell *cells;
    struct clusters clusters;
};

/* Cells are compared as bytes: no padding may hide in them. */
_Static_assert(sizeof(struct canvas_cell) == sizeof(uint32_t) + sizeof(struct view_style),
               "struct canvas_cell has padding");

/* canvas_clear() renews a table of more clusters than this (and the copies of the screen then
 * draw their cluster cells again): the few a screen shows stay, the many gathered while
 * scrolling through names full of marks are let go. */
#define CLUSTERS_KEEP 1024U

/* The glyph of one code point (or cluster index, with CANVAS_GLYPH_CLUSTER) of a width. */
static uint32_t glyph_of(uint32_t code, int width) {
    return code | (uint32_t)width << CANVAS_GLYPH_WIDTH_SHIFT;
}

static const struct canvas_cell blank_cell = {.glyph =
                                                  (UINT32_C(1) << CANVAS_GLYPH_WIDTH_SHIFT) | ' '};

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
    free(canvas->clusters.items);
    free(canvas->clusters.slots);
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

void canvas_release(struct canvas *canvas) {
    free(canvas->cells);
    canvas->cells = NULL;
}

bool canvas_fit(struct canvas *canvas, int rows, int cols) {
    if (canvas->cells != NULL && canvas->rows == rows && canvas->cols == cols) {
        return true;
    }
    return canvas_resize(canvas, rows, cols);
}

int canvas_rows(const struct canvas *canvas) {
    return canvas->rows;
}

int canvas_cols(const struct canvas *canvas) {
    return canvas->cols;
}

/* Empty the table of clusters: the cells that held them are about to be blanked. */
static void renew_clusters(struct clusters *clusters) {
    free(clusters->items);
    free(clusters->slots);
    clusters->items = NULL;
    clusters->slots = NULL;
    clusters->count = clusters->cap = clusters->slot_count = 0;
    clusters->generation++;
}

void canvas_clear(struct canvas *canvas) {
    if (canvas->clusters.count > CLUSTERS_KEEP) {
        renew_clusters(&canvas->clusters);
    }
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

/* The UTF-8 bytes of a code point (none for 0, the right half of a wide character). */
static size_t encode(uint32_t cp, char *out) {
    if (cp == 0) {
        return 0;
    }
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* FNV-1a over a cluster's bytes. */
static uint32_t cluster_hash(const char *text, size_t len) {
    uint32_t hash = 2166136261U;
    for (size_t i = 0; i < len; i++) {
        hash = (hash ^ (unsigned char)text[i]) * 16777619U;
    }
    return hash;
}

/* The slot of the index (which has some) that holds text, or the empty one where it would go. */
static uint32_t *cluster_slot(struct clusters *clusters, const char *text, size_t len) {
    uint32_t mask = clusters->slot_count - 1;
    uint32_t at = cluster_hash(text, len) & mask;
    for (;;) {
        uint32_t *slot = &clusters->slots[at];
        if (*slot == 0) {
            return slot;
        }
        const struct cluster *item = &clusters->items[*slot - 1];
        if (item->len == len && memcmp(item->text, text, len) == 0) {
            return slot;
        }
        at = (at + 1) & mask;
    }
}

/* Make the index slot_count slots (a power of two above twice count) and enter every cluster.
 * False (the table unchanged) when out of memory. */
static bool rebuild_slots(struct clusters *clusters, uint32_t slot_count) {
    uint32_t *slots = calloc(slot_count, sizeof(*slots));
    if (slots == NULL) {
        return false;
    }
    free(clusters->slots);
    clusters->slots = slots;
    clusters->slot_count = slot_count;
    for (uint32_t i = 0; i < clusters->count; i++) {
        const struct cluster *item = &clusters->items[i];
        *cluster_slot(clusters, item->text, item->len) = i + 1;
    }
    return true;
}

/* Room in the array and the index for one more cluster.  False when out of memory, or when the
 * glyph's 21 bits have no index left (a canvas of two million cells, each with its own marks). */
static bool cluster_room(struct clusters *clusters) {
    if (clusters->count == clusters->cap) {
        if (clusters->cap > CANVAS_GLYPH_CODE_MASK) {
            return false;
        }
        uint32_t cap = clusters->cap == 0 ? 16 : 2 * clusters->cap;
        struct cluster *items = realloc(clusters->items, (size_t)cap * sizeof(*items));
        if (items == NULL) {
            return false;
        }
        clusters->items = items;
        clusters->cap = cap;
    }
    if (2 * (clusters->count + 1) > clusters->slot_count) {
        return rebuild_slots(clusters, clusters->slot_count == 0 ? 32 : 2 * clusters->slot_count);
    }
    return true;
}

/* The index of the cluster text (len bytes, at most CANVAS_CELL_TEXT), added if new.  False when
 * it cannot be added (cluster_room()). */
static bool cluster_index(struct clusters *clusters, const char *text, size_t len,
                          uint32_t *index) {
    if (clusters->slot_count > 0) {
        const uint32_t *slot = cluster_slot(clusters, text, len);
        if (*slot != 0) {
            *index = *slot - 1;
            return true;
        }
    }
    if (!cluster_room(clusters)) {
        return false;
    }
    struct cluster *item = &clusters->items[clusters->count];
    memset(item, 0, sizeof(*item));
    memcpy(item->text, text, len);
    item->len = (uint8_t)len;
    *cluster_slot(clusters, text, len) = clusters->count + 1;
    *index = clusters->count++;
    return true;
}

static struct canvas_cell *cell_at(struct canvas *canvas, int row, int col) {
    return &canvas->cells[(size_t)row * (size_t)canvas->cols + (size_t)col];
}

/* Blank the other half of a wide character that is about to be partly overwritten. */
static void break_wide(struct canvas *canvas, int row, int col) {
    struct canvas_cell *cell = cell_at(canvas, row, col);
    int width = canvas_cell_width(cell);
    if (width == 0 && col > 0) {
        struct canvas_cell *left = cell_at(canvas, row, col - 1);
        struct view_style style = left->style;
        *left = blank_cell;
        left->style = style;
    } else if (width == 2 && col + 1 < canvas->cols) {
        struct canvas_cell *right = cell_at(canvas, row, col + 1);
        struct view_style style = right->style;
        *right = blank_cell;
        right->style = style;
    }
}

/* Put the character cp of the given width at (row, col), clipped. */
static void put_char(struct canvas *canvas, int row, int col, uint32_t cp, int width,
                     struct view_style style) {
    if (row < 0 || row >= canvas->rows || col < 0 || col >= canvas->cols) {
        return;
    }
    struct canvas_cell *cell = cell_at(canvas, row, col);
    if (canvas_cell_width(cell) != 1) {
        break_wide(canvas, row, col);
    }
    if (width == 2 && col + 1 >= canvas->cols) {
        /* A wide character cut by the right edge becomes a blank, as terminals do. */
        *cell = blank_cell;
        cell->style = style;
        return;
    }
    *cell = (struct canvas_cell){glyph_of(cp, width), style};
    if (width == 2) {
        struct canvas_cell *right = cell_at(canvas, row, col + 1);
        if (canvas_cell_width(right) != 1) {
            break_wide(canvas, row, col + 1);
        }
        *right = (struct canvas_cell){glyph_of(0, 0), style};
    }
}

/* Append a combining mark to the character left of col when the text then fits in
 * CANVAS_CELL_TEXT bytes: the cell then holds the index of that text in the table.  A mark that
 * does not fit, or finds no room in the table (out of memory), is dropped. */
static void add_combining(struct canvas *canvas, int row, int col, const char *bytes, size_t len) {
    if (row < 0 || row >= canvas->rows || col <= 0 || col > canvas->cols) {
        return;
    }
    struct canvas_cell *cell = cell_at(canvas, row, col - 1);
    if (canvas_cell_width(cell) == 0 && col >= 2) {
        cell = cell_at(canvas, row, col - 2);
    }
    char text[CANVAS_CELL_TEXT];
    size_t have = canvas_cell_text(canvas, cell, text);
    if (have + len > sizeof(text)) {
        return;
    }
    memcpy(text + have, bytes, len);
    uint32_t index;
    if (cluster_index(&canvas->clusters, text, have + len, &index)) {
        cell->glyph = glyph_of(index | CANVAS_GLYPH_CLUSTER, canvas_cell_width(cell));
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
        if (canvas_cell_width(&cells[c]) != 1) {
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

/* Store printable ASCII text[0 .. to - from) as cells from..to of a row, in style: each cell one
 * eight-byte store of a value made in registers (building a cell in memory and copying it made
 * each copy wait for the store before it, perf). */
static void put_ascii(struct canvas *canvas, int row, int from, int to, const unsigned char *text,
                      struct view_style style) {
    struct canvas_cell *cells = cell_at(canvas, row, 0);
    for (int c = from; c < to; c++) {
        if (canvas_cell_width(&cells[c]) != 1) {
            break_wide(canvas, row, c);
        }
        cells[c] = (struct canvas_cell){glyph_of(text[c - from], 1), style};
    }
}

int canvas_textn(struct canvas *canvas, int y, int x, const char *text, size_t len,
                 struct view_style style) {
    const unsigned char *s = (const unsigned char *)text;
    int row = y - canvas->origin;
    int col = x;
    size_t i = 0;
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
            put_char(canvas, row, col, (unsigned char)ascii, 1, style);
            col += 1;
        } else if (cp == 0xFFFD || !term_cp_printable(cp)) {
            /* An invalid byte or a control character: term_text.h's rule, as in every output. */
            put_char(canvas, row, col, '?', 1, style);
            col += 1;
        } else if (width == 0) {
            add_combining(canvas, row, col, text + i, n);
        } else if (width == 1) {
            /* The same character again (box rules, bar blocks) needs no decoding. */
            size_t count = repeats(s + i, len - i, n);
            struct canvas_cell run = {glyph_of(cp, 1), style};
            put_run(canvas, row, col, &run, (int)count);
            col += (int)count;
            i += (count - 1) * n;
        } else {
            put_char(canvas, row, col, cp, width, style);
            col += width;
        }
        i += n;
    }
    return col;
}

bool canvas_ascii(const struct canvas *canvas) {
    return canvas->ascii;
}

struct canvas_cell canvas_cell_of(const char *ch, struct view_style style) {
    struct canvas_cell cell = {glyph_of(0, 1), style};
    size_t len = strlen(ch);
    if (len > 0) {
        uint32_t cp;
        decode((const unsigned char *)ch, len, &cp);
        cell.glyph = glyph_of(cp == 0xFFFD || !term_cp_printable(cp) ? '?' : cp, 1);
    }
    return cell;
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
        if (canvas_cell_width(cell_at(canvas, row, col)) != 1) {
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
    if (end == x + 1 && first != NULL && canvas_cell_width(first) == 1 && n > 1) {
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

size_t canvas_cell_text(const struct canvas *canvas, const struct canvas_cell *cell, char *text) {
    uint32_t code = cell->glyph & CANVAS_GLYPH_CODE_MASK;
    if (!canvas_cell_is_cluster(cell)) {
        return encode(code, text);
    }
    if (code >= canvas->clusters.count) {
        return 0; /* CANVAS_GLYPH_NONE, or a cell of an earlier generation */
    }
    const struct cluster *item = &canvas->clusters.items[code];
    memcpy(text, item->text, item->len);
    return item->len;
}

uint32_t canvas_clusters_generation(const struct canvas *canvas) {
    return canvas->clusters.generation;
}

void canvas_cells_forget_clusters(struct canvas_cell *cells, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (canvas_cell_is_cluster(&cells[i])) {
            cells[i].glyph = CANVAS_GLYPH_NONE;
        }
    }
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
        char text[CANVAS_CELL_TEXT];
        size_t len = canvas_cell_text(canvas, canvas_cell(canvas, row, col), text);
        if (!truncated && need + len < size) {
            memcpy(buf + need, text, len);
            buf[need + len] = '\0';
        } else {
            truncated = true;
        }
        need += len;
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
