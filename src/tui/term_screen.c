/*
 * What the curses session shows: colour pairs for the view's styles, and the canvas copied to the
 * screen, only the cells that changed since the last frame (see term_screen.h).  With term.c, the
 * only files that include curses.
 */
#include "tui/term_screen.h"

#include <curses.h>
#include <langinfo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/utf8.h"

/* Colour pairs: 1..8 are the eight curses colours on the default (or theme) background, 9 is the
 * default foreground when the terminal has no default colours, and GRADIENT_PAIR_BASE + i is the
 * 256-colour cube entry 16 + i, registered on first use. */
enum {
    BASIC_PAIR_BASE = 1,
    THEME_PAIR = 9,
    LIGHT_REVERSE_PAIR_BASE = 10, /* 10..17: the eight colours on black, for --light */
    GRADIENT_PAIR_BASE = 18,
    CUBE_SIZE = 216
};

/* Colour state of the session and what the last frame put on the screen. */
static struct {
    bool default_colors;
    bool gradients;
    bool light;
    bool utf8; /* the locale's character set is UTF-8 */
    int background;
    int foreground;
    bool gradient_pair_ready[CUBE_SIZE];
    /* What the last term_screen_draw() put on the screen, to skip cells that did not change. */
    struct canvas_cell *shown;
    int shown_rows;
    int shown_cols;
} screen;

void term_screen_setup(const struct term_options *options) {
    screen.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    if (!has_colors() || start_color() == ERR) {
        return;
    }
    screen.light = options->light;
    screen.default_colors = use_default_colors() == OK;
    if (screen.default_colors) {
        screen.foreground = -1;
        screen.background = -1;
    } else {
        screen.foreground = options->light ? COLOR_BLACK : COLOR_WHITE;
        screen.background = options->light ? COLOR_WHITE : COLOR_BLACK;
        init_pair(THEME_PAIR, (short)screen.foreground, (short)screen.background);
        bkgdset(COLOR_PAIR(THEME_PAIR));
    }
    static const short curses_colors[8] = {COLOR_BLACK, COLOR_RED,     COLOR_GREEN, COLOR_YELLOW,
                                           COLOR_BLUE,  COLOR_MAGENTA, COLOR_CYAN,  COLOR_WHITE};
    for (int i = 0; i < 8; i++) {
        init_pair((short)(BASIC_PAIR_BASE + i), curses_colors[i], (short)screen.background);
        init_pair((short)(LIGHT_REVERSE_PAIR_BASE + i), curses_colors[i], COLOR_BLACK);
    }
    screen.gradients =
        options->colorful && COLORS >= 256 && COLOR_PAIRS >= GRADIENT_PAIR_BASE + CUBE_SIZE;
}

bool term_screen_gradients(void) {
    return screen.gradients;
}

/* nvitop's gradient: hue 0.5 * (1 - x) - 0.15 rounded to 1/160, HSV(h, 0.7, 0.8) -> RGB; here
 * mapped onto the 6x6x6 cube of 256-colour terminals, which every such terminal shares. */
static int gradient_cube_index(double fraction) {
    double hue = 0.5 * (1.0 - fraction) - 0.15;
    hue = round(hue * 160.0) / 160.0;
    hue -= floor(hue);
    double saturation = 0.7;
    double value = 0.8;
    double sector = hue * 6.0;
    int i = (int)floor(sector) % 6;
    double f = sector - floor(sector);
    double p = value * (1.0 - saturation);
    double q = value * (1.0 - saturation * f);
    double t = value * (1.0 - saturation * (1.0 - f));
    double rgb[6][3] = {{value, t, p}, {q, value, p}, {p, value, t},
                        {p, q, value}, {t, p, value}, {value, p, q}};
    int r = (int)lround(rgb[i][0] * 5.0);
    int g = (int)lround(rgb[i][1] * 5.0);
    int b = (int)lround(rgb[i][2] * 5.0);
    return 36 * r + 6 * g + b;
}

static int color_pair_for(uint16_t color) {
    if (color >= 1 && color <= 8) {
        return BASIC_PAIR_BASE + color - 1;
    }
    if (color >= VIEW_COLOR_GRADIENT_BASE) {
        double fraction = (color - VIEW_COLOR_GRADIENT_BASE) / 1000.0;
        fraction = fraction > 1.0 ? 1.0 : fraction;
        if (!screen.gradients) {
            /* Without 256 colours a gradient degrades to the three intensity colours. */
            int basic = fraction < 1.0 / 3.0   ? VIEW_COLOR_GREEN
                        : fraction < 2.0 / 3.0 ? VIEW_COLOR_YELLOW
                                               : VIEW_COLOR_RED;
            return BASIC_PAIR_BASE + basic - 1;
        }
        int index = gradient_cube_index(fraction);
        if (!screen.gradient_pair_ready[index]) {
            init_pair((short)(GRADIENT_PAIR_BASE + index), (short)(16 + index),
                      (short)screen.background);
            screen.gradient_pair_ready[index] = true;
        }
        return GRADIENT_PAIR_BASE + index;
    }
    return screen.default_colors ? 0 : THEME_PAIR;
}

/* With --light, a highlighted (reverse-video) coloured cell keeps dark text on the colour instead
 * of the light default background on it, as nvitop does (SPEC.md §3.13). */
static int style_pair(struct view_style style) {
    if (screen.light && (style.attrs & VIEW_ATTR_REVERSE) && style.color >= 1 && style.color <= 8) {
        return LIGHT_REVERSE_PAIR_BASE + style.color - 1;
    }
    return color_pair_for(style.color);
}

static attr_t attributes_for(struct view_style style) {
    static const struct {
        unsigned view;
        attr_t curses;
    } map[] = {
        {VIEW_ATTR_BOLD, A_BOLD},           {VIEW_ATTR_DIM, A_DIM},
        {VIEW_ATTR_UNDERLINE, A_UNDERLINE}, {VIEW_ATTR_BLINK, A_BLINK},
        {VIEW_ATTR_REVERSE, A_REVERSE},     {VIEW_ATTR_ITALIC, A_ITALIC},
        {VIEW_ATTR_STANDOUT, A_STANDOUT},
    };
    attr_t attrs = A_NORMAL;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if ((style.attrs & map[i].view) != 0) {
            attrs |= map[i].curses;
        }
    }
    return attrs;
}

/* The cell as curses wants it: the code points of its UTF-8 text (a character and its combining
 * marks, as many as curses keeps) with the attributes and colour pair of its style.  Under a
 * UTF-8 locale wchar_t holds code points and the text is decoded here; otherwise the C library
 * converts it, and text the locale cannot show becomes '?'. */
static void to_cchar(const struct canvas_cell *cell, cchar_t *out) {
    wchar_t text[CCHARW_MAX + 1];
    size_t count = 0;
    mbstate_t state;
    memset(&state, 0, sizeof(state));
    for (size_t i = 0; i < cell->len && count < CCHARW_MAX;) {
        size_t n;
        if (screen.utf8) {
            uint32_t cp;
            n = utf8_decode(cell->text + i, cell->len - i, &cp);
            if (cp == UTF8_INVALID) {
                break;
            }
            text[count++] = (wchar_t)cp;
        } else {
            wchar_t wc;
            n = mbrtowc(&wc, cell->text + i, cell->len - i, &state);
            if (n == 0 || n > cell->len - i) {
                break; /* NUL, invalid or truncated: what was decoded stays */
            }
            text[count++] = wc;
        }
        i += n;
    }
    if (count == 0) {
        text[count++] = L'?';
    }
    text[count] = L'\0';
    attr_t attrs = attributes_for(cell->style);
    short pair = (short)style_pair(cell->style);
    if (setcchar(out, text, attrs, pair, NULL) == ERR) {
        setcchar(out, L"?", attrs, pair, NULL);
    }
}

/* Draw cells [col, end) of a row (curses fills the right half of a wide character itself). */
static void draw_span(const struct canvas_cell *cells, int row, int col, int end) {
    cchar_t run[256];
    int start = col;
    size_t count = 0;
    for (; col < end; col++) {
        const struct canvas_cell *cell = &cells[col];
        if (cell->width == 0) {
            continue;
        }
        if (count == sizeof(run) / sizeof(run[0])) {
            mvadd_wchnstr(row, start, run, (int)count);
            start = col;
            count = 0;
        }
        to_cchar(cell, &run[count++]);
    }
    if (count > 0) {
        mvadd_wchnstr(row, start, run, (int)count);
    }
}

/*
 * The columns [*first, *last] of row that differ from what is on the screen (*first > *last when
 * none), recorded as shown.  The span never starts on the right half of a wide character and
 * never ends on its left half, so that curses gets whole characters.  Cells are compared as bytes
 * (canvas.h keeps them canonical); most rows of a frame did not change and are one memcmp().
 */
static void changed_span(const struct canvas *canvas, int row, int cols, int *first, int *last) {
    const struct canvas_cell *cells = canvas_row(canvas, row);
    *first = 0;
    *last = cols - 1;
    if (screen.shown == NULL) {
        return;
    }
    struct canvas_cell *shown = &screen.shown[(size_t)row * (size_t)screen.shown_cols];
    size_t bytes = (size_t)cols * sizeof(*cells);
    if (memcmp(cells, shown, bytes) == 0) {
        *first = cols;
        *last = -1;
        return;
    }
    while (memcmp(&cells[*first], &shown[*first], sizeof(*cells)) == 0) {
        (*first)++;
    }
    while (memcmp(&cells[*last], &shown[*last], sizeof(*cells)) == 0) {
        (*last)--;
    }
    memcpy(&shown[*first], &cells[*first], (size_t)(*last - *first + 1) * sizeof(*cells));
    while (*first > 0 && cells[*first].width == 0) {
        (*first)--;
    }
    if (*last + 1 < cols && cells[*last].width == 2) {
        (*last)++;
    }
}

/* Forget what is shown when the size changes (or the shadow cannot be allocated: then every row
 * is drawn every time). */
static void fit_shadow(int rows, int cols) {
    if (screen.shown_rows == rows && screen.shown_cols == cols && screen.shown != NULL) {
        return;
    }
    free(screen.shown);
    screen.shown = calloc((size_t)rows * (size_t)cols, sizeof(*screen.shown));
    screen.shown_rows = rows;
    screen.shown_cols = cols;
    if (screen.shown != NULL) {
        /* No cell is ever zero-width with length 0 at the start of a row: all rows differ. */
        for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) {
            screen.shown[i].width = 0xFF;
        }
    }
}

void term_screen_draw(const struct canvas *canvas) {
    int rows = canvas_rows(canvas) < LINES ? canvas_rows(canvas) : LINES;
    int cols = canvas_cols(canvas) < COLS ? canvas_cols(canvas) : COLS;
    fit_shadow(rows, cols);
    bool any = false;
    for (int row = 0; row < rows; row++) {
        /* curses diffs too, but only after every cell was handed to it: handing it only the
         * cells that changed (often a few digits of a row) is what keeps the monitor cheap. */
        int first = 0;
        int last = -1;
        changed_span(canvas, row, cols, &first, &last);
        if (first <= last) {
            draw_span(canvas_row(canvas, row), row, first, last + 1);
            any = true;
        }
    }
    if (any) {
        attr_set(A_NORMAL, 0, NULL);
        refresh();
    }
}

void term_screen_forget(void) {
    screen.shown_rows = 0;
}

void term_screen_reset(void) {
    memset(screen.gradient_pair_ready, 0, sizeof(screen.gradient_pair_ready));
    free(screen.shown);
    screen.shown = NULL;
    screen.shown_rows = screen.shown_cols = 0;
}
