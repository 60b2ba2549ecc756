/*
 * The curses session (the only user of curses, docs/nvitop-behaviour.md §3.1): start-up, colours,
 * copying a canvas to the screen, reading keys and mouse events, and a teardown that always runs.
 *
 * There is one session per process; these functions are called from the UI thread only, except
 * term_emergency_stop(), which is safe to call from a fatal-error hook.
 */
#ifndef NVITOP_SRC_TUI_TERM_H
#define NVITOP_SRC_TUI_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/canvas.h"
#include "tui/event.h"

struct term_options {
    bool light;    /* --light: black on white when the terminal has no default colours */
    bool colorful; /* --colorful: gradient colours when the terminal has 256 colours */
};

/*
 * Start curses.  Returns 0, or -1 with the reason in error (for nvitop's "Failed to initialize
 * `curses`" message) and the terminal untouched.  Installs handlers so that SIGINT becomes a
 * Ctrl-C key press, and fatal signals restore the terminal before the process dies.  Standard
 * error, when it is a terminal, goes to a log file until term_stop() (stderr_log.h), which then
 * names the file on standard error if anything was written to it.
 */
int term_start(const struct term_options *options, char *error, size_t error_size);

/* A monitor's session: a canvas (24x80 until the first resize) and the terminal (term_start()
 * with options), restored by the allocation failure hook from then on.  Returns the canvas, or
 * NULL with the reason in error and nothing started.  End it with term_session_stop(). */
struct canvas *term_session_start(const struct term_options *options, char *error,
                                  size_t error_size);

/* Restore the terminal, remove the hook and free the canvas.  Accepts NULL (no canvas). */
void term_session_stop(struct canvas *canvas);

/* Restore the terminal.  Idempotent; does nothing without a session. */
void term_stop(void);

/* Restore the terminal from a fatal path (allocation failure hook, fatal signal). */
void term_emergency_stop(void);

/* Clear the terminal and draw every cell with the next frame (Ctrl-L, force refresh): whatever
 * else wrote over the screen goes. */
void term_repaint(void);

/* Current terminal size. */
void term_size(int *rows, int *cols);

/* Whether gradient colours are available (--colorful on a 256-colour terminal). */
bool term_has_gradients(void);

/* Copy the canvas to the screen and refresh.  The canvas must have the terminal's size. */
void term_draw(const struct canvas *canvas);

/* A frame is out and its buffers (the canvas's cells, canvas_release()) are freed: where a trim
 * is pending (term_trim_after_draw(), a change of size), hand the heap's free pages back. */
void term_frame_done(void);

/* Memory was freed in bulk (a process list and the table built from it replaced): hand the free
 * pages back to the system after the next frame, when that frame's own buffers are freed too. */
void term_trim_after_draw(void);

/* The file descriptors to poll for input: the terminal and the signal wake-up pipe.  Returns how
 * many were written (at most 2). */
size_t term_poll_fds(int *fds, size_t max);

struct pollfd;

/* Tell the session what poll() returned for the descriptors of term_poll_fds(), given first and
 * in the same order (count of them): term_read_event() then reads the terminal and the wake-up
 * pipe only when they have something, instead of two system calls that find nothing each frame.
 * Without a call both are read (the start of a session). */
void term_polled(const struct pollfd *pfds, size_t count);

/* Read the next input event without blocking.  Returns false when there is none.  Several resize
 * notifications in a row are reported once. */
bool term_read_event(struct tui_event *event);

/* Ring the bell. */
void term_beep(void);

#endif /* NVITOP_SRC_TUI_TERM_H */
