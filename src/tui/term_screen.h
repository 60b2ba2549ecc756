/*
 * The drawing half of the curses session (term.c is the other): the copy of the canvas to the
 * terminal, with colours and attributes.  Only term.c calls these, while its session is active.
 */
#ifndef NVITOP_SRC_TUI_TERM_SCREEN_H
#define NVITOP_SRC_TUI_TERM_SCREEN_H

#include <stdbool.h>

#include "tui/canvas.h"
#include "tui/term.h"

/* Learn the locale's character set and the terminal's strings for cursor addressing, attributes
 * and colours.  False when the terminal cannot address the cursor (then nothing can be drawn). */
bool term_screen_setup(const struct term_options *options);

/* True when nvitop's colour gradients can be drawn (256 colours and --colorful). */
bool term_screen_gradients(void);

/* Copy the canvas to a terminal of term_rows x term_cols: the cells that changed since the last
 * frame, in one write. */
void term_screen_draw(const struct canvas *canvas, int term_rows, int term_cols);

/* Forget what the screen shows, so that the next frame clears it and draws every cell (after a
 * resize, or when curses or a stop and continue may have drawn over it). */
void term_screen_forget(void);

/* Drop the drawing state when the session ends. */
void term_screen_reset(void);

#endif /* NVITOP_SRC_TUI_TERM_SCREEN_H */
