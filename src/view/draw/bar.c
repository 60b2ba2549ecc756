/*
 * nvitop's make_bar_chart.  Every character of a bar is one cell wide, so cell counts are kept
 * alongside the bytes and all the "does it fit" tests use cells, as nvitop's len() does.
 */
#include "view/draw/bar.h"

#include <math.h>
#include <string.h>

#include <nvitop/format.h>

#include "util/text/str.h"

static const char *const partial_blocks[8] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

/* Cells of a string made of one-cell characters (bars, prefixes, numbers, extra texts). */
static long cells_of(const char *text) {
    long cells = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        cells += (*p & 0xC0) != 0x80;
    }
    return cells;
}

static bool add_repeat(struct strbuf *out, const char *unit, long count) {
    size_t len = strlen(unit);
    if (count <= 0 || len == 0) {
        return true;
    }
    if (!strbuf_reserve(out, len * (size_t)count)) {
        return false;
    }
    /* Copied in place into the reserved room, doubling: an append per unit was most of a bar. */
    char *base = out->data + out->len;
    size_t total = len * (size_t)count;
    memcpy(base, unit, len);
    for (size_t done = len; done < total;) {
        size_t more = done < total - done ? done : total - done;
        memcpy(base + done, base, more);
        done += more;
    }
    out->len += total;
    out->data[out->len] = '\0';
    return true;
}

/* Python's f'{x:.1f}' and f'{min(round(x), 100):d}%' with "100%" shown as "MAX". */
static void percent_texts(double value, char *fraction, size_t fsize, char *whole, size_t wsize) {
    size_t len = nvt_format_fixed(fraction, fsize, value, 1);
    if (len + 1 < fsize) {
        fraction[len] = '%';
        fraction[len + 1] = '\0';
    }
    double rounded = nvt_round_half_even(value);
    if (rounded >= 100.0) {
        str_copy(whole, wsize, "MAX");
    } else {
        len = nvt_format_fixed(whole, wsize, rounded, 0);
        if (len + 1 < wsize) {
            whole[len] = '%';
            whole[len + 1] = '\0';
        }
    }
}

/* Append "<bar> <text>" padded with spaces to width cells; the bar is bar_cells wide. */
static bool add_pair(struct strbuf *out, const char *bar, long bar_cells, const char *text,
                     long width) {
    long cells = bar_cells + 1 + cells_of(text);
    return strbuf_append_str(out, bar) && strbuf_append_char(out, ' ') &&
           strbuf_append_str(out, text) && add_repeat(out, " ", width - cells);
}

static bool finish(struct strbuf *out, const char *bar, long bar_cells, const char *text,
                   const char *extra, const char *blank, bool swap, long width) {
    if (extra[0] != '\0') {
        long full = bar_cells + 1 + cells_of(text) + 1 + cells_of(blank) + cells_of(extra);
        if (full <= width) {
            const char *shown = swap ? extra : text;
            const char *tail = swap ? text : extra;
            long left = width - cells_of(blank) - cells_of(tail) - 1;
            return add_pair(out, bar, bar_cells, shown, left) && strbuf_append_char(out, ' ') &&
                   strbuf_append_str(out, blank) && strbuf_append_str(out, tail);
        }
        if (swap && bar_cells + 1 + cells_of(extra) <= width) {
            return add_pair(out, bar, bar_cells, extra, width);
        }
    }
    return add_pair(out, bar, bar_cells, text, width);
}

bool view_bar(struct strbuf *out, const char *prefix, struct view_percent percent, size_t width,
              const struct view_bar_options *options) {
    const char *extra = options != NULL && options->extra_text != NULL ? options->extra_text : "";
    const char *blank = options != NULL && options->extra_blank != NULL ? options->extra_blank : "";
    bool swap = options != NULL && options->swap_text;
    long w = (long)width;

    struct strbuf bar = STRBUF_INIT;
    char text[64];
    /* The bar's cells are counted as it grows (a bar is hundreds of bytes of blocks). */
    long cells = cells_of(prefix) + 2;
    bool ok = strbuf_append_str(&bar, prefix) && strbuf_append(&bar, ": ", 2);
    if (ok && isfinite(percent.value)) {
        double fraction = fmin(fmax(percent.value / 100.0, 0.0), 1.0);
        double eighths = nvt_round_half_even(8.0 * (double)(w - cells - 4) * fraction);
        long total = eighths < 1.0 ? 1 : (long)eighths;
        ok = add_repeat(&bar, "█", total / 8) && strbuf_append_str(&bar, partial_blocks[total % 8]);
        cells += total / 8 + (total % 8 != 0);
        char fraction_text[64];
        char whole_text[64];
        percent_texts(percent.value, fraction_text, sizeof(fraction_text), whole_text,
                      sizeof(whole_text));
        bool fits = cells + 1 + cells_of(fraction_text) <= w;
        str_copy(text, sizeof(text), !percent.integral && fits ? fraction_text : whole_text);
    } else if (ok) {
        str_copy(text, sizeof(text), "N/A");
        if (extra[0] != '\0' && strstr(extra, "N/A") == NULL && swap &&
            cells + cells_of(extra) + 2 <= w) {
            str_copy(text, sizeof(text), extra);
            extra = "";
        }
        long blanks = w - cells - cells_of(text) - 1;
        ok = add_repeat(&bar, "░", blanks);
        cells += blanks > 0 ? blanks : 0;
    }
    ok = ok && finish(out, strbuf_cstr(&bar), cells, text, extra, blank, swap, w);
    strbuf_fini(&bar);
    return ok;
}
