/*
 * ANSI and plain rendering of styled lines.  The escape sequences follow termcolor, which nvitop
 * uses for its once report: the colour code wraps the text first and every attribute wraps the
 * result, so attributes come out before the colour ("ESC[1mESC[36m…ESC[0m"), and an empty string
 * still gets its codes and a reset.
 */
#include "view/render_ansi.h"

#include <string.h>

#include "util/array.h"

static const int color_codes[] = {
    [VIEW_COLOR_DEFAULT] = 0,  [VIEW_COLOR_BLACK] = 30,  [VIEW_COLOR_RED] = 31,
    [VIEW_COLOR_GREEN] = 32,   [VIEW_COLOR_YELLOW] = 33, [VIEW_COLOR_BLUE] = 34,
    [VIEW_COLOR_MAGENTA] = 35, [VIEW_COLOR_CYAN] = 36,   [VIEW_COLOR_WHITE] = 97,
};

/* termcolor's attribute codes, in the order they are applied (the last one ends up first). */
static const struct {
    unsigned attr;
    int code;
} attr_codes[] = {
    {VIEW_ATTR_BOLD, 1},  {VIEW_ATTR_DIM, 2},     {VIEW_ATTR_ITALIC, 3},   {VIEW_ATTR_UNDERLINE, 4},
    {VIEW_ATTR_BLINK, 5}, {VIEW_ATTR_REVERSE, 7}, {VIEW_ATTR_STANDOUT, 7},
};

static bool add_codes(struct strbuf *out, struct view_style style) {
    size_t n = ARRAY_SIZE(attr_codes);
    for (size_t i = n; i-- > 0;) {
        if ((style.attrs & attr_codes[i].attr) != 0 &&
            !strbuf_appendf(out, "\033[%dm", attr_codes[i].code)) {
            return false;
        }
    }
    /* termcolor's on_color (background) comes between the attributes and the colour: 40-47, its
     * white 107 as its foreground white is 97. */
    if (style.bg != VIEW_COLOR_DEFAULT && style.bg < ARRAY_SIZE(color_codes) &&
        !strbuf_appendf(out, "\033[%dm", color_codes[style.bg] + 10)) {
        return false;
    }
    if (style.color != VIEW_COLOR_DEFAULT && style.color < sizeof(color_codes) / sizeof(int)) {
        return strbuf_appendf(out, "\033[%dm", color_codes[style.color]);
    }
    return true;
}

static bool add_text(struct strbuf *out, const char *text, size_t len, bool ascii) {
    if (!ascii) {
        return strbuf_append(out, text, len);
    }
    /* Translate through a temporary line so that the map lives in one place. */
    struct view_line tmp;
    view_line_init(&tmp);
    view_line_add_n(&tmp, text, len, view_style_make(VIEW_COLOR_DEFAULT, 0));
    view_line_to_ascii(&tmp);
    bool ok = strbuf_append(out, tmp.text, tmp.len);
    view_line_fini(&tmp);
    return ok;
}

bool view_render_line(const struct view_line *line, const struct view_render_options *options,
                      struct strbuf *out) {
    const char *text = line->text == NULL ? "" : line->text;
    size_t pos = 0;
    for (size_t i = 0; i < line->span_count; i++) {
        const struct view_span *span = &line->spans[i];
        if (span->start > pos && !add_text(out, text + pos, span->start - pos, options->ascii)) {
            return false;
        }
        if (span->start < pos) {
            /* Overlapping spans never come from the views; render the overlap once. */
            continue;
        }
        bool styled = options->color;
        if (styled && !add_codes(out, span->style)) {
            return false;
        }
        if (!add_text(out, text + span->start, span->len, options->ascii)) {
            return false;
        }
        if (styled && !strbuf_append_str(out, "\033[0m")) {
            return false;
        }
        pos = span->start + span->len;
    }
    if (pos < line->len) {
        return add_text(out, text + pos, line->len - pos, options->ascii);
    }
    return true;
}

bool view_render_lines(const struct view_lines *lines, const struct view_render_options *options,
                       struct strbuf *out) {
    for (size_t i = 0; i < lines->count; i++) {
        if (!view_render_line(&lines->items[i], options, out) || !strbuf_append_char(out, '\n')) {
            return false;
        }
    }
    return true;
}
