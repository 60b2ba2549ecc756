/*
 * Braille history graphs (see graph.h).
 */
#include "tui/widgets/graph.h"

#include <math.h>

#include "view/line.h"

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

void graph_draw(struct canvas *canvas, int y, int x, int width, int height,
                const struct history *history, const struct graph_options *options) {
    for (int row = 0; row < height; row++) {
        int screen_y = options->upside_down ? y + row : y + height - 1 - row;
        struct view_style style = options->style;
        if (options->gradient_rows) {
            double fraction = height > 1 ? (double)row / (double)(height - 1) : 1.0;
            style.color = (uint16_t)(VIEW_COLOR_GRADIENT_BASE + lround(1000.0 * fraction));
        }
        for (int col = 0; col < width; col++) {
            /* Column width-1 holds the newest value on its right half. */
            size_t right_index = (size_t)(2 * (width - 1 - col));
            double right = history_at(history, right_index);
            double left = history_at(history, right_index + 1);
            int left_dots = graph_dots(left, row, height, options->baseline, options->bound);
            int right_dots = graph_dots(right, row, height, options->baseline, options->bound);
            canvas_text(canvas, screen_y, x + col,
                        graph_symbol(left_dots, right_dots, options->upside_down), style);
        }
    }
}
