/*
 * Braille history graphs (docs/nvitop-behaviour.md §3.4): two values per character column, five
 * levels per character row, newest values at the right edge; graphs grow up from their bottom row
 * or, upside down, from their top row.  In ASCII mode the canvas draws every Braille symbol as '='.
 */
#ifndef NVITOP_SRC_TUI_WIDGETS_GRAPH_H
#define NVITOP_SRC_TUI_WIDGETS_GRAPH_H

#include <stdbool.h>

#include "tui/canvas.h"
#include "tui/history.h"

struct graph_options {
    double baseline;
    double bound;     /* upper bound: values at or above it fill the graph */
    bool upside_down; /* grow down from the top row */
    struct view_style style;
    bool gradient_rows; /* colour each row by its distance from the baseline (--colorful) */
};

/* The Braille symbol (UTF-8) for left and right dot counts, each 0..4. */
const char *graph_symbol(int left, int right, bool upside_down);

/* Dots (0..4) a value gives character row `row` (0 = the baseline row) of a graph height rows
 * tall; 0 for N/A. */
int graph_dots(double value, int row, int height, double baseline, double bound);

/* Widest graph drawn; wider rectangles are cut (nvitop keeps 1024 columns of history too). */
#define GRAPH_MAX_WIDTH 1024

/* Draw history into the rectangle (y, x, width, height). */
void graph_draw(struct canvas *canvas, int y, int x, int width, int height,
                const struct history *history, const struct graph_options *options);

#endif /* NVITOP_SRC_TUI_WIDGETS_GRAPH_H */
