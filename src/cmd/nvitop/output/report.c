/*
 * Composition of the once report from the view layer's panels.
 */
#include "cmd/nvitop/output/report.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/text/strbuf.h"
#include "view/panels/device_panel.h"
#include "view/panels/host_panel.h"
#include "view/processes/process_table.h"
#include "view/render_ansi.h"

#define MIN_WIDTH     79
#define MIN_PRINT_CAP 140

size_t report_terminal_columns(void) {
    const char *env = getenv("COLUMNS");
    if (env != NULL) {
        char *end = NULL;
        long value = strtol(env, &end, 10);
        if (end != env && *end == '\0' && value > 0) {
            return (size_t)value;
        }
    }
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        return ws.ws_col;
    }
    return MIN_WIDTH;
}

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/* report_width() with the process table built already. */
static size_t width_of(const struct nvt_snapshot *snap, const struct view_config *config,
                       size_t columns, const struct view_process_table *table) {
    size_t width = columns < MIN_WIDTH ? MIN_WIDTH : columns;
    if (view_shown_devices(snap, config, NULL, 0) == 0) {
        return MIN_WIDTH;
    }
    /* The device panel and the host lines want the same width. */
    size_t panels = view_device_panel_print_width(snap, config, width);
    size_t processes = view_process_table_print_width(table, width);
    size_t print_width = min_size(panels, processes);
    size_t floor = min_size(width, MIN_PRINT_CAP);
    return print_width > floor ? print_width : floor;
}

/* report_lines() with the process table built already. */
static void lines_of(const struct nvt_snapshot *snap, const struct view_config *config,
                     size_t width, const struct view_process_table *table, struct view_lines *out) {
    struct view_device_panel_options options = {width, false, NVT_NA_SIZE, NULL};
    view_device_panel(snap, config, &options, out);
    view_host_lines(&snap->host, width, out);
    view_process_table_lines(table, config, snap->host.hostname, width, out);
}

size_t report_width(const struct nvt_snapshot *snap, const struct view_config *config,
                    size_t columns) {
    struct view_process_table table;
    view_process_table_build(snap, config, VIEW_SORT_NATURAL, false, &table);
    size_t width = width_of(snap, config, columns, &table);
    view_process_table_fini(&table);
    return width;
}

void report_lines(const struct nvt_snapshot *snap, const struct view_config *config, size_t width,
                  struct view_lines *out) {
    struct view_process_table table;
    view_process_table_build(snap, config, VIEW_SORT_NATURAL, false, &table);
    lines_of(snap, config, width, &table, out);
    view_process_table_fini(&table);
}

bool report_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config,
                  size_t columns) {
    return report_print_at(out, snap, config, columns, (double)time(NULL));
}

bool report_print_at(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config,
                     size_t columns, double when) {
    /* One process table for the width and the lines: building it is a pass over every process. */
    struct view_process_table table;
    view_process_table_build(snap, config, VIEW_SORT_NATURAL, false, &table);
    size_t width = width_of(snap, config, columns, &table);
    struct view_lines lines;
    view_lines_init(&lines);
    char stamp[64];
    time_t now = (time_t)when;
    struct tm local;
    if (localtime_r(&now, &local) == NULL ||
        strftime(stamp, sizeof(stamp), "%a %b %d %H:%M:%S %Y", &local) == 0) {
        stamp[0] = '\0';
    }
    view_line_add(view_lines_add(&lines), stamp, view_style_make(VIEW_COLOR_DEFAULT, 0));
    lines_of(snap, config, width, &table, &lines);
    view_process_table_fini(&table);
    struct view_render_options render = {config->color, config->ascii};
    struct strbuf text = STRBUF_INIT;
    bool ok = view_render_lines(&lines, &render, &text);
    ok = ok && fwrite(strbuf_cstr(&text), 1, text.len, out) == text.len;
    ok = fflush(out) == 0 && ok;
    strbuf_fini(&text);
    view_lines_fini(&lines);
    return ok;
}
