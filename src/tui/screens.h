/*
 * Whole-screen drawings and the main screen's behaviour.  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_SCREENS_H
#define NVITOP_SRC_TUI_SCREENS_H

#include <stdbool.h>

#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/event.h"

/* The help screen (SPEC.md §3.11 with nvitop 1.7's sort keys; rows of the signal keys are dimmed
 * in read-only mode). */
void help_screen_draw(const struct tui_app *app, struct canvas *canvas);

/* Number of lines of the help text (for tests). */
int help_screen_line_count(void);

/* The centred notice shown instead of every screen when the terminal is narrower than 79
 * columns (SPEC.md §3.14). */
void notice_draw(struct canvas *canvas, int cols);

/* Compute the main screen's layout for the terminal size and display mode. */
void main_screen_layout(struct tui_app *app);

/* Draw the main screen (layout first). */
void main_screen_draw(struct tui_app *app, struct canvas *canvas, double wall_s);

/* Handle a key or mouse event on the main screen.  Returns true when something changed. */
bool main_screen_key(struct tui_app *app, int key);
bool main_screen_mouse(struct tui_app *app, const struct tui_event *event);

#endif /* NVITOP_SRC_TUI_SCREENS_H */
