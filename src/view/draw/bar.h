/*
 * Horizontal percentage bars (nvitop's make_bar_chart, docs/nvitop-behaviour.md §3.5): "MEM:
 * ████▍ 15.1%" with eighth blocks, "░" fill for N/A, "MAX" at 100 %, and optional extra text
 * right-aligned at the end ("USED: 0.10GiB", "@ 1980MHz").
 */
#ifndef NVITOP_SRC_VIEW_DRAW_BAR_H
#define NVITOP_SRC_VIEW_DRAW_BAR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/text/strbuf.h"

/* A percentage as nvitop holds it: NaN for N/A; integral values print as "87%", fractional ones
 * as "81.8%" when there is room. */
struct view_percent {
    double value;
    bool integral;
};

struct view_bar_options {
    const char *extra_text;  /* NULL or "": none */
    bool swap_text;          /* show extra_text where the percentage goes (MEM, PWR, host bars) */
    const char *extra_blank; /* NULL or "": none; nvitop passes " " for panel bars */
};

/*
 * Append the bar for percent to out, exactly width cells wide (never wider, except when width is
 * smaller than the prefix itself).  options may be NULL.  Returns false only when out of memory
 * (out then holds a prefix of the bar).  Pure and thread-safe.
 */
bool view_bar(struct strbuf *out, const char *prefix, struct view_percent percent, size_t width,
              const struct view_bar_options *options);

#endif /* NVITOP_SRC_VIEW_DRAW_BAR_H */
