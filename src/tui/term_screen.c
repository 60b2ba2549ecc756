/*
 * What the screen shows (see term_screen.h).  The canvas is copied to the terminal by hand: only
 * the cells that changed since the last frame, each changed run of a row behind one cursor
 * address, with the terminal's own terminfo strings for cursor addressing, attributes and
 * colours, and the whole frame in one write().  curses keeps the terminal modes, the keyboard and
 * the mouse; it is never asked to refresh after the first, blank screen (why, in
 * docs/architecture.md), and term.c keeps the size.  With term.c, the only files that include
 * curses.
 */
#include "tui/term_screen.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "util/array.h"
#include "util/text/strbuf.h"

enum {
    CUBE_SIZE = 216,  /* the 6x6x6 colour cube of 256-colour terminals, from index 16 */
    PALETTE = 256,    /* colour indices we may emit */
    GRADIENTS = 1001, /* VIEW_COLOR_GRADIENT_BASE + 0 .. 1000 */
    SEQ_MAX = 32      /* room for one expanded colour sequence */
};

/* The view's attributes, in the order of attr_caps. */
static const unsigned view_attrs[] = {VIEW_ATTR_BOLD,    VIEW_ATTR_DIM,     VIEW_ATTR_UNDERLINE,
                                      VIEW_ATTR_BLINK,   VIEW_ATTR_REVERSE, VIEW_ATTR_ITALIC,
                                      VIEW_ATTR_STANDOUT};
static const char *const attr_cap_names[] = {"bold", "dim", "smul", "blink", "rev", "sitm", "smso"};
#define ATTR_COUNT (ARRAY_SIZE(view_attrs))

/* How a cell looks on the terminal: colour indices (-1 for the terminal's default) and the view's
 * attribute bits. */
struct look {
    int fg;
    int bg;
    unsigned attrs;
};

/* The screen state of the session: file-scope, like term.c's session, since curses keeps one
 * terminal per process (CONTRIBUTING.md, "Style"). */
static struct {
    bool utf8;         /* the locale's character set is UTF-8 */
    bool light;        /* --light */
    bool colors;       /* the terminal has colours (setaf) */
    bool gradients;    /* 256 colours and --colorful */
    bool last_cell_ok; /* writing the bottom-right cell does not scroll */
    int foreground;    /* default foreground: -1, or the theme's without default colours */
    int background;    /* likewise the background */
    const char *cup;   /* cursor address */
    bool ansi_cup;     /* cup is ECMA-48's CSI row;col H, written without tiparm() */
    const char *clear; /* clear the screen */
    const char *sgr0;  /* all attributes off */
    const char *op;    /* default colours back */
    const char *setaf; /* foreground colour */
    const char *setab; /* background colour */
    const char *attr_on[ATTR_COUNT];
    char fg_seq[PALETTE][SEQ_MAX]; /* expanded setaf / setab per index, "" until first use */
    char bg_seq[PALETTE][SEQ_MAX];
    short gradient_index[GRADIENTS]; /* cube index + 1 per gradient colour, 0 until computed */
    struct strbuf out;               /* the frame being written */
    bool out_failed;                 /* an append ran out of memory: redraw everything next */
    /* What the last term_screen_draw() put on the screen, to skip cells that did not change. */
    struct canvas_cell *shown;
    int shown_rows;
    int shown_cols;
    uint32_t shown_generation; /* canvas_clusters_generation() of the canvas (one a session) */
} screen;

/* A terminfo string of the terminal, or NULL when it has none. */
static const char *capability(const char *name) {
    const char *value = tigetstr(name);
    return value == NULL || value == (const char *)-1 || value[0] == '\0' ? NULL : value;
}

bool term_screen_setup(const struct term_options *options) {
    screen.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    screen.light = options->light;
    screen.cup = capability("cup");
    if (screen.cup == NULL) {
        return false;
    }
    screen.ansi_cup = strcmp(screen.cup, "\033[%i%p1%d;%p2%dH") == 0;
    screen.clear = capability("clear");
    screen.sgr0 = capability("sgr0");
    screen.op = capability("op");
    for (size_t i = 0; i < ATTR_COUNT; i++) {
        screen.attr_on[i] = capability(attr_cap_names[i]);
    }
    /* With automatic margins and no newline glitch, a character in the bottom-right cell makes
     * the terminal scroll; such terminals keep that cell blank. */
    screen.last_cell_ok = tigetflag("am") <= 0 || tigetflag("xenl") > 0;
    screen.foreground = screen.background = -1;
    screen.setaf = capability("setaf");
    screen.setab = capability("setab");
    screen.colors = screen.setaf != NULL && has_colors() && start_color() != ERR;
    if (screen.colors && use_default_colors() != OK) {
        screen.foreground = options->light ? COLOR_BLACK : COLOR_WHITE;
        screen.background = options->light ? COLOR_WHITE : COLOR_BLACK;
    }
    screen.gradients = screen.colors && options->colorful && COLORS >= 256;
    return true;
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

/* The colour index of a view colour, -1 for the default. */
static int color_index(uint16_t color) {
    if (color >= VIEW_COLOR_BLACK && color <= VIEW_COLOR_WHITE) {
        return color - VIEW_COLOR_BLACK; /* curses' COLOR_BLACK .. COLOR_WHITE are 0 .. 7 */
    }
    if (color >= VIEW_COLOR_GRADIENT_BASE) {
        int step = color - VIEW_COLOR_GRADIENT_BASE;
        step = step > GRADIENTS - 1 ? GRADIENTS - 1 : step;
        if (!screen.gradients) {
            /* Without 256 colours a gradient degrades to the three intensity colours. */
            int basic = step * 3 < GRADIENTS - 1         ? VIEW_COLOR_GREEN
                        : step * 3 < 2 * (GRADIENTS - 1) ? VIEW_COLOR_YELLOW
                                                         : VIEW_COLOR_RED;
            return basic - VIEW_COLOR_BLACK;
        }
        if (screen.gradient_index[step] == 0) {
            double fraction = step / (double)(GRADIENTS - 1);
            screen.gradient_index[step] = (short)(gradient_cube_index(fraction) + 1);
        }
        return 16 + screen.gradient_index[step] - 1;
    }
    return screen.foreground;
}

static struct look look_of(struct view_style style) {
    struct look look = {screen.foreground, screen.background, style.attrs};
    if (!screen.colors) {
        look.fg = look.bg = -1;
        return look;
    }
    look.fg = color_index(style.color);
    /* With --light, a highlighted (reverse-video) coloured cell keeps dark text on the colour
     * instead of the light default background on it, as nvitop does (docs/nvitop-behaviour.md
     * §3.13). */
    if (screen.light && (style.attrs & VIEW_ATTR_REVERSE) && style.color >= VIEW_COLOR_BLACK &&
        style.color <= VIEW_COLOR_WHITE) {
        look.bg = COLOR_BLACK;
    }
    /* A background of its own (the kill box's chosen button, the tree view's signal hint). */
    if (style.bg >= VIEW_COLOR_BLACK && style.bg <= VIEW_COLOR_WHITE) {
        look.bg = style.bg - VIEW_COLOR_BLACK;
    }
    return look;
}

static bool same_look(struct look a, struct look b) {
    return a.fg == b.fg && a.bg == b.bg && a.attrs == b.attrs;
}

static void put(const char *text, size_t len) {
    if (!strbuf_append(&screen.out, text, len)) {
        screen.out_failed = true;
    }
}

static void put_str(const char *text) {
    if (text != NULL) {
        put(text, strlen(text));
    }
}

/* tputs() hands out characters through a callback without a context: into the frame. */
static int put_padded_char(int c) {
    char ch = (char)c;
    put(&ch, 1);
    return c;
}

/* A terminfo string as the terminal should get it: most are plain bytes, but some entries (vt100
 * and its kin) carry padding specifications "$<5>" that only tputs() may interpret. */
static void put_cap(const char *cap) {
    if (cap == NULL) {
        return;
    }
    if (strstr(cap, "$<") == NULL) {
        put_str(cap);
    } else {
        tputs(cap, 1, put_padded_char);
    }
}

/* setaf / setab expanded for index, kept in cache ("" when the terminal cannot). */
static const char *color_sequence(const char *cap, char cache[PALETTE][SEQ_MAX], int index) {
    if (cap == NULL || index < 0 || index >= PALETTE) {
        return "";
    }
    if (cache[index][0] == '\0') {
        const char *seq = tiparm(cap, index);
        if (seq != NULL && strlen(seq) < SEQ_MAX) {
            strcpy(cache[index], seq);
        }
    }
    return cache[index];
}

/* Go from the look in force to look with the fewest strings: everything off only when an
 * attribute goes away (terminals have no single "attribute off" for each), the default colours
 * back only when a colour becomes the default. */
static void change_look(struct look *current, struct look look) {
    bool to_default = (look.fg < 0 && current->fg >= 0) || (look.bg < 0 && current->bg >= 0);
    /* Without op, sgr0 is the only way back to the default colours. */
    bool reset = (current->attrs & ~look.attrs) != 0 || (to_default && screen.op == NULL);
    if (reset) {
        put_cap(screen.sgr0);
        if (screen.colors) {
            put_cap(screen.op); /* sgr0 need not reset the colours everywhere; op does */
        }
        *current = (struct look){-1, -1, 0};
    } else if (to_default) {
        put_cap(screen.op);
        current->fg = current->bg = -1;
    }
    for (size_t i = 0; i < ATTR_COUNT; i++) {
        if ((look.attrs & view_attrs[i]) != 0 && (current->attrs & view_attrs[i]) == 0) {
            put_cap(screen.attr_on[i]);
        }
    }
    if (look.fg >= 0 && look.fg != current->fg) {
        put_cap(color_sequence(screen.setaf, screen.fg_seq, look.fg));
    }
    if (look.bg >= 0 && look.bg != current->bg) {
        put_cap(color_sequence(screen.setab, screen.bg_seq, look.bg));
    }
    *current = look;
}

/* The text of a cell as the terminal should get it: its UTF-8 bytes, or '?' per column where the
 * locale is not UTF-8 and the character is not ASCII. */
static void put_cell_text(const struct canvas *canvas, const struct canvas_cell *cell) {
    if (screen.utf8 || canvas_cell_is_ascii(cell)) {
        char text[CANVAS_CELL_TEXT];
        put(text, canvas_cell_text(canvas, cell, text));
    } else {
        put("??", canvas_cell_width(cell) == 2 ? 2 : 1);
    }
}

/* Append the decimal digits of value (>= 0) to text; returns the new end. */
static char *put_digits(char *text, int value) {
    char digits[12];
    int n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (n > 0) {
        *text++ = digits[--n];
    }
    return text;
}

/* Move the cursor to (row, col), 0-based. */
static void put_cursor(int row, int col) {
    if (!screen.ansi_cup) {
        put_cap(tiparm(screen.cup, row, col));
        return;
    }
    /* What tiparm() makes of the common "\E[%i%p1%d;%p2%dH", for a fraction of its cost. */
    char text[32] = "\033[";
    char *end = put_digits(text + 2, row + 1);
    *end++ = ';';
    end = put_digits(end, col + 1);
    *end++ = 'H';
    put(text, (size_t)(end - text));
}

/* Cells [col, end) of a row, behind one cursor address; *current is the look in force. */
static void put_span(const struct canvas *canvas, const struct canvas_cell *cells, int row, int col,
                     int end, struct look *current) {
    put_cursor(row, col);
    for (; col < end; col++) {
        const struct canvas_cell *cell = &cells[col];
        if (canvas_cell_width(cell) == 0) {
            continue; /* the right half of a wide character, which the terminal fills */
        }
        struct look look = look_of(cell->style);
        if (!same_look(look, *current)) {
            change_look(current, look);
        }
        put_cell_text(canvas, cell);
    }
}

/* Unchanged cells shorter than this between two changes are written again rather than skipped
 * with a cursor address (which takes about as many bytes). */
#define SKIP_MIN 8

static bool same_cell(const struct canvas_cell *a, const struct canvas_cell *b) {
    return memcmp(a, b, sizeof(*a)) == 0;
}

/*
 * Write what changed in a row since the last frame and record it as shown: runs of changed cells
 * (bridging short unchanged gaps), each behind a cursor address.  A run never starts on the right
 * half of a wide character nor ends on its left half, so that the terminal gets whole characters.
 * Cells are compared as bytes (canvas.h keeps them canonical); most rows of a frame did not change
 * and cost one memcmp().  The bottom-right cell is left alone where writing it would scroll.
 */
static void put_row_changes(const struct canvas *canvas, int row, int cols, bool last_row,
                            struct look *current) {
    const struct canvas_cell *cells = canvas_row(canvas, row);
    struct canvas_cell *shown = &screen.shown[(size_t)row * (size_t)screen.shown_cols];
    if (memcmp(cells, shown, (size_t)cols * sizeof(*cells)) == 0) {
        return;
    }
    int limit = cols;
    if (last_row && !screen.last_cell_ok) {
        limit = cols - 1;
    }
    int col = 0;
    while (col < limit) {
        while (col < limit && same_cell(&cells[col], &shown[col])) {
            col++;
        }
        if (col >= limit) {
            break;
        }
        int start = col;
        int end = col; /* the last changed cell of the run */
        for (int next = col + 1; next < limit && next - end <= SKIP_MIN; next++) {
            if (!same_cell(&cells[next], &shown[next])) {
                end = next;
            }
        }
        while (start > 0 && canvas_cell_width(&cells[start]) == 0) {
            start--;
        }
        if (end + 1 < limit && canvas_cell_width(&cells[end]) == 2) {
            end++;
        }
        memcpy(&shown[start], &cells[start], (size_t)(end - start + 1) * sizeof(*cells));
        put_span(canvas, cells, row, start, end + 1, current);
        col = end + 1;
    }
}

/* A shadow of rows x cols where no cell matches a canvas cell (CANVAS_GLYPH_NONE), so that the
 * next frame is drawn whole; false when out of memory. */
static bool reset_shadow(int rows, int cols) {
    if (screen.shown == NULL || screen.shown_rows != rows || screen.shown_cols != cols) {
        free(screen.shown);
        screen.shown = calloc((size_t)rows * (size_t)cols, sizeof(*screen.shown));
        if (screen.shown == NULL) {
            screen.shown_rows = screen.shown_cols = 0;
            return false;
        }
    }
    screen.shown_rows = rows;
    screen.shown_cols = cols;
    static const struct canvas_cell unknown = {.glyph = CANVAS_GLYPH_NONE};
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) {
        screen.shown[i] = unknown;
    }
    return true;
}

/* Write the frame; a terminal that went away (EIO, EPIPE) is left to the hangup signal. */
static void write_out(void) {
    const char *data = screen.out.data;
    size_t left = screen.out.len;
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, data, left);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        data += n;
        left -= (size_t)n;
    }
    strbuf_clear(&screen.out);
}

void term_screen_draw(const struct canvas *canvas, int term_rows, int term_cols) {
    int rows = canvas_rows(canvas) < term_rows ? canvas_rows(canvas) : term_rows;
    int cols = canvas_cols(canvas) < term_cols ? canvas_cols(canvas) : term_cols;
    bool whole = screen.shown == NULL || screen.shown_rows != rows || screen.shown_cols != cols;
    if (whole && !reset_shadow(rows, cols)) {
        return; /* out of memory: try again next frame */
    }
    if (whole) {
        put_cap(screen.clear);
    }
    /* The canvas renewed its table of clusters: an index in shown may now stand for another
     * text, so those cells are drawn again. */
    uint32_t generation = canvas_clusters_generation(canvas);
    if (generation != screen.shown_generation) {
        canvas_cells_forget_clusters(screen.shown, (size_t)rows * (size_t)cols);
        screen.shown_generation = generation;
    }
    /* The terminal's attributes are all off between frames (see the end of this function). */
    struct look current = {-1, -1, 0};
    for (int row = 0; row < rows; row++) {
        bool last_row = row == term_rows - 1 && cols == term_cols;
        put_row_changes(canvas, row, cols, last_row, &current);
    }
    /* Leave the terminal with everything off between frames, as curses believes it is. */
    change_look(&current, (struct look){-1, -1, 0});
    if (screen.out_failed) {
        /* Out of memory mid-frame: drop it and draw everything again next time. */
        strbuf_clear(&screen.out);
        screen.out_failed = false;
        term_screen_forget();
        return;
    }
    write_out();
    if (whole) {
        /* A whole screen takes several times the room of a usual frame's changes: let it go
         * rather than keep it for the next resize (term.c hands the heap's free pages back). */
        strbuf_fini(&screen.out);
    }
}

void term_screen_forget(void) {
    screen.shown_rows = 0;
}

void term_screen_reset(void) {
    strbuf_fini(&screen.out);
    free(screen.shown);
    screen.shown = NULL;
    screen.shown_rows = screen.shown_cols = 0;
    memset(screen.fg_seq, 0, sizeof(screen.fg_seq));
    memset(screen.bg_seq, 0, sizeof(screen.bg_seq));
    memset(screen.gradient_index, 0, sizeof(screen.gradient_index));
}
