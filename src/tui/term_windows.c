/*
 * The monitor's terminal on the Windows console (term.h), in place of the curses session of
 * term.c and term_screen.c: output through virtual-terminal sequences (the console's
 * ENABLE_VIRTUAL_TERMINAL_PROCESSING, UTF-8 output code page, the alternate screen), input from
 * ReadConsoleInputW (keys, mouse buttons and wheel, window-size changes).  The console's modes and
 * code page are restored by term_stop(), by the console control handler (Ctrl-Break, closing the
 * window, logging off) and by the allocation failure hook; Ctrl-C arrives as a key, since
 * processed input is off while the monitor runs.
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include <io.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/term.h"
#include "util/array.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

enum {
    GRADIENTS = 1001
};

/* The console session: file-scope, as the console is the process's own and the control handler,
 * called on a thread of its own, must reach it to restore the console's modes (CONTRIBUTING.md,
 * "Style"). */
static struct {
    bool active;
    bool colors;
    bool gradients;
    bool light;
    HANDLE in;
    HANDLE out;
    DWORD in_mode; /* the modes and code page found, restored on every way out */
    DWORD out_mode;
    UINT output_cp;
    bool input_ready;
    bool resize_pending;
    bool interrupt_pending;
    int rows;
    int cols;
    struct canvas_cell *shadow; /* what the screen shows; NULL: unknown, draw everything */
    int shadow_rows;
    int shadow_cols;
    uint32_t shadow_generation; /* the canvas's canvas_clusters_generation() for shadow */
    struct strbuf frame;
    short gradient_index[GRADIENTS];
} session;

/* Restore the console; safe to call twice and from the control handler's thread. */
static void restore_console(void) {
    static const char leave[] = "\033[0m\033[?1000l\033[?1006l\033[?25h\033[?1049l";
    DWORD written = 0;
    WriteFile(session.out, leave, (DWORD)(sizeof(leave) - 1), &written, NULL);
    SetConsoleMode(session.in, session.in_mode);
    SetConsoleMode(session.out, session.out_mode);
    SetConsoleOutputCP(session.output_cp);
}

static BOOL WINAPI on_control(DWORD type) {
    if (type == CTRL_C_EVENT) {
        session.interrupt_pending = true; /* with processed input off, only from another process */
        return TRUE;
    }
    /* Ctrl-Break, closing the window, logoff, shutdown: the process ends after this handler. */
    if (session.active) {
        restore_console();
    }
    return FALSE;
}

static void query_size(int *rows, int *cols) {
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (GetConsoleScreenBufferInfo(session.out, &info)) {
        *cols = info.srWindow.Right - info.srWindow.Left + 1;
        *rows = info.srWindow.Bottom - info.srWindow.Top + 1;
    } else {
        *rows = 24;
        *cols = 80;
    }
}

static void write_all(const char *data, size_t len) {
    while (len > 0) {
        DWORD written = 0;
        DWORD chunk = len > 65536 ? 65536 : (DWORD)len;
        if (!WriteFile(session.out, data, chunk, &written, NULL) || written == 0) {
            return;
        }
        data += written;
        len -= written;
    }
}

int term_start(const struct term_options *options, char *error, size_t error_size) {
    if (session.active) {
        snprintf(error, error_size, "the console is already in use");
        return -1;
    }
    session.in = GetStdHandle(STD_INPUT_HANDLE);
    session.out = GetStdHandle(STD_OUTPUT_HANDLE);
    if (!GetConsoleMode(session.in, &session.in_mode) ||
        !GetConsoleMode(session.out, &session.out_mode)) {
        snprintf(error, error_size, "not a console");
        return -1;
    }
    session.output_cp = GetConsoleOutputCP();
    DWORD out_mode =
        session.out_mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING | DISABLE_NEWLINE_AUTO_RETURN;
    if (!SetConsoleMode(session.out, out_mode) &&
        !SetConsoleMode(session.out, session.out_mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING)) {
        snprintf(error, error_size,
                 "this console cannot process virtual-terminal sequences (Windows 10 1809 or "
                 "later is needed; use -1)");
        return -1;
    }
    DWORD in_mode = ENABLE_WINDOW_INPUT | ENABLE_MOUSE_INPUT | ENABLE_EXTENDED_FLAGS;
    if (!SetConsoleMode(session.in, in_mode)) {
        SetConsoleMode(session.out, session.out_mode);
        snprintf(error, error_size, "the console's input mode cannot be set");
        return -1;
    }
    SetConsoleOutputCP(CP_UTF8);
    session.colors = true;
    session.light = options->light;
    session.gradients = options->colorful;
    session.active = true;
    session.input_ready = true;
    session.resize_pending = false;
    session.interrupt_pending = false;
    memset(session.gradient_index, 0, sizeof(session.gradient_index));
    session.frame = (struct strbuf)STRBUF_INIT;
    query_size(&session.rows, &session.cols);
    SetConsoleCtrlHandler(on_control, TRUE);
    /* The alternate screen, no cursor, mouse button reports in the SGR encoding (for consoles
     * that pass mouse input as sequences; the Windows console sends MOUSE_EVENT records). */
    static const char enter[] = "\033[?1049h\033[?25l\033[2J";
    write_all(enter, sizeof(enter) - 1);
    return 0;
}

struct canvas *term_session_start(const struct term_options *options, char *error,
                                  size_t error_size) {
    struct canvas *canvas = canvas_create(24, 80);
    if (canvas == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    if (term_start(options, error, error_size) != 0) {
        canvas_destroy(canvas);
        return NULL;
    }
    xalloc_set_fatal_hook(term_emergency_stop);
    return canvas;
}

void term_session_stop(struct canvas *canvas) {
    term_stop();
    xalloc_set_fatal_hook(NULL);
    canvas_destroy(canvas);
}

void term_stop(void) {
    if (!session.active) {
        return;
    }
    session.active = false;
    restore_console();
    SetConsoleCtrlHandler(on_control, FALSE);
    free(session.shadow);
    session.shadow = NULL;
    strbuf_fini(&session.frame);
}

void term_emergency_stop(void) {
    if (session.active) {
        session.active = false;
        restore_console();
    }
}

void term_repaint(void) {
    free(session.shadow);
    session.shadow = NULL;
}

void term_size(int *rows, int *cols) {
    *rows = session.rows;
    *cols = session.cols;
}

bool term_has_gradients(void) {
    return session.gradients;
}

/* nvitop's gradient colours on the 6x6x6 cube of 256 colours, as term_screen.c draws them. */
static int gradient_cube_index(double fraction) {
    double hue = 0.5 * (1.0 - fraction) - 0.15;
    hue = round(hue * 160.0) / 160.0;
    hue -= floor(hue);
    double sector = hue * 6.0;
    int i = (int)floor(sector) % 6;
    double f = sector - floor(sector);
    double v = 0.8;
    double p = v * 0.3;
    double q = v * (1.0 - 0.7 * f);
    double t = v * (1.0 - 0.7 * (1.0 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    return 36 * (int)lround(rgb[i][0] * 5.0) + 6 * (int)lround(rgb[i][1] * 5.0) +
           (int)lround(rgb[i][2] * 5.0);
}

/* The SGR parameters of a style: reset, attributes, the foreground colour, then the background. */
static void append_style(struct strbuf *out, struct view_style style) {
    (void)strbuf_append_str(out, "\033[0");
    static const struct {
        unsigned attr;
        const char *sgr;
    } attrs[] = {{VIEW_ATTR_BOLD, ";1"},    {VIEW_ATTR_DIM, ";2"},     {VIEW_ATTR_UNDERLINE, ";4"},
                 {VIEW_ATTR_BLINK, ";5"},   {VIEW_ATTR_REVERSE, ";7"}, {VIEW_ATTR_ITALIC, ";3"},
                 {VIEW_ATTR_STANDOUT, ";7"}};
    for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
        if ((style.attrs & attrs[i].attr) != 0) {
            (void)strbuf_append_str(out, attrs[i].sgr);
        }
    }
    uint16_t color = style.color;
    if (color >= VIEW_COLOR_BLACK && color <= VIEW_COLOR_WHITE) {
        (void)strbuf_appendf(out, ";%d", 30 + color - VIEW_COLOR_BLACK);
        if (session.light && (style.attrs & VIEW_ATTR_REVERSE) != 0) {
            (void)strbuf_append_str(out, ";40");
        }
    } else if (color >= VIEW_COLOR_GRADIENT_BASE) {
        int step = color - VIEW_COLOR_GRADIENT_BASE;
        step = step > GRADIENTS - 1 ? GRADIENTS - 1 : step;
        if (!session.gradients) {
            int basic = step * 3 < GRADIENTS - 1         ? VIEW_COLOR_GREEN
                        : step * 3 < 2 * (GRADIENTS - 1) ? VIEW_COLOR_YELLOW
                                                         : VIEW_COLOR_RED;
            (void)strbuf_appendf(out, ";%d", 30 + basic - VIEW_COLOR_BLACK);
        } else {
            if (session.gradient_index[step] == 0) {
                session.gradient_index[step] =
                    (short)(gradient_cube_index(step / (double)(GRADIENTS - 1)) + 1);
            }
            (void)strbuf_appendf(out, ";38;5;%d", 16 + session.gradient_index[step] - 1);
        }
    }
    if (style.bg >= VIEW_COLOR_BLACK && style.bg <= VIEW_COLOR_WHITE) {
        (void)strbuf_appendf(out, ";%d", 40 + style.bg - VIEW_COLOR_BLACK);
    }
    (void)strbuf_append_str(out, "m");
}

/* Cells are canonical (canvas.h): two that look the same are the same bytes. */
static bool same_cell(const struct canvas_cell *a, const struct canvas_cell *b) {
    return memcmp(a, b, sizeof(*a)) == 0;
}

/* The C runtime of Windows has no malloc_trim(): the heap is left as it is. */
void term_trim_after_draw(void) {
}

void term_frame_done(void) {
}

void term_draw(const struct canvas *canvas) {
    if (!session.active) {
        return;
    }
    int rows = canvas_rows(canvas);
    int cols = canvas_cols(canvas);
    bool full =
        session.shadow == NULL || session.shadow_rows != rows || session.shadow_cols != cols;
    if (full) {
        free(session.shadow);
        session.shadow = calloc((size_t)rows * (size_t)cols, sizeof(*session.shadow));
        session.shadow_rows = rows;
        session.shadow_cols = cols;
    }
    /* The canvas renewed its table of clusters: an index in the shadow may now stand for another
     * text, so those cells are drawn again. */
    uint32_t generation = canvas_clusters_generation(canvas);
    if (generation != session.shadow_generation && session.shadow != NULL) {
        canvas_cells_forget_clusters(session.shadow, (size_t)rows * (size_t)cols);
    }
    session.shadow_generation = generation;
    struct strbuf *out = &session.frame;
    strbuf_clear(out);
    if (full) {
        (void)strbuf_append_str(out, "\033[0m\033[2J");
    }
    bool styled = false;
    struct view_style current = {0};
    for (int row = 0; row < rows; row++) {
        const struct canvas_cell *cells = canvas_row(canvas, row);
        struct canvas_cell *shown =
            session.shadow != NULL ? session.shadow + (size_t)row * cols : NULL;
        int col = 0;
        while (col < cols) {
            if (!full && shown != NULL && same_cell(&cells[col], &shown[col])) {
                col++;
                continue;
            }
            /* A run of changed cells behind one cursor address.  The last cell of the screen is
             * left alone, so that the console does not scroll. */
            (void)strbuf_appendf(out, "\033[%d;%dH", row + 1, col + 1);
            while (col < cols && (full || shown == NULL || !same_cell(&cells[col], &shown[col]))) {
                const struct canvas_cell *cell = &cells[col];
                if (row == rows - 1 && col == cols - 1) {
                    break;
                }
                if (canvas_cell_width(cell) != 0) {
                    if (!styled || cell->style.color != current.color ||
                        cell->style.attrs != current.attrs || cell->style.bg != current.bg) {
                        append_style(out, cell->style);
                        current = cell->style;
                        styled = true;
                    }
                    char text[CANVAS_CELL_TEXT];
                    size_t len = canvas_cell_text(canvas, cell, text);
                    if (len > 0) {
                        (void)strbuf_append(out, text, len);
                    } else {
                        (void)strbuf_append_str(out, " ");
                    }
                }
                if (shown != NULL) {
                    shown[col] = *cell;
                }
                col++;
            }
            col++;
        }
    }
    if (out->len == 0) {
        return; /* nothing changed: no write (each is a round trip to the console host) */
    }
    (void)strbuf_append_str(out, "\033[0m");
    write_all(strbuf_cstr(out), out->len);
}

/* The console input handle as the descriptor the event loop polls (poll() of the Windows build,
 * src/util/sys/win/compat.c, waits on the console handle behind it). */
size_t term_poll_fds(int *fds, size_t max) {
    if (max < 1 || !session.active) {
        return 0;
    }
    fds[0] = _fileno(stdin);
    return 1;
}

void term_polled(const struct pollfd *pfds, size_t count) {
    session.input_ready = count == 0 || (pfds[0].revents & POLLIN) != 0;
}

static int translate_key(const KEY_EVENT_RECORD *key) {
    bool shift = (key->dwControlKeyState & SHIFT_PRESSED) != 0;
    switch (key->wVirtualKeyCode) {
    case VK_UP:
        return TUI_KEY_UP;
    case VK_DOWN:
        return TUI_KEY_DOWN;
    case VK_LEFT:
        return TUI_KEY_LEFT;
    case VK_RIGHT:
        return TUI_KEY_RIGHT;
    case VK_HOME:
        return TUI_KEY_HOME;
    case VK_END:
        return TUI_KEY_END;
    case VK_PRIOR:
        return TUI_KEY_PAGE_UP;
    case VK_NEXT:
        return TUI_KEY_PAGE_DOWN;
    case VK_F5:
        return TUI_KEY_F5;
    case VK_TAB:
        return shift ? TUI_KEY_BACK_TAB : TUI_KEY_TAB;
    case VK_BACK:
        return 127;
    case VK_RETURN:
        return TUI_KEY_ENTER;
    case VK_ESCAPE:
        return TUI_KEY_ESC;
    default:
        break;
    }
    wchar_t ch = key->uChar.UnicodeChar;
    if (ch == 0) {
        return TUI_KEY_NONE; /* a modifier alone, or a key without a character */
    }
    bool alt = (key->dwControlKeyState & (LEFT_ALT_PRESSED | RIGHT_ALT_PRESSED)) != 0 &&
               (key->dwControlKeyState & (LEFT_CTRL_PRESSED | RIGHT_CTRL_PRESSED)) == 0;
    if (alt && ch > 0x20 && ch < 0x7F) {
        return TUI_KEY_ALT | (int)ch;
    }
    return (int)ch;
}

static bool translate_mouse(const MOUSE_EVENT_RECORD *mouse, struct tui_event *event) {
    event->type = TUI_EVENT_MOUSE;
    event->y = mouse->dwMousePosition.Y;
    event->x = mouse->dwMousePosition.X;
    if ((mouse->dwControlKeyState & SHIFT_PRESSED) != 0) {
        event->buttons |= TUI_MOUSE_SHIFT;
    }
    if ((mouse->dwControlKeyState & (LEFT_CTRL_PRESSED | RIGHT_CTRL_PRESSED)) != 0) {
        event->buttons |= TUI_MOUSE_CTRL;
    }
    if (mouse->dwEventFlags == MOUSE_WHEELED) {
        /* The high word of the button state is the signed wheel delta. */
        short delta = (short)HIWORD(mouse->dwButtonState);
        event->buttons |= delta > 0 ? TUI_MOUSE_WHEEL_UP : TUI_MOUSE_WHEEL_DOWN;
        return true;
    }
    if (mouse->dwEventFlags == 0 || mouse->dwEventFlags == DOUBLE_CLICK) {
        if ((mouse->dwButtonState & (FROM_LEFT_1ST_BUTTON_PRESSED | RIGHTMOST_BUTTON_PRESSED)) !=
            0) {
            event->buttons |= TUI_MOUSE_PRESS;
            return true;
        }
    }
    return false; /* a release or a move */
}

bool term_read_event(struct tui_event *event) {
    memset(event, 0, sizeof(*event));
    if (!session.active) {
        return false;
    }
    if (session.interrupt_pending) {
        session.interrupt_pending = false;
        event->type = TUI_EVENT_KEY;
        event->key = TUI_KEY_CTRL_C;
        return true;
    }
    for (;;) {
        DWORD pending = 0;
        if (!session.input_ready || !GetNumberOfConsoleInputEvents(session.in, &pending) ||
            pending == 0) {
            session.input_ready = false;
            if (session.resize_pending) {
                /* Several size changes in a row are reported once. */
                session.resize_pending = false;
                query_size(&session.rows, &session.cols);
                term_repaint();
                event->type = TUI_EVENT_RESIZE;
                return true;
            }
            return false;
        }
        INPUT_RECORD record;
        DWORD got = 0;
        if (!ReadConsoleInputW(session.in, &record, 1, &got) || got == 0) {
            return false;
        }
        switch (record.EventType) {
        case KEY_EVENT:
            if (record.Event.KeyEvent.bKeyDown) {
                int key = translate_key(&record.Event.KeyEvent);
                if (key != TUI_KEY_NONE) {
                    event->type = TUI_EVENT_KEY;
                    event->key = key;
                    return true;
                }
            }
            break;
        case MOUSE_EVENT:
            if (translate_mouse(&record.Event.MouseEvent, event)) {
                return true;
            }
            memset(event, 0, sizeof(*event));
            break;
        case WINDOW_BUFFER_SIZE_EVENT:
            session.resize_pending = true;
            break;
        default:
            break;
        }
    }
}

void term_beep(void) {
    if (session.active) {
        write_all("\a", 1);
    }
}
