/*
 * The canvas: an in-memory grid of styled terminal cells that every screen draws into.  term.c
 * copies the grid to curses; unit tests read it back as text.  Drawing is clipped to the grid, so
 * callers never check bounds, and a vertical origin lets a screen taller than the terminal be
 * scrolled by moving the origin rather than by every panel.
 *
 * A canvas is used by one thread at a time.
 */
#ifndef NVITOP_SRC_TUI_CANVAS_H
#define NVITOP_SRC_TUI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/draw/line.h"

/* The most bytes of UTF-8 one cell shows: a character and the combining marks that fit (a
 * two-byte mark after any character).  Marks that do not fit are dropped. */
#define CANVAS_CELL_TEXT 6

/* Where a cell's glyph keeps what: the code point in the low 21 bits (0 for the right half of a
 * wide character), the display width above it (1; 2 for the left half of a wide character, 0
 * for the right half), and a flag saying that the low bits are instead the index of a longer
 * text (a character with combining marks) in the canvas's own table of them. */
#define CANVAS_GLYPH_CODE_MASK   UINT32_C(0x1FFFFF)
#define CANVAS_GLYPH_WIDTH_SHIFT 21
#define CANVAS_GLYPH_CLUSTER     (UINT32_C(1) << 23)

/* A glyph no cell of a canvas has: a copy of what the terminal shows marks unknown cells with it,
 * so that they never match. */
#define CANVAS_GLYPH_NONE UINT32_MAX

/* One cell: its character and width packed in glyph (read through canvas_cell_width() and
 * canvas_cell_text()), and its style.  A text of one character is its code point; a character
 * with combining marks is kept once in the canvas's table, and every cell showing it holds the
 * same index, so that two cells that look the same compare equal with memcmp() (until the table
 * is renewed: canvas_clusters_generation()). */
struct canvas_cell {
    uint32_t glyph;
    struct view_style style;
};

/* A canvas holds rows x cols cells and the terminal code keeps a second array of as many (what
 * the screen shows): at 8 bytes a cell, a 200x60 screen takes 188 KiB for both. */
_Static_assert(sizeof(struct canvas_cell) <= 8, "a canvas cell takes more than 8 bytes");

/* The display width of a cell: 1, 2 for the left half of a wide character, 0 for the right
 * half. */
static inline int canvas_cell_width(const struct canvas_cell *cell) {
    return (int)((cell->glyph >> CANVAS_GLYPH_WIDTH_SHIFT) & 3U);
}

/* Whether the cell's text is one ASCII character (what a terminal without UTF-8 can show). */
static inline bool canvas_cell_is_ascii(const struct canvas_cell *cell) {
    uint32_t code = cell->glyph & (CANVAS_GLYPH_CLUSTER | CANVAS_GLYPH_CODE_MASK);
    return code >= 1 && code < 0x80;
}

/* Whether the cell's text is in its canvas's table (a character with combining marks). */
static inline bool canvas_cell_is_cluster(const struct canvas_cell *cell) {
    return (cell->glyph & CANVAS_GLYPH_CLUSTER) != 0;
}

struct canvas;

/* Create a blank canvas of rows x cols (each at least 1).  Returns NULL when out of memory.  The
 * caller destroys it with canvas_destroy(). */
struct canvas *canvas_create(int rows, int cols);

/* Destroy a canvas.  Accepts NULL. */
void canvas_destroy(struct canvas *canvas);

/* Change the size and blank the canvas.  Returns false (canvas unchanged) when out of memory. */
bool canvas_resize(struct canvas *canvas, int rows, int cols);

/* Let the cells go between frames: the size and the table of clusters stay.  Until the next
 * frame only the terminal's copy of the screen is needed, and at 200x60 the cells are 94 KiB. */
void canvas_release(struct canvas *canvas);

/* Ready the canvas for a frame of rows x cols: cells made again after canvas_release(), or a new
 * size (blank).  Returns false (canvas unchanged) when out of memory. */
bool canvas_fit(struct canvas *canvas, int rows, int cols);

int canvas_rows(const struct canvas *canvas);
int canvas_cols(const struct canvas *canvas);

/* Blank every cell and reset the origin to 0. */
void canvas_clear(struct canvas *canvas);

/* Rows drawn at y appear at y - origin.  Used for vertical scrolling of the main screen. */
void canvas_set_origin(struct canvas *canvas, int origin);

/* Whether a row drawn at y appears on the canvas (y - origin within its rows): a caller with many
 * rows, most scrolled out, formats only those. */
bool canvas_row_shown(const struct canvas *canvas, int y);

/* With ascii on, box drawing, block and Braille characters are drawn as nvitop's ASCII map says
 * (docs/nvitop-behaviour.md §2.7).  Returns the previous setting. */
bool canvas_set_ascii(struct canvas *canvas, bool ascii);

/* Whether the ASCII map is on (canvas_set_ascii). */
bool canvas_ascii(const struct canvas *canvas);

/* The cell of the first character of the UTF-8 string ch in style, drawn one column wide (for
 * canvas_put_cells()): an invalid byte or a control character makes '?', as canvas_textn() draws
 * them, and an empty string an empty cell. */
struct canvas_cell canvas_cell_of(const char *ch, struct view_style style);

/* Copy n ready-made cells, each one character of width 1 (no wide characters) made by
 * canvas_cell_of() or read from this canvas, to (y, x), clipped.  For graphs, which draw the same
 * few characters thousands of times a frame: the caller builds each character's cell once (the
 * ASCII map is the caller's business). */
void canvas_put_cells(struct canvas *canvas, int y, int x, const struct canvas_cell *cells, int n);

/* Draw len bytes of UTF-8 text at (y, x) in style, clipped.  Invalid bytes are drawn as '?',
 * control characters as '?'.  Returns the column after the last cell written (even if clipped). */
int canvas_textn(struct canvas *canvas, int y, int x, const char *text, size_t len,
                 struct view_style style);

/* canvas_textn() for a NUL-terminated string. */
int canvas_text(struct canvas *canvas, int y, int x, const char *text, struct view_style style);

/* Draw a styled line at (y, x).  Returns the column after it. */
int canvas_line(struct canvas *canvas, int y, int x, const struct view_line *line);

/* Draw n copies of the one-character UTF-8 string ch from (y, x). */
void canvas_fill(struct canvas *canvas, int y, int x, int n, const char *ch,
                 struct view_style style);

/* Remove and then add attribute bits (enum view_attr) on n cells from (y, x); remove 0xFF
 * replaces the attributes. */
void canvas_attrs(struct canvas *canvas, int y, int x, int n, uint8_t add, uint8_t remove);

/* Set the colour of n cells from (y, x), keeping their attributes. */
void canvas_color(struct canvas *canvas, int y, int x, int n, uint16_t color);

/* Set the background colour (one of the eight, or VIEW_COLOR_DEFAULT) of n cells from (y, x),
 * keeping their foreground colour and attributes. */
void canvas_background(struct canvas *canvas, int y, int x, int n, uint16_t bg);

/* The cell at screen position (row, col) (the origin is not applied); NULL outside. */
const struct canvas_cell *canvas_cell(const struct canvas *canvas, int row, int col);

/* The canvas_cols() cells of screen row `row` (the origin is not applied); NULL outside. */
const struct canvas_cell *canvas_row(const struct canvas *canvas, int row);

/* Write the UTF-8 text of a cell of this canvas (or of a copy of its cells made in the same
 * generation, canvas_clusters_generation()) to text, which has room for CANVAS_CELL_TEXT bytes,
 * not NUL-terminated.  Returns its length: 0 for the right half of a wide character. */
size_t canvas_cell_text(const struct canvas *canvas, const struct canvas_cell *cell, char *text);

/* The generation of the canvas's table of characters with combining marks.  canvas_clear() renews
 * a table that has grown large, and then a cell kept from before (canvas_cell_is_cluster()) may
 * look like one drawn after it while showing another text: a copy of the cells must no longer
 * trust its cluster cells once this changes (canvas_cells_forget_clusters()). */
uint32_t canvas_clusters_generation(const struct canvas *canvas);

/* Set every cluster cell among count copied cells to CANVAS_GLYPH_NONE, so that it matches no
 * cell of the canvas. */
void canvas_cells_forget_clusters(struct canvas_cell *cells, size_t count);

/* Write the text of screen row `row` into buf (NUL-terminated, truncated to size).  Returns the
 * length the full row needs.  Trailing blanks are kept. */
size_t canvas_row_text(const struct canvas *canvas, int row, char *buf, size_t size);

/* Display width of one UTF-8 string as the canvas would draw it. */
int canvas_text_width(const char *text, size_t len);

#endif /* NVITOP_SRC_TUI_CANVAS_H */
