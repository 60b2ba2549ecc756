/*
 * The curses session: the only file that includes curses (see term.h and SPEC.md §3.1).
 */
#include "tui/term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

/* The one curses session of the process.  Signal handlers only touch the volatile flags and write
 * to the wake-up pipe. */
static struct {
    bool active;
    bool default_colors;
    bool gradients;
    bool light;
    int background;
    int foreground;
    bool gradient_pair_ready[CUBE_SIZE];
    /* What the last term_draw() put on the screen, to skip rows that did not change. */
    struct canvas_cell *shown;
    int shown_rows;
    int shown_cols;
    int wake_pipe[2];
    SCREEN *screen;
    struct sigaction old_int;
    struct sigaction old_winch;
    struct sigaction old_fatal[8];
} session = {.wake_pipe = {-1, -1}};

static volatile sig_atomic_t interrupt_pending;
static volatile sig_atomic_t resize_pending;

static const int fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
                                    SIGABRT, SIGTERM, SIGHUP, SIGQUIT};

static void wake(void) {
    int saved = errno;
    if (session.wake_pipe[1] >= 0) {
        ssize_t written = write(session.wake_pipe[1], "x", 1);
        (void)written; /* A full pipe already guarantees a wake-up. */
    }
    errno = saved;
}

static void on_interrupt(int signo) {
    (void)signo;
    interrupt_pending = 1;
    wake();
}

static void on_resize(int signo) {
    (void)signo;
    resize_pending = 1;
    wake();
}

/* Restore the terminal, then die of the same signal with its default action. */
static void on_fatal(int signo) {
    term_emergency_stop();
    signal(signo, SIG_DFL);
    raise(signo);
}

static void install_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_interrupt;
    sigaction(SIGINT, &action, &session.old_int);
    action.sa_handler = on_resize;
    sigaction(SIGWINCH, &action, &session.old_winch);
    action.sa_handler = on_fatal;
    action.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
        sigaction(fatal_signals[i], &action, &session.old_fatal[i]);
    }
}

static void restore_handlers(void) {
    sigaction(SIGINT, &session.old_int, NULL);
    sigaction(SIGWINCH, &session.old_winch, NULL);
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
        sigaction(fatal_signals[i], &session.old_fatal[i], NULL);
    }
}

static bool open_wake_pipe(void) {
    if (pipe2(session.wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        session.wake_pipe[0] = session.wake_pipe[1] = -1;
        return false;
    }
    return true;
}

static void close_wake_pipe(void) {
    for (int i = 0; i < 2; i++) {
        if (session.wake_pipe[i] >= 0) {
            close(session.wake_pipe[i]);
            session.wake_pipe[i] = -1;
        }
    }
}

static void setup_colors(const struct term_options *options) {
    if (!has_colors() || start_color() == ERR) {
        return;
    }
    session.light = options->light;
    session.default_colors = use_default_colors() == OK;
    if (session.default_colors) {
        session.foreground = -1;
        session.background = -1;
    } else {
        session.foreground = options->light ? COLOR_BLACK : COLOR_WHITE;
        session.background = options->light ? COLOR_WHITE : COLOR_BLACK;
        init_pair(THEME_PAIR, (short)session.foreground, (short)session.background);
        bkgdset(COLOR_PAIR(THEME_PAIR));
    }
    static const short curses_colors[8] = {COLOR_BLACK, COLOR_RED,     COLOR_GREEN, COLOR_YELLOW,
                                           COLOR_BLUE,  COLOR_MAGENTA, COLOR_CYAN,  COLOR_WHITE};
    for (int i = 0; i < 8; i++) {
        init_pair((short)(BASIC_PAIR_BASE + i), curses_colors[i], (short)session.background);
        init_pair((short)(LIGHT_REVERSE_PAIR_BASE + i), curses_colors[i], COLOR_BLACK);
    }
    session.gradients =
        options->colorful && COLORS >= 256 && COLOR_PAIRS >= GRADIENT_PAIR_BASE + CUBE_SIZE;
}

int term_start(const struct term_options *options, char *error, size_t error_size) {
    if (session.active) {
        snprintf(error, error_size, "curses is already running");
        return -1;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(error, error_size, "not a terminal");
        return -1;
    }
    /* A lone Esc must be told from an escape sequence quickly (25 ms, as nvitop sets it). */
    setenv("ESCDELAY", "25", 0);
    const char *term = getenv("TERM");
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) {
        snprintf(error, error_size, "setupterm: could not find terminal %s",
                 term != NULL ? term : "(unset)");
        return -1;
    }
    set_term(screen);
    /* ncurses (6.4) flushes its output after every cursor movement until the screen has once
     * been suspended and resumed, so that each changed run of a frame went out in its own
     * write(): 30 to 60 per frame, each waking the terminal.  One suspend and resume now, before
     * the terminal modes are set (a resume does not restore the keypad mode), makes a frame one
     * write from then on. */
    endwin();
    refresh();
    if (!open_wake_pipe()) {
        endwin();
        delscreen(screen);
        snprintf(error, error_size, "pipe: %s", strerror(errno));
        return -1;
    }
    session.active = true;
    session.screen = screen;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    /* Without this, curses polls the keyboard before every changed line (to abandon an update
     * when a key is waiting).  Our frames are small and keys are read right after each one. */
    typeahead(-1);
    leaveok(stdscr, TRUE);
    curs_set(0);
    mousemask(ALL_MOUSE_EVENTS, NULL);
    mouseinterval(0);
    setup_colors(options);
    install_handlers();
    clear();
    return 0;
}

void term_stop(void) {
    if (!session.active) {
        return;
    }
    session.active = false;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    delscreen(session.screen);
    session.screen = NULL;
    restore_handlers();
    close_wake_pipe();
    memset(session.gradient_pair_ready, 0, sizeof(session.gradient_pair_ready));
    free(session.shown);
    session.shown = NULL;
    session.shown_rows = session.shown_cols = 0;
}

void term_emergency_stop(void) {
    if (!session.active) {
        return;
    }
    session.active = false;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
}

void term_size(int *rows, int *cols) {
    *rows = LINES;
    *cols = COLS;
}

bool term_has_gradients(void) {
    return session.gradients;
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
        if (!session.gradients) {
            /* Without 256 colours a gradient degrades to the three intensity colours. */
            int basic = fraction < 1.0 / 3.0   ? VIEW_COLOR_GREEN
                        : fraction < 2.0 / 3.0 ? VIEW_COLOR_YELLOW
                                               : VIEW_COLOR_RED;
            return BASIC_PAIR_BASE + basic - 1;
        }
        int index = gradient_cube_index(fraction);
        if (!session.gradient_pair_ready[index]) {
            init_pair((short)(GRADIENT_PAIR_BASE + index), (short)(16 + index),
                      (short)session.background);
            session.gradient_pair_ready[index] = true;
        }
        return GRADIENT_PAIR_BASE + index;
    }
    return session.default_colors ? 0 : THEME_PAIR;
}

/* With --light, a highlighted (reverse-video) coloured cell keeps dark text on the colour instead
 * of the light default background on it, as nvitop does (SPEC.md §3.13). */
static int style_pair(struct view_style style) {
    if (session.light && (style.attrs & VIEW_ATTR_REVERSE) && style.color >= 1 &&
        style.color <= 8) {
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

static bool same_style(struct view_style a, struct view_style b) {
    return a.color == b.color && a.attrs == b.attrs;
}

/* Draw cells [col, end) of a row, in runs of one style. */
static void draw_span(const struct canvas *canvas, int row, int col, int end) {
    char run[1024];
    while (col < end) {
        const struct canvas_cell *first = canvas_cell(canvas, row, col);
        int start = col;
        size_t len = 0;
        while (col < end) {
            const struct canvas_cell *cell = canvas_cell(canvas, row, col);
            if (!same_style(cell->style, first->style) || len + cell->len >= sizeof(run)) {
                break;
            }
            memcpy(run + len, cell->text, cell->len);
            len += cell->len;
            col++;
        }
        attr_set(attributes_for(first->style), (short)style_pair(first->style), NULL);
        /* Writing the bottom-right cell makes curses report an error it has already handled. */
        mvaddnstr(row, start, run, (int)len);
    }
}

static bool same_cell(const struct canvas_cell *a, const struct canvas_cell *b) {
    return a->len == b->len && a->width == b->width && same_style(a->style, b->style) &&
           memcmp(a->text, b->text, a->len) == 0;
}

/*
 * The columns [*first, *last] of row that differ from what is on the screen (*first > *last when
 * none), recorded as shown.  The span never starts on the right half of a wide character and
 * never ends on its left half, so that curses gets whole characters.
 */
static void changed_span(const struct canvas *canvas, int row, int cols, int *first, int *last) {
    *first = 0;
    *last = cols - 1;
    if (session.shown == NULL) {
        return;
    }
    *first = cols;
    *last = -1;
    struct canvas_cell *shown = &session.shown[(size_t)row * (size_t)session.shown_cols];
    for (int col = 0; col < cols; col++) {
        const struct canvas_cell *cell = canvas_cell(canvas, row, col);
        if (!same_cell(cell, &shown[col])) {
            shown[col] = *cell;
            *first = col < *first ? col : *first;
            *last = col;
        }
    }
    while (*first > 0 && *first <= *last && canvas_cell(canvas, row, *first)->width == 0) {
        (*first)--;
    }
    if (*last >= 0 && *last + 1 < cols && canvas_cell(canvas, row, *last)->width == 2) {
        (*last)++;
    }
}

/* Forget what is shown when the size changes (or the shadow cannot be allocated: then every row
 * is drawn every time). */
static void fit_shadow(int rows, int cols) {
    if (session.shown_rows == rows && session.shown_cols == cols && session.shown != NULL) {
        return;
    }
    free(session.shown);
    session.shown = calloc((size_t)rows * (size_t)cols, sizeof(*session.shown));
    session.shown_rows = rows;
    session.shown_cols = cols;
    if (session.shown != NULL) {
        /* No cell is ever zero-width with length 0 at the start of a row: all rows differ. */
        for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) {
            session.shown[i].width = 0xFF;
        }
    }
}

void term_draw(const struct canvas *canvas) {
    if (!session.active) {
        return;
    }
    int rows = canvas_rows(canvas) < LINES ? canvas_rows(canvas) : LINES;
    int cols = canvas_cols(canvas) < COLS ? canvas_cols(canvas) : COLS;
    fit_shadow(rows, cols);
    bool any = false;
    for (int row = 0; row < rows; row++) {
        /* curses diffs too, but only after every cell went through its wide-character
         * conversion: handing it only the cells that changed (often a few digits of a row) is
         * what keeps the monitor cheap. */
        int first = 0;
        int last = -1;
        changed_span(canvas, row, cols, &first, &last);
        if (first <= last) {
            draw_span(canvas, row, first, last + 1);
            any = true;
        }
    }
    if (any) {
        attr_set(A_NORMAL, 0, NULL);
        refresh();
    }
}

size_t term_poll_fds(int *fds, size_t max) {
    size_t count = 0;
    if (count < max) {
        fds[count++] = STDIN_FILENO;
    }
    if (count < max && session.wake_pipe[0] >= 0) {
        fds[count++] = session.wake_pipe[0];
    }
    return count;
}

static void drain_wake_pipe(void) {
    char buf[64];
    while (session.wake_pipe[0] >= 0 && read(session.wake_pipe[0], buf, sizeof(buf)) > 0) {
    }
}

/* Apply a pending SIGWINCH: ask the kernel for the size and tell curses. */
static void apply_resize(void) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        resizeterm(size.ws_row, size.ws_col);
    }
}

static int translate_key(int code) {
    switch (code) {
    case KEY_UP:
        return TUI_KEY_UP;
    case KEY_DOWN:
        return TUI_KEY_DOWN;
    case KEY_LEFT:
        return TUI_KEY_LEFT;
    case KEY_RIGHT:
        return TUI_KEY_RIGHT;
    case KEY_HOME:
        return TUI_KEY_HOME;
    case KEY_END:
        return TUI_KEY_END;
    case KEY_PPAGE:
        return TUI_KEY_PAGE_UP;
    case KEY_NPAGE:
        return TUI_KEY_PAGE_DOWN;
    case KEY_BTAB:
        return TUI_KEY_BACK_TAB;
    case KEY_ENTER:
        return TUI_KEY_ENTER;
    default:
        return code == KEY_F(5) ? TUI_KEY_F5 : TUI_KEY_OTHER;
    }
}

static bool read_mouse(struct tui_event *event) {
    MEVENT mouse;
    if (getmouse(&mouse) != OK) {
        return false;
    }
    unsigned buttons = 0;
    if (mouse.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON3_PRESSED | BUTTON3_CLICKED)) {
        buttons |= TUI_MOUSE_PRESS;
    }
    if (mouse.bstate & BUTTON4_PRESSED) {
        buttons |= TUI_MOUSE_WHEEL_UP;
    }
#ifdef BUTTON5_PRESSED
    if (mouse.bstate & BUTTON5_PRESSED) {
        buttons |= TUI_MOUSE_WHEEL_DOWN;
    }
#endif
    if (buttons == 0) {
        return false;
    }
    if (mouse.bstate & BUTTON_SHIFT) {
        buttons |= TUI_MOUSE_SHIFT;
    }
    if (mouse.bstate & BUTTON_CTRL) {
        buttons |= TUI_MOUSE_CTRL;
    }
    event->type = TUI_EVENT_MOUSE;
    event->y = mouse.y;
    event->x = mouse.x;
    event->buttons = buttons;
    return true;
}

/* Read one character or key code; false when the input is empty. */
static bool read_code(wint_t *code, bool *is_key) {
    int status = get_wch(code);
    if (status == ERR) {
        return false;
    }
    *is_key = status == KEY_CODE_YES;
    return true;
}

bool term_read_event(struct tui_event *event) {
    memset(event, 0, sizeof(*event));
    if (!session.active) {
        return false;
    }
    drain_wake_pipe();
    if (resize_pending) {
        resize_pending = 0;
        apply_resize();
        session.shown_rows = 0; /* redraw every row */
        event->type = TUI_EVENT_RESIZE;
        return true;
    }
    if (interrupt_pending) {
        interrupt_pending = 0;
        event->type = TUI_EVENT_KEY;
        event->key = TUI_KEY_CTRL_C;
        return true;
    }
    for (;;) {
        wint_t code;
        bool is_key;
        if (!read_code(&code, &is_key)) {
            return false;
        }
        if (is_key && code == KEY_RESIZE) {
            session.shown_rows = 0;
            event->type = TUI_EVENT_RESIZE;
            return true;
        }
        if (is_key && code == KEY_MOUSE) {
            if (read_mouse(event)) {
                return true;
            }
            continue; /* motion or release: nothing to report */
        }
        event->type = TUI_EVENT_KEY;
        if (is_key) {
            event->key = translate_key((int)code);
        } else if (code == '\r') {
            event->key = TUI_KEY_ENTER;
        } else if (code == TUI_KEY_ESC) {
            /* Esc followed at once by a character is Alt plus that character. */
            wint_t next;
            bool next_is_key;
            if (read_code(&next, &next_is_key)) {
                if (!next_is_key && next > 0x20 && next < 0x7F) {
                    event->key = TUI_KEY_ALT | (int)next;
                    return true;
                }
                if (next_is_key) {
                    ungetch((int)next);
                } else {
                    unget_wch(next);
                }
            }
            event->key = TUI_KEY_ESC;
        } else {
            event->key = (int)code;
        }
        return true;
    }
}

void term_beep(void) {
    if (session.active) {
        beep();
    }
}
