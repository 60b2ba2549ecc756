/*
 * The host lines of the once report.
 */
#include "view/panels/host_panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nvitop/format.h>

#include "util/text/str.h"
#include "util/text/strbuf.h"
#include "view/draw/bar.h"

static void load_value(char *buf, size_t size, double value) {
    if (isnan(value)) {
        snprintf(buf, size, "N/A");
    } else if (value >= 10000.0) {
        snprintf(buf, size, "9999+");
    } else {
        char full[64];
        snprintf(full, sizeof(full), "%5.2f", value);
        full[5] = '\0';
        str_copy(buf, size, full);
    }
}

size_t view_load_average_text(char *buf, size_t size, const struct nvt_host_state *host) {
    char values[3][16];
    load_value(values[0], sizeof(values[0]), host->load_1m);
    load_value(values[1], sizeof(values[1]), host->load_5m);
    load_value(values[2], sizeof(values[2]), host->load_15m);
    int n = snprintf(buf, size, "Load Average: %s %s %s", values[0], values[1], values[2]);
    return n < 0 ? 0 : (size_t)n;
}

/* "[ <bar> ]" in style, bar width cells wide. */
static void add_bracketed_bar(struct view_line *line, const char *prefix, double percent,
                              long width, const char *extra, enum view_color color) {
    struct strbuf text = STRBUF_INIT;
    struct view_percent value = {percent, false};
    struct view_bar_options options = {extra, false, " "};
    bool ok = strbuf_append_str(&text, "[ ") &&
              view_bar(&text, prefix, value, width > 0 ? (size_t)width : 0, &options) &&
              strbuf_append_str(&text, " ]");
    (void)ok; /* out of memory: a shorter line, never a crash */
    view_line_add_n(line, strbuf_cstr(&text), text.len, view_style_make(color, VIEW_ATTR_BOLD));
    strbuf_fini(&text);
}

void view_host_lines(const struct nvt_host_state *host, size_t width, struct view_lines *out) {
    char load[96];
    view_load_average_text(load, sizeof(load), host);
    long width_right = (long)strlen(load) + 4;
    long width_left = (long)width - 2 - width_right;

    char uptime[48];
    char extra[64];
    nvt_format_duration(uptime, sizeof(uptime), host->uptime_s, true);
    snprintf(extra, sizeof(extra), "UPTIME: %s", uptime);
    struct view_line *line = view_lines_add(out);
    add_bracketed_bar(line, "CPU", host->cpu_percent, width_left - 4, extra, VIEW_COLOR_CYAN);
    view_line_add(line, "  ", view_style_make(VIEW_COLOR_DEFAULT, 0));
    char bracketed[128];
    snprintf(bracketed, sizeof(bracketed), "( %s )", load);
    view_line_add(line, bracketed, view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD));

    char used[32];
    if (nvt_is_na_u64(host->memory_used_bytes)) {
        snprintf(used, sizeof(used), "N/A");
    } else {
        nvt_format_bytes(used, sizeof(used), host->memory_used_bytes, NVT_GiB);
    }
    snprintf(extra, sizeof(extra), "USED: %s", used);
    line = view_lines_add(out);
    add_bracketed_bar(line, "MEM", host->memory_percent, width_left - 4, extra, VIEW_COLOR_MAGENTA);
    view_line_add(line, "  ", view_style_make(VIEW_COLOR_DEFAULT, 0));
    add_bracketed_bar(line, "SWP", host->swap_percent, width_right - 4, NULL, VIEW_COLOR_BLUE);
}
