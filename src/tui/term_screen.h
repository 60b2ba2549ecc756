/*
 * The drawing half of the curses session (term.c is the other): colours and the copy of the
 * canvas to the screen.  Only term.c calls these, while its session is active.
 */
#ifndef NVITOP_SRC_TUI_TERM_SCREEN_H
#define NVITOP_SRC_TUI_TERM_SCREEN_H

#include <stdbool.h>

#include "tui/canvas.h"
#include "tui/term.h"

/* Learn the locale's character set and register the colour pairs of the view's colours. */
void term_screen_setup(const struct term_options *options);

/* True when nvitop's colour gradients can be drawn (256 colours and --colorful). */
bool term_screen_gradients(void);

/* Copy the canvas to the screen: the cells that changed since the last frame, then one refresh. */
void term_screen_draw(const struct canvas *canvas);

/* Forget what the screen shows, so that the next frame draws every cell (after a resize). */
void term_screen_forget(void);

/* Drop the drawing state when the session ends. */
void term_screen_reset(void);

#endif /* NVITOP_SRC_TUI_TERM_SCREEN_H */
