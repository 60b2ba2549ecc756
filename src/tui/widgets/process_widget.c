/*
 * The monitor's process panel (docs/nvitop-behaviour.md §3.3.3, nvitop 1.7 columns): the superuser
 * caution and signal hint line, the header with the sort indicator, the rows of
 * view/processes/process_table.h with selection, tags and the same-process marker painted over
 * them, and the closing line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/widgets/panels.h"
#include "util/array.h"
#include "util/xalloc.h"

#define CAUTION_TEXT "!CAUTION: SUPERUSER LOGGED-IN."
#define SIGNAL_HINT  "(Press ^C(INT)/T(TERM)/K(KILL) to send signals)"
#define HOST_COLUMN  44 /* first cell of the host columns (%CPU ...) */

static int panel_width(const struct tui_app *app) {
    return app->cols < 79 ? 79 : app->cols;
}

/* Physical GPUs that have rows: each adds a separator line in the full layout. */
static size_t gpus_with_rows(const struct view_process_table *table) {
    size_t count = 0;
    for (size_t i = 0; i < table->count; i++) {
        if (i == 0 || table->rows[i].physical_index != table->rows[i - 1].physical_index) {
            count++;
        }
    }
    return count;
}

static bool separators_shown(const struct tui_app *app, bool compact) {
    return !compact && app->order == VIEW_SORT_NATURAL;
}

int process_panel_height(const struct tui_app *app, bool compact) {
    if (app->proc_snap == NULL) {
        return 7;
    }
    int rows = (int)app->table.count;
    if (separators_shown(app, compact) && rows > 0) {
        rows += (int)gpus_with_rows(&app->table) - 1;
    }
    return 1 + (5 + rows > 6 ? 5 + rows : 6);
}

/* The hint's keys and signal names: offset in the text, width, and whether it is a key. */
static const struct {
    int offset;
    int width;
    bool key;
} hint_spans[] = {{7, 2, true},   {10, 3, false}, {15, 1, true},
                  {17, 4, false}, {23, 1, true},  {25, 4, false}};

void signal_hint_draw(struct canvas *canvas, int y, int right) {
    const struct view_style plain = {0};
    int x = right - (int)strlen(SIGNAL_HINT);
    canvas_text(canvas, y, x, SIGNAL_HINT, plain);
    for (size_t i = 0; i < ARRAY_SIZE(hint_spans); i++) {
        int at = x + hint_spans[i].offset;
        int width = hint_spans[i].width;
        if (hint_spans[i].key) {
            canvas_color(canvas, y, at, width, VIEW_COLOR_MAGENTA);
            canvas_attrs(canvas, y, at, width, VIEW_ATTR_BOLD | VIEW_ATTR_ITALIC, 0xFF);
        } else {
            canvas_color(canvas, y, at, width, VIEW_COLOR_RED);
            canvas_attrs(canvas, y, at, width, VIEW_ATTR_BOLD, 0xFF);
        }
    }
}

void signal_hint_draw_header(struct canvas *canvas, int y, int right) {
    const struct view_style header =
        view_style_make(VIEW_COLOR_CYAN, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE);
    int x = right - (int)strlen(SIGNAL_HINT);
    canvas_text(canvas, y, x - 1, " " SIGNAL_HINT, header);
    for (size_t i = 0; i < ARRAY_SIZE(hint_spans); i++) {
        int at = x + hint_spans[i].offset;
        int width = hint_spans[i].width;
        if (hint_spans[i].key) {
            canvas_background(canvas, y, at, width, VIEW_COLOR_YELLOW);
            canvas_attrs(canvas, y, at, width, VIEW_ATTR_ITALIC, 0);
        } else {
            canvas_background(canvas, y, at, width, VIEW_COLOR_RED);
        }
    }
}

static void draw_caution_line(const struct tui_app *app, struct canvas *canvas, int y) {
    int width = panel_width(app);
    if (app->view.superuser) {
        const struct view_style caution = {VIEW_COLOR_YELLOW, VIEW_ATTR_ITALIC, VIEW_COLOR_DEFAULT};
        const struct view_style mark = {VIEW_COLOR_RED, VIEW_ATTR_BLINK, VIEW_COLOR_DEFAULT};
        canvas_text(canvas, y, 1, CAUTION_TEXT, caution);
        canvas_text(canvas, y, 1, "!", mark);
    }
    if (!app_can_signal(app) || !selection_has_targets(&app->selection)) {
        return;
    }
    signal_hint_draw(canvas, y, width);
}

/* Where COMMAND starts in the host columns once they are scrolled; 0 when scrolled past it. */
static int command_offset(const struct tui_app *app) {
    int host_offset = app->host_offset > 0 ? app->host_offset : 0;
    int time_width = app->table.time_width > 4 ? (int)app->table.time_width : 4;
    int offset = 14 + time_width - host_offset;
    return offset > 0 ? offset : 0;
}

/* The host column titles, scrolled with the host columns (nvitop draws them from column 44). */
static void draw_host_titles(const struct tui_app *app, struct canvas *canvas, int y) {
    const struct view_style plain = {0};
    int width = panel_width(app);
    int host_offset = app->host_offset > 0 ? app->host_offset : 0;
    int time_width = app->table.time_width > 4 ? (int)app->table.time_width : 4;
    char titles[64];
    snprintf(titles, sizeof(titles), "%%CPU  %%MEM  %*s  COMMAND", time_width, "TIME");
    const char *text = "COMMAND";
    if (command_offset(app) > 0) {
        text = host_offset < (int)strlen(titles) ? titles + host_offset : "";
    }
    canvas_fill(canvas, y, HOST_COLUMN, width - 46, " ", plain);
    canvas_text(canvas, y, HOST_COLUMN, text, plain);
    canvas_text(canvas, y, width - 2, " │", plain);
}

static void mark(struct canvas *canvas, int y, int x, int width, uint8_t attrs) {
    canvas_attrs(canvas, y, x, width, attrs, 0xFF);
}

static void draw_sort_indicator(const struct tui_app *app, struct canvas *canvas, int y) {
    const struct view_style plain = {0};
    const struct view_sort_info *info = view_sort_info(app->order);
    bool reverse = info->reverse != app->reverse;
    char label[32];
    snprintf(label, sizeof(label), "%s%s", info->column, reverse ? "▼" : "▲");
    int offset = (int)info->offset;
    int column_width = (int)strlen(info->column);
    int host_offset = app->host_offset > 0 ? app->host_offset : 0;
    const uint16_t bold_underline = VIEW_ATTR_BOLD | VIEW_ATTR_UNDERLINE;
    if (app->order == VIEW_SORT_CPU_PERCENT || app->order == VIEW_SORT_MEMORY_PERCENT ||
        app->order == VIEW_SORT_TIME) {
        offset -= host_offset;
        if (app->order == VIEW_SORT_TIME && app->table.time_width > 4) {
            offset += (int)app->table.time_width - 4;
        }
        if (offset > HOST_COLUMN || host_offset == 0) {
            canvas_text(canvas, y, offset - 1, label, plain);
            mark(canvas, y, offset - 1, column_width, bold_underline);
        } else if (offset <= HOST_COLUMN && HOST_COLUMN < offset + column_width) {
            canvas_text(canvas, y, HOST_COLUMN, label + (45 - offset), plain);
            if (offset + column_width >= 46) {
                mark(canvas, y, HOST_COLUMN, offset + column_width - 45, bold_underline);
            }
        }
        if (offset + column_width >= 45) {
            mark(canvas, y, offset + column_width - 1, 1, VIEW_ATTR_BOLD);
        }
        return;
    }
    if (app->order == VIEW_SORT_NATURAL && !reverse) {
        mark(canvas, y, 2, 3, VIEW_ATTR_BOLD);
        return;
    }
    canvas_text(canvas, y, offset - 1, label, plain);
    mark(canvas, y, offset - 1, column_width, bold_underline);
    mark(canvas, y, offset + column_width - 1, 1, VIEW_ATTR_BOLD);
}

static void draw_header(struct tui_app *app, struct canvas *canvas, int y) {
    const struct view_style plain = {0};
    int width = panel_width(app);
    char host_name[NVT_NAME_LEN] = "";
    /* Without the host panel the host is not sampled: the name then comes from the kernel. */
    if (app->snap != NULL && (app->snap->flags & NVT_SAMPLE_HOST)) {
        snprintf(host_name, sizeof(host_name), "%s", app->snap->host.hostname);
    } else if (gethostname(host_name, sizeof(host_name) - 1) != 0) {
        host_name[0] = '\0';
    }
    struct view_process_table empty = {0};
    const struct view_process_table *table = app->proc_snap != NULL ? &app->table : &empty;
    struct view_lines lines;
    view_lines_init(&lines);
    view_process_header(table, &app->view, host_name, (size_t)width, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        canvas_line(canvas, y + (int)i, 0, &lines.items[i]);
    }
    view_lines_fini(&lines);
    if (app->proc_snap == NULL) {
        canvas_fill(canvas, y + 4, 2, width - 4, " ", plain);
        canvas_text(canvas, y + 4, 2, " Gathering process status...", plain);
    }
    draw_host_titles(app, canvas, y + 2);
    draw_sort_indicator(app, canvas, y + 2);
}

static void paint_row(struct tui_app *app, struct canvas *canvas, int y, size_t i) {
    const struct view_process_row *row = &app->table.rows[i];
    struct selection *selection = &app->selection;
    int width = panel_width(app);
    bool tagged = selection_is_tagged(selection, row->process->pid);
    if (selection_is_same(selection, row)) {
        canvas_color(canvas, y, 1, width - 2, tagged ? VIEW_COLOR_YELLOW : VIEW_COLOR_CYAN);
        mark(canvas, y, 1, width - 2, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE);
        selection->within_window = y >= app->scroll && y < app->scroll + app->rows;
        return;
    }
    if (selection_is_same_on_host(selection, row)) {
        const struct view_style marker = {0, VIEW_ATTR_BOLD | VIEW_ATTR_BLINK, VIEW_COLOR_DEFAULT};
        canvas_text(canvas, y, 1, "=", marker);
    }
    if (tagged) {
        canvas_color(canvas, y, 5, width - 6, VIEW_COLOR_YELLOW);
        mark(canvas, y, 5, width - 6, row->owned ? VIEW_ATTR_BOLD : VIEW_ATTR_BOLD | VIEW_ATTR_DIM);
    } else if (!row->owned) {
        canvas_attrs(canvas, y, 5, width - 6, VIEW_ATTR_DIM, 0);
    }
}

static void draw_rows(struct tui_app *app, struct canvas *canvas, int y, bool compact) {
    int width = panel_width(app);
    bool separators = separators_shown(app, compact);
    struct view_line line;
    view_line_init(&line);
    if (app->table.count > 0) {
        app->row_y = xrealloc(app->row_y, app->table.count * sizeof(*app->row_y));
    }
    app->row_y_count = app->table.count;
    for (size_t i = 0; i < app->table.count; i++) {
        if (separators && i > 0 &&
            app->table.rows[i].physical_index != app->table.rows[i - 1].physical_index) {
            if (canvas_row_shown(canvas, y)) {
                view_line_clear(&line);
                view_process_separator((size_t)width, &line);
                canvas_line(canvas, y, 0, &line);
            }
            y++;
        }
        app->row_y[i] = y;
        if (!canvas_row_shown(canvas, y)) {
            /* Scrolled out (most of a thousand rows): only its place is kept. */
            if (selection_is_same(&app->selection, &app->table.rows[i])) {
                app->selection.within_window = y >= app->scroll && y < app->scroll + app->rows;
            }
            y++;
            continue;
        }
        view_line_clear(&line);
        view_process_row_line(&app->table, i, &app->view, (size_t)width, app->host_offset, &line);
        canvas_line(canvas, y, 0, &line);
        if (app->host_offset > 0) {
            const struct view_style plain = {0};
            canvas_text(canvas, y, HOST_COLUMN - 1, " ", plain);
        }
        const struct view_process_row *row = &app->table.rows[i];
        if (row->special && command_offset(app) == 0) {
            /* Scrolled past the start of COMMAND, the rows of exited, zombie and unreadable
             * processes still say so (as nvitop does), within the host columns. */
            struct view_line text;
            view_line_init(&text);
            const struct view_style style = {(uint16_t)row->command_color, 0, VIEW_COLOR_DEFAULT};
            int room = width - HOST_COLUMN - 2;
            int cells = canvas_text_width(row->command, strlen(row->command));
            view_line_add_fit(&text, row->command, (size_t)(cells < room ? cells : room), false,
                              style);
            canvas_line(canvas, y, HOST_COLUMN, &text);
            view_line_fini(&text);
        }
        paint_row(app, canvas, y, i);
        y++;
    }
    view_line_clear(&line);
    view_process_footer((size_t)width, &line);
    canvas_line(canvas, y, 0, &line);
    view_line_fini(&line);
}

void process_panel_draw(struct tui_app *app, struct canvas *canvas, int y, bool compact) {
    app->selection.within_window = false;
    draw_header(app, canvas, y + 1);
    if (app->proc_snap != NULL && app->table.count > 0) {
        draw_rows(app, canvas, y + 5, compact);
    } else {
        app->row_y_count = 0;
    }
    /* The hint depends on whether the selection is on screen, known only after the rows. */
    draw_caution_line(app, canvas, y);
}

int process_panel_row_at(const struct tui_app *app, int y) {
    for (size_t i = 0; i < app->row_y_count; i++) {
        if (app->row_y[i] == y) {
            return (int)i;
        }
    }
    return -1;
}
