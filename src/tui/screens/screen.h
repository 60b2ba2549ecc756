/*
 * The screens of the monitor (docs/nvitop-behaviour.md §3.2) behind one small interface, like
 * htop's ScreenManager: the app keeps a stack of screens and dispatches every draw, key and mouse
 * event to the one on top through its table entry, so adding a screen adds a table row, not a case
 * to every switch.  UI thread only.
 */
#ifndef NVITOP_SRC_TUI_SCREENS_SCREEN_H
#define NVITOP_SRC_TUI_SCREENS_SCREEN_H

#include <stdbool.h>

#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/event.h"

/*
 * What a screen does.  enter runs when the screen is pushed (app_screen_push(); the process it is
 * about, if any, is app_screen_process()) and leave when it is popped for good; a screen pushed
 * above it (help over the tree view) neither leaves nor re-enters it, so its state survives.
 * Screens keep their state in app->screen_state[their enum] (allocated by enter, freed by leave).
 * key and mouse return true when the screen must be redrawn.  NULL members do nothing.
 */
struct screen_ops {
    const char *name; /* nvitop's keymap name: "main", "help", "treeview", … */
    void (*enter)(struct tui_app *app);
    void (*leave)(struct tui_app *app);
    void (*draw)(struct tui_app *app, struct canvas *canvas, double wall_s);
    bool (*key)(struct tui_app *app, int key);
    bool (*mouse)(struct tui_app *app, const struct tui_event *event);
};

/* The table entry of a screen.  Never NULL for a valid enum value. */
const struct screen_ops *screen_ops_of(enum app_screen screen);

/* Each screen's entry (defined in its own file). */
extern const struct screen_ops main_screen_ops;
extern const struct screen_ops help_screen_ops;
extern const struct screen_ops tree_screen_ops;
extern const struct screen_ops environ_screen_ops;
extern const struct screen_ops metrics_screen_ops;

/* The centred notice shown instead of every screen when the terminal is narrower than 79
 * columns (docs/nvitop-behaviour.md §3.14). */
void notice_draw(struct canvas *canvas, int cols);

/* Compute the main screen's layout for the terminal size and display mode. */
void main_screen_layout(struct tui_app *app);

/* The main screen's entry points (also reachable through main_screen_ops). */
void main_screen_draw(struct tui_app *app, struct canvas *canvas, double wall_s);
bool main_screen_key(struct tui_app *app, int key);
bool main_screen_mouse(struct tui_app *app, const struct tui_event *event);

#endif /* NVITOP_SRC_TUI_SCREENS_SCREEN_H */
