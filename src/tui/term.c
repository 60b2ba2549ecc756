/*
 * The curses session: start and stop, signals and input (see term.h and docs/nvitop-behaviour.md
 * §3.1).  With term_screen.c, which draws, the only files that include curses.
 */
#include "tui/term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tui/stderr_log.h"
#include "tui/term_screen.h"
#include "util/array.h"
#include "util/xalloc.h"

/* The one curses session of the process.  Signal handlers only touch the volatile flags and write
 * to the wake-up pipe. */
static struct {
    bool active;
    int wake_pipe[2];
    SCREEN *screen;
    struct sigaction old_int;
    struct sigaction old_winch;
    struct sigaction old_cont;
    struct sigaction old_tstp;
    bool tstp_taken; /* SIGTSTP is ours (it was not ignored when the session started) */
    struct sigaction old_fatal[8];
    struct stderr_log log; /* standard error goes there while the session is active */
    /* What the last poll() found (term_polled()): reading only then saves two system calls a
     * frame.  input_ready stays set until curses has nothing left, since curses keeps keys of
     * its own (pushed back, or queued by a resize) that poll() cannot see. */
    bool input_ready;
    bool wake_ready;
    /* The terminal's size.  curses' windows are kept one column wide (see shrink_curses()). */
    int rows;
    int cols;
    /* Memory was freed in bulk (curses' lines, the last size's canvas, a process list): give it
     * back to the system after the next frame (give_back_memory()). */
    bool trim_pending;
} session = {.wake_pipe = {-1, -1}, .log = {.saved_fd = -1}};

static volatile sig_atomic_t interrupt_pending;
static volatile sig_atomic_t resize_pending;
static volatile sig_atomic_t redraw_pending;
static volatile sig_atomic_t stop_pending;

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

/* Back from a stop (^Z): curses has repainted its own, blank, idea of the screen. */
static void on_continue(int signo) {
    (void)signo;
    redraw_pending = 1;
    wake();
}

/* ^Z: the loop stops the process (suspend()), outside the handler. */
static void on_stop(int signo) {
    (void)signo;
    stop_pending = 1;
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
    action.sa_handler = on_continue;
    sigaction(SIGCONT, &action, &session.old_cont);
    action.sa_handler = on_fatal;
    action.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
        sigaction(fatal_signals[i], &action, &session.old_fatal[i]);
    }
}

static void restore_handlers(void) {
    sigaction(SIGINT, &session.old_int, NULL);
    sigaction(SIGWINCH, &session.old_winch, NULL);
    sigaction(SIGCONT, &session.old_cont, NULL);
    for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
        sigaction(fatal_signals[i], &session.old_fatal[i], NULL);
    }
}

/* ^Z is the loop's to handle (suspend()), not curses': its handler stops the process from inside
 * the signal handler, on whichever thread took the signal, while the UI thread may be drawing.
 * Taken before newterm(), since curses catches SIGTSTP only where its action is the default; an
 * ignored SIGTSTP stays ignored, as curses leaves it. */
static void take_stop_signal(void) {
    session.tstp_taken = false;
    if (sigaction(SIGTSTP, NULL, &session.old_tstp) != 0 ||
        session.old_tstp.sa_handler != SIG_DFL) {
        return;
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_stop;
    session.tstp_taken = sigaction(SIGTSTP, &action, NULL) == 0;
}

static void give_back_stop_signal(void) {
    if (session.tstp_taken) {
        sigaction(SIGTSTP, &session.old_tstp, NULL);
        session.tstp_taken = false;
    }
}

/* curses keeps three windows as large as the screen (stdscr, curscr and newscr: 28 bytes a cell,
 * 1 MiB at 200x60), which the monitor never draws into (term_screen.c writes the terminal).  They
 * are kept one column wide.  The rows stay, so that endwin() still leaves the cursor on the last
 * line of a terminal without an alternate screen, even from a fatal signal's handler, where
 * nothing may be resized. */
static void shrink_curses(void) {
    resize_term(session.rows, 1);
    session.trim_pending = true;
}

/* After the frame that follows a change of size (which also reallocated the canvas and the copy
 * of the screen in term_screen.c), hand the free pages in the middle of the heap back to the
 * system: glibc returns only those at its top by itself. */
static void give_back_memory(void) {
    if (!session.trim_pending) {
        return;
    }
    session.trim_pending = false;
#ifdef __GLIBC__
    malloc_trim(0);
#endif
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

/* Home and End as terminals and multiplexers send them, whatever the terminal description says
 * (tmux sends ESC [1~ and ESC [4~ to a pane whose TERM is xterm's, which names ESC OH and ESC OF):
 * sequences the description already binds are left alone. */
static void define_home_end_keys(void) {
    static const struct {
        const char *sequence;
        int key;
    } keys[] = {{"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME}, {"\033[H", KEY_HOME},
                {"\033OH", KEY_HOME},  {"\033[4~", KEY_END},  {"\033[8~", KEY_END},
                {"\033[F", KEY_END},   {"\033OF", KEY_END}};
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        if (key_defined(keys[i].sequence) == 0) {
            define_key(keys[i].sequence, keys[i].key);
        }
    }
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
    take_stop_signal();
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) {
        give_back_stop_signal();
        snprintf(error, error_size, "setupterm: could not find terminal %s",
                 term != NULL ? term : "(unset)");
        return -1;
    }
    set_term(screen);
    if (!term_screen_setup(options)) {
        endwin();
        delscreen(screen);
        give_back_stop_signal();
        snprintf(error, error_size, "terminal %s cannot move the cursor",
                 term != NULL ? term : "(unset)");
        return -1;
    }
    if (!open_wake_pipe()) {
        endwin();
        delscreen(screen);
        give_back_stop_signal();
        snprintf(error, error_size, "pipe: %s", strerror(errno));
        return -1;
    }
    session.active = true;
    session.screen = screen;
    session.input_ready = true; /* until a poll() says otherwise */
    session.wake_ready = true;
    /* The size as curses took it: LINES and COLUMNS from the environment before the kernel's,
     * 24x80 for a terminal that has none. */
    session.rows = LINES;
    session.cols = COLS;
    shrink_curses();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    curs_set(0);
    mousemask(ALL_MOUSE_EVENTS, NULL);
    mouseinterval(0);
    define_home_end_keys();
    install_handlers();
    /* A resize between curses reading the size and our handler's arrival was lost (before
     * curses installs its own handler, SIGWINCH is ignored): look again now that ours is in
     * place.  It happened when a terminal was resized as the monitor started. */
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0 &&
        (size.ws_row != session.rows || size.ws_col != session.cols)) {
        resize_pending = 1;
    }
    /* From here on the screen is ours: nothing may write over it (see stderr_log.h).  Standard
     * error sent elsewhere by the user stays where it was sent. */
    if (isatty(STDERR_FILENO)) {
        stderr_log_start(&session.log);
    }
    /* curses clears the screen once; from then on term_screen.c draws (see read_code()). */
    refresh();
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
    mousemask(0, NULL);
    curs_set(1);
    /* At the full size again for endwin(), which on a terminal without default colours clears
     * the last line as wide as it believes the screen is. */
    resize_term(session.rows, session.cols);
    /* endwin() leaves the alternate screen, which puts the cursor back under the prompt (where the
     * report is printed, as nvitop does); on a terminal without one, curses moves it to the last
     * line itself.  A move of ours would land after the switch, at the bottom of the shell's
     * screen, and push a screenful of blank lines into the scrollback. */
    endwin();
    delscreen(session.screen);
    session.screen = NULL;
    restore_handlers();
    give_back_stop_signal();
    close_wake_pipe();
    term_screen_reset();
    if (stderr_log_stop(&session.log)) {
        fprintf(stderr, "nvitop: messages written to stderr while the monitor ran are in %s\n",
                session.log.path);
    }
}

void term_emergency_stop(void) {
    if (!session.active) {
        return;
    }
    session.active = false;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    stderr_log_restore_fd(&session.log);
}

void term_repaint(void) {
    term_screen_forget();
}

void term_size(int *rows, int *cols) {
    *rows = session.rows;
    *cols = session.cols;
}

bool term_has_gradients(void) {
    return term_screen_gradients();
}

void term_trim_after_draw(void) {
    session.trim_pending = true;
}

void term_draw(const struct canvas *canvas) {
    if (session.active) {
        term_screen_draw(canvas, session.rows, session.cols);
    }
}

void term_frame_done(void) {
    if (session.active) {
        give_back_memory();
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

void term_polled(const struct pollfd *pfds, size_t count) {
    size_t index = 0;
    if (index < count) {
        session.input_ready = session.input_ready || pfds[index].revents != 0;
        index++;
    }
    if (index < count && session.wake_pipe[0] >= 0) {
        session.wake_ready = session.wake_ready || pfds[index].revents != 0;
    }
}

/* Empty the wake-up pipe when poll() found bytes in it.  A short read means it was empty: a later
 * signal writes again and wakes poll(), so no read is needed to see EAGAIN. */
static void drain_wake_pipe(void) {
    if (!session.wake_ready) {
        return;
    }
    session.wake_ready = false;
    char buf[64];
    ssize_t n;
    do {
        n = session.wake_pipe[0] >= 0 ? read(session.wake_pipe[0], buf, sizeof(buf)) : 0;
    } while (n == (ssize_t)sizeof(buf));
}

/* Apply a pending SIGWINCH: ask the kernel for the size; curses learns the number of rows (see
 * shrink_curses()). */
static void apply_resize(void) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        session.rows = size.ws_row;
        session.cols = size.ws_col;
        resize_term(session.rows, 1);
        session.trim_pending = true;
    }
}

/* ^Z (SIGTSTP): leave the screen as at the end (endwin(): the shell's screen and terminal modes
 * back), stop with SIGTSTP's default action, and take the screen back when continued, as curses'
 * own handler does, but from the loop.  curses' windows are at the full size meanwhile: taking
 * the screen back, curses compares the size it knows with the kernel's, and grows them to it.
 * The kernel discards the stop in a process group with no parent outside it in the session (a
 * program started directly in a tmux pane, or by a shell without job control): then the monitor
 * takes the screen back at once. */
static void suspend(void) {
    resize_term(session.rows, session.cols);
    def_prog_mode(); /* the terminal modes to take back */
    endwin();
    struct sigaction stop;
    struct sigaction ours;
    memset(&stop, 0, sizeof(stop));
    sigemptyset(&stop.sa_mask);
    stop.sa_handler = SIG_DFL;
    sigaction(SIGTSTP, &stop, &ours);
    raise(SIGTSTP); /* stopped here until SIGCONT */
    sigaction(SIGTSTP, &ours, NULL);
    flushinp();       /* keys typed to the shell meanwhile are not ours */
    def_shell_mode(); /* modes the user set while stopped stay for the shell */
    refresh();        /* program modes, alternate screen and mouse back; the screen cleared */
    apply_resize();   /* the size may have changed while stopped */
    shrink_curses();
    session.input_ready = true;
    term_screen_forget();
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
    case KEY_BACKSPACE:
        return TUI_KEY_BACKSPACE;
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
    if (!session.input_ready) {
        return false; /* poll() found nothing, and curses holds nothing */
    }
    /* curses refreshes a changed window before reading a key from it; ours never holds anything
     * (term_screen.c draws), and a resize marks it changed, so make sure it is left alone. */
    untouchwin(stdscr);
    int status = get_wch(code);
    if (status == ERR) {
        session.input_ready = false;
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
    if (stop_pending) {
        stop_pending = 0;
        suspend();
        event->type = TUI_EVENT_RESIZE; /* draw everything again */
        return true;
    }
    if (redraw_pending) {
        redraw_pending = 0;
        term_screen_forget();
        event->type = TUI_EVENT_RESIZE;
        return true;
    }
    if (resize_pending) {
        resize_pending = 0;
        apply_resize();
        term_screen_forget(); /* redraw every row */
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
            /* curses saw a size change of its own (its handler, before ours was installed, or
             * the kernel's size on taking the screen back) and grew its windows to it. */
            apply_resize();
            shrink_curses();
            term_screen_forget();
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
