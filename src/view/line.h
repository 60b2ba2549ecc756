/*
 * A line of styled text: the unit every view produces and every renderer consumes.  The once
 * report turns lines into ANSI escape sequences (or plain text); the monitor draws them through
 * curses.  Styles are semantic enough to be rendered either way.
 */
#ifndef NVITOP_SRC_VIEW_LINE_H
#define NVITOP_SRC_VIEW_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Foreground colours (termcolor's and curses' eight), plus gradient colours for --colorful:
 * VIEW_COLOR_GRADIENT_BASE + round(1000 * fraction) for a fraction in [0, 1]. */
enum view_color {
    VIEW_COLOR_DEFAULT = 0,
    VIEW_COLOR_BLACK,
    VIEW_COLOR_RED,
    VIEW_COLOR_GREEN,
    VIEW_COLOR_YELLOW,
    VIEW_COLOR_BLUE,
    VIEW_COLOR_MAGENTA,
    VIEW_COLOR_CYAN,
    VIEW_COLOR_WHITE,
    VIEW_COLOR_GRADIENT_BASE = 1000
};

enum view_attr {
    VIEW_ATTR_BOLD = 1U << 0,
    VIEW_ATTR_DIM = 1U << 1,
    VIEW_ATTR_UNDERLINE = 1U << 2,
    VIEW_ATTR_BLINK = 1U << 3,
    VIEW_ATTR_REVERSE = 1U << 4,
    VIEW_ATTR_ITALIC = 1U << 5,
    VIEW_ATTR_STANDOUT = 1U << 6
};

struct view_style {
    uint16_t color; /* enum view_color */
    uint16_t attrs; /* enum view_attr bits */
};

/* A run of bytes of the line's text drawn with one style. */
struct view_span {
    size_t start; /* byte offset into text */
    size_t len;   /* bytes */
    struct view_style style;
};

/* UTF-8 text plus styled spans covering it in order (bytes not covered are unstyled). */
struct view_line {
    char *text;
    size_t len;
    size_t cap;
    struct view_span *spans;
    size_t span_count;
    size_t span_cap;
};

#endif /* NVITOP_SRC_VIEW_LINE_H */
