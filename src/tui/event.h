/*
 * Input events as the monitor sees them, independent of curses: term.c translates curses keys and
 * mouse reports into these, and screens (and their unit tests) only ever see these.
 */
#ifndef NVITOP_SRC_TUI_EVENT_H
#define NVITOP_SRC_TUI_EVENT_H

#include <stdint.h>

/* Key codes: printable characters and control bytes are their own value (Ctrl-A is 1, Tab 9,
 * Enter '\n', Esc 27); special keys start at TUI_KEY_SPECIAL; Alt-x is TUI_KEY_ALT | 'x'. */
enum tui_key {
    TUI_KEY_NONE = 0,
    TUI_KEY_CTRL_A = 1,
    TUI_KEY_CTRL_C = 3,
    TUI_KEY_CTRL_E = 5,
    TUI_KEY_TAB = 9,
    TUI_KEY_ENTER = 10,
    TUI_KEY_CTRL_L = 12,
    TUI_KEY_CTRL_R = 18,
    TUI_KEY_ESC = 27,
    TUI_KEY_SPECIAL = 0x10000,
    TUI_KEY_UP,
    TUI_KEY_DOWN,
    TUI_KEY_LEFT,
    TUI_KEY_RIGHT,
    TUI_KEY_HOME,
    TUI_KEY_END,
    TUI_KEY_PAGE_UP,
    TUI_KEY_PAGE_DOWN,
    TUI_KEY_BACK_TAB,
    TUI_KEY_F5,
    TUI_KEY_BACKSPACE, /* as a function key (terminals that send DEL give 127) */
    TUI_KEY_OTHER,     /* a function key the monitor has no use for */
    TUI_KEY_ALT = 0x100000
};

enum tui_event_type {
    TUI_EVENT_NONE = 0,
    TUI_EVENT_KEY,
    TUI_EVENT_MOUSE,
    TUI_EVENT_RESIZE
};

/* Mouse event bits. */
enum tui_mouse {
    TUI_MOUSE_PRESS = 1U << 0, /* left or right button pressed or clicked */
    TUI_MOUSE_WHEEL_UP = 1U << 1,
    TUI_MOUSE_WHEEL_DOWN = 1U << 2,
    TUI_MOUSE_SHIFT = 1U << 3,
    TUI_MOUSE_CTRL = 1U << 4
};

struct tui_event {
    enum tui_event_type type;
    int key; /* TUI_EVENT_KEY */
    int y;   /* TUI_EVENT_MOUSE: screen row and column */
    int x;
    unsigned buttons; /* TUI_EVENT_MOUSE: enum tui_mouse bits */
};

#endif /* NVITOP_SRC_TUI_EVENT_H */
