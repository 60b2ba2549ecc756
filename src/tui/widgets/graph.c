/*
 * Braille history graphs (see graph.h).
 */
#include "tui/widgets/graph.h"

#include <math.h>

#include "view/draw/line.h"

/* Indexed [left dots][right dots]; dots fill from the bottom ("up") or from the top ("down"). */
static const char *const up_symbols[5][5] = {
    {" ", "⢀", "⢠", "⢰", "⢸"}, {"⡀", "⣀", "⣠", "⣰", "⣸"}, {"⡄", "⣄", "⣤", "⣴", "⣼"},
    {"⡆", "⣆", "⣦", "⣶", "⣾"}, {"⡇", "⣇", "⣧", "⣷", "⣿"},
};
static const char *const down_symbols[5][5] = {
    {" ", "⠈", "⠘", "⠸", "⢸"}, {"⠁", "⠉", "⠙", "⠹", "⢹"}, {"⠃", "⠋", "⠛", "⠻", "⢻"},
    {"⠇", "⠏", "⠟", "⠿", "⢿"}, {"⡇", "⡏", "⡟", "⡿", "⣿"},
};

static int clamp_dots(int dots) {
    return dots < 0 ? 0 : dots > 4 ? 4 : dots;
}

const char *graph_symbol(int left, int right, bool upside_down) {
    left = clamp_dots(left);
    right = clamp_dots(right);
    return upside_down ? down_symbols[left][right] : up_symbols[left][right];
}

int graph_dots(double value, int row, int height, double baseline, double bound) {
    if (isnan(value) || value < baseline || bound <= baseline) {
        return 0;
    }
    double ratio = (value - baseline) / (bound - baseline);
    double level = (double)height * (ratio < 1.0 ? ratio : 1.0);
    if (level < 0.2) {
        level = 0.2; /* any known value shows at least a dot */
    }
    return clamp_dots((int)rint(5.0 * (level - (double)row))); /* half to even, as Python */
}

/* The level (rows of dots, fractional) a value reaches, or -1 for N/A; graph_dots() per row. */
static double level_of(double value, int height, double baseline, double bound) {
    if (isnan(value) || value < baseline || bound <= baseline) {
        return -1.0;
    }
    double ratio = (value - baseline) / (bound - baseline);
    double level = (double)height * (ratio < 1.0 ? ratio : 1.0);
    return level < 0.2 ? 0.2 : level; /* any known value shows at least a dot */
}

static int dots_at(double level, int row) {
    double dots = 5.0 * (level - (double)row);
    /* Rows well below or above the level need no rounding (most of a graph). */
    if (level < 0.0 || dots <= 0.5) {
        return 0;
    }
    if (dots >= 4.5) {
        return 4;
    }
    return clamp_dots((int)rint(dots)); /* half to even, as Python */
}

/* The cell of each (left, right) dot pair in style, built once per graph. */
static void make_cells(const struct canvas *canvas, bool upside_down, struct view_style style,
                       struct canvas_cell cells[5][5]) {
    for (int left = 0; left < 5; left++) {
        for (int right = 0; right < 5; right++) {
            const char *symbol = graph_symbol(left, right, upside_down);
            if (canvas_ascii(canvas) && symbol[0] != ' ') {
                symbol = "=";
            }
            cells[left][right] = canvas_cell_of(symbol, style);
        }
    }
}

void graph_draw(struct canvas *canvas, int y, int x, int width, int height,
                const struct history *history, const struct graph_options *options) {
    if (width <= 0 || height <= 0) {
        return;
    }
    width = width > GRAPH_MAX_WIDTH ? GRAPH_MAX_WIDTH : width;
    /* Each value's level once, then ready-made cells: a redraw costs a few nanoseconds a cell
     * (the metrics screen redraws four large graphs twice a second). */
    double levels[2 * GRAPH_MAX_WIDTH];
    for (int i = 0; i < 2 * width; i++) {
        levels[i] =
            level_of(history_at(history, (size_t)i), height, options->baseline, options->bound);
    }
    struct canvas_cell cells[5][5];
    make_cells(canvas, options->upside_down, options->style, cells);
    struct canvas_cell line[GRAPH_MAX_WIDTH];
    for (int row = 0; row < height; row++) {
        int screen_y = options->upside_down ? y + row : y + height - 1 - row;
        if (options->gradient_rows) {
            struct view_style style = options->style;
            double fraction = height > 1 ? (double)row / (double)(height - 1) : 1.0;
            style.color = (uint16_t)(VIEW_COLOR_GRADIENT_BASE + lround(1000.0 * fraction));
            make_cells(canvas, options->upside_down, style, cells);
        }
        for (int col = 0; col < width; col++) {
            /* Column width-1 holds the newest value on its right half. */
            int right_index = 2 * (width - 1 - col);
            line[col] =
                cells[dots_at(levels[right_index + 1], row)][dots_at(levels[right_index], row)];
        }
        canvas_put_cells(canvas, screen_y, x, line, width);
    }
}
