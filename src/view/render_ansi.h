/*
 * Turning styled lines into bytes for a stream: with termcolor's ANSI escape sequences
 * (docs/nvitop-behaviour.md §2.6: attributes before the colour, "ESC[0m" after every styled run) or
 * as plain text, and optionally translated to ASCII.
 */
#ifndef NVITOP_SRC_VIEW_RENDER_ANSI_H
#define NVITOP_SRC_VIEW_RENDER_ANSI_H

#include <stdbool.h>

#include "util/text/strbuf.h"
#include "view/draw/line.h"

struct view_render_options {
    bool color; /* emit escape sequences for styled spans */
    bool ascii; /* apply the ASCII map of docs/nvitop-behaviour.md §2.7 */
};

/* Append the line (without a newline) to out.  Returns false when out of memory. */
bool view_render_line(const struct view_line *line, const struct view_render_options *options,
                      struct strbuf *out);

/* Append every line, each followed by "\n".  Returns false when out of memory. */
bool view_render_lines(const struct view_lines *lines, const struct view_render_options *options,
                       struct strbuf *out);

#endif /* NVITOP_SRC_VIEW_RENDER_ANSI_H */
