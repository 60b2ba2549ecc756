/*
 * A line of styled text: the unit every view produces and every renderer consumes.  The once
 * report turns lines into ANSI escape sequences (or plain text); the monitor draws them through
 * curses.  Styles are semantic enough to be rendered either way.
 */
#ifndef NVITOP_SRC_VIEW_DRAW_LINE_H
#define NVITOP_SRC_VIEW_DRAW_LINE_H

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

/* Four bytes: the canvas holds one per cell, twice (what is drawn and what the terminal shows). */
struct view_style {
    uint16_t color; /* enum view_color */
    uint8_t attrs;  /* enum view_attr bits */
    uint8_t bg;     /* background: VIEW_COLOR_DEFAULT or one of the eight (no gradients) */
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

/* A growable list of lines: what a panel produces. */
struct view_lines {
    struct view_line *items;
    size_t count;
    size_t cap;
};

/* Styles used everywhere. */
static inline struct view_style view_style_make(enum view_color color, unsigned attrs) {
    struct view_style style = {(uint16_t)color, (uint8_t)attrs, VIEW_COLOR_DEFAULT};
    return style;
}

/*
 * Operations on lines (line.c).  Lines own their memory; view_line_init() makes an empty line and
 * view_line_fini() frees it.  Appending never fails: on allocation failure the program's
 * abort-on-failure hook runs (util/xalloc.h).  Widths are terminal cells (nvt_text_width()).
 * Not thread-safe for one line; different lines are independent.
 */
void view_line_init(struct view_line *line);
void view_line_fini(struct view_line *line);
void view_line_clear(struct view_line *line);

/* Append len bytes of UTF-8 text (or a C string) drawn with style.  An empty text with a
 * non-default style still records a zero-length span: termcolor prints escape codes around empty
 * strings, and the ANSI renderer reproduces that byte for byte. */
void view_line_add_n(struct view_line *line, const char *text, size_t len, struct view_style style);
void view_line_add(struct view_line *line, const char *text, struct view_style style);

/* Append count copies of text (rules, padding). */
void view_line_add_repeat(struct view_line *line, const char *text, size_t count,
                          struct view_style style);

/* Append another line's text and spans. */
void view_line_add_line(struct view_line *line, const struct view_line *other);

/* Text cut or padded with spaces to exactly width cells, appended with style.  align_right puts
 * the padding first (Python's rjust); cutting always keeps the left part. */
void view_line_add_fit(struct view_line *line, const char *text, size_t width, bool align_right,
                       struct view_style style);

/* Width of the whole line in cells. */
size_t view_line_width(const struct view_line *line);

/* Pad the line with unstyled spaces up to width cells (no-op when already as wide). */
void view_line_pad(struct view_line *line, size_t width);

/* Restyle the cells [col, col + width) (like curses' chgat): the new style replaces whatever the
 * cells had.  Cells past the end of the line are ignored.  Used by the monitor for selection
 * highlighting, tagging and dimming. */
void view_line_paint(struct view_line *line, size_t col, size_t width, struct view_style style);

/* Copy the cells [col, col + width) of src into dst (cleared first), keeping styles; a wide
 * character cut in half becomes a space.  For horizontal scrolling. */
void view_line_slice(const struct view_line *src, size_t col, size_t width, struct view_line *dst);

/* Replace the box-drawing and block characters by nvitop's ASCII substitutes
 * (docs/nvitop-behaviour.md §2.7), in place. */
void view_line_to_ascii(struct view_line *line);

/* Line lists.  view_lines_add() appends an empty line and returns it (valid until the next add).
 * view_lines_fini() frees every line. */
void view_lines_init(struct view_lines *lines);
void view_lines_fini(struct view_lines *lines);
void view_lines_clear(struct view_lines *lines);
struct view_line *view_lines_add(struct view_lines *lines);

#endif /* NVITOP_SRC_VIEW_DRAW_LINE_H */
