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

/* One cell: the UTF-8 bytes of one character (plus combining marks that fit: a two-byte mark
 * after any character), its display width (2 for the left half of a wide character, 0 for the
 * right half) and its style.  The bytes of text past len are zero, so that two cells that look the
 * same compare equal with memcmp().  12 bytes: a 200x60 canvas and its copy on screen take
 * 280 KiB. */
struct canvas_cell {
    char text[6];
    uint8_t len;
    uint8_t width;
    struct view_style style;
};

struct canvas;

/* Create a blank canvas of rows x cols (each at least 1).  Returns NULL when out of memory.  The
 * caller destroys it with canvas_destroy(). */
struct canvas *canvas_create(int rows, int cols);

/* Destroy a canvas.  Accepts NULL. */
void canvas_destroy(struct canvas *canvas);

/* Change the size and blank the canvas.  Returns false (canvas unchanged) when out of memory. */
bool canvas_resize(struct canvas *canvas, int rows, int cols);

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

/* Copy n ready-made cells, each one character of width 1 (no wide characters), to (y, x),
 * clipped.  For graphs, which draw the same few characters thousands of times a frame: the
 * caller builds each character's cell once (the ASCII map is the caller's business). */
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

/* Write the text of screen row `row` into buf (NUL-terminated, truncated to size).  Returns the
 * length the full row needs.  Trailing blanks are kept. */
size_t canvas_row_text(const struct canvas *canvas, int row, char *buf, size_t size);

/* Display width of one UTF-8 string as the canvas would draw it. */
int canvas_text_width(const char *text, size_t len);

#endif /* NVITOP_SRC_TUI_CANVAS_H */
