/*
 * The monitor's host panel (docs/nvitop-behaviour.md §3.3.2): the once report's two host lines when
 * compact, and otherwise Braille history graphs of CPU, memory and swap on the left and, from 100
 * columns, two graphs of the GPU metrics chosen in the settings (GPU memory and utilisation by
 * default, as nvitop) on the right.  The graphs' height is a setting too; hidden, the panel takes
 * no row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

#include "tui/widgets/graph.h"
#include "tui/widgets/panels.h"
#include "util/array.h"
#include "view/draw/intensity.h"
#include "view/panels/device_panel.h"
#include "view/panels/host_panel.h"
#include "view/processes/filter.h"

#define LEFT_WIDTH 77
#define BORDER_COL 78

/* Rows of the full panel: two graphs of graph_height rows on each side, the time-axis rule
 * between them and the bottom border (12 with the default height of 5, as nvitop's). */
static int full_height(const struct tui_app *app) {
    int h = app->graph_height;
    h = h < TUI_GRAPH_HEIGHT_MIN   ? TUI_GRAPH_HEIGHT_MIN
        : h > TUI_GRAPH_HEIGHT_MAX ? TUI_GRAPH_HEIGHT_MAX
                                   : h;
    return 2 * h + 2;
}

int host_panel_height(const struct tui_app *app, bool compact) {
    if (app->hide_host) {
        return 0;
    }
    return compact || app->view.ascii ? 2 : full_height(app);
}

bool host_panel_shows_graphs(const struct tui_app *app) {
    return !app->hide_host && !app->layout.host_compact && !app->view.ascii && app->cols >= 100;
}

static void percent_text(char *buf, size_t size, double value) {
    if (isnan(value)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.1f%%", value);
    }
}

static void metric_text(char *buf, size_t size, enum tui_graph_metric metric, double value) {
    if (tui_graph_metric_is_rate(metric) && !isnan(value)) {
        snprintf(buf, size, "%.1fMiB/s", value);
    } else {
        percent_text(buf, size, value);
    }
}

static void draw_compact(const struct tui_app *app, struct canvas *canvas, int y) {
    struct view_lines lines;
    view_lines_init(&lines);
    view_host_lines(&app->snap->host, (size_t)(app->cols < 79 ? 79 : app->cols), &lines);
    for (size_t i = 0; i < lines.count; i++) {
        canvas_line(canvas, y + (int)i, 0, &lines.items[i]);
    }
    view_lines_fini(&lines);
}

/* joint: column of the device panel's bottom split joint, or 0; bandwidth: the bandwidth column's
 * border (device_panel_bandwidth_col), or 0; height: full_height(). */
static void draw_frame(struct canvas *canvas, int y, int width, int joint, int bandwidth,
                       int height) {
    const struct view_style plain = {0};
    const int axis = height / 2 - 1; /* the time-axis rule between the graphs */
    const struct view_style dim = {0, VIEW_ATTR_DIM, VIEW_COLOR_DEFAULT};
    bool right = width >= 100;
    canvas_text(canvas, y - 1, 0,
                "╞═══════════════════════════════╧══════════════════════╧══════════════════════╡",
                plain);
    canvas_text(canvas, y + height - 1, 0, "╘", plain);
    canvas_fill(canvas, y + height - 1, 1, BORDER_COL - 1, "═", plain);
    canvas_text(canvas, y + height - 1, BORDER_COL, "╛", plain);
    for (int row = 0; row < height - 1; row++) {
        canvas_text(canvas, y + row, 0, "│", plain);
        canvas_fill(canvas, y + row, 1, LEFT_WIDTH, " ", plain);
        canvas_text(canvas, y + row, BORDER_COL, "│", plain);
    }
    canvas_text(canvas, y + axis, 0,
                "├────────────╴120s├─────────────────────────╴60s├──────────╴30s├──────────────┤",
                plain);
    canvas_attrs(canvas, y + axis, 14, 4, VIEW_ATTR_DIM, 0);
    canvas_attrs(canvas, y + axis, 45, 3, VIEW_ATTR_DIM, 0);
    canvas_attrs(canvas, y + axis, 60, 3, VIEW_ATTR_DIM, 0);
    if (!right) {
        return;
    }
    int remaining = width - 79;
    canvas_text(canvas, y - 1, BORDER_COL, "╪", plain);
    canvas_fill(canvas, y - 1, 79, remaining - 1, "═", plain);
    canvas_text(canvas, y - 1, width - 1, "╡", plain);
    if (joint > BORDER_COL && joint < width - 1) {
        /* nvitop 1.7 draws the device panel's joint below the last split device over this rule. */
        canvas_text(canvas, y - 1, joint, "╧", plain);
    }
    if (bandwidth > BORDER_COL && bandwidth < width - 1) {
        canvas_text(canvas, y - 1, bandwidth, "╧", plain);
    }
    canvas_text(canvas, y + height - 1, BORDER_COL, "╧", plain);
    canvas_fill(canvas, y + height - 1, 79, remaining - 1, "═", plain);
    canvas_text(canvas, y + height - 1, width - 1, "╛", plain);
    for (int row = 0; row < height - 1; row++) {
        canvas_fill(canvas, y + row, 79, remaining - 1, " ", plain);
        canvas_text(canvas, y + row, width - 1, "│", plain);
    }
    canvas_text(canvas, y + axis, BORDER_COL, "┼", plain);
    canvas_fill(canvas, y + axis, 79, remaining - 1, "─", plain);
    canvas_text(canvas, y + axis, width - 1, "┤", plain);
    static const struct {
        int offset;
        const char *text;
    } labels[] = {{20, "╴30s├"},  {35, "╴60s├"},   {66, "╴120s├"},
                  {96, "╴180s├"}, {126, "╴240s├"}, {156, "╴300s├"}};
    for (size_t i = 0; i < ARRAY_SIZE(labels); i++) {
        if (labels[i].offset > remaining) {
            break;
        }
        int x = width - labels[i].offset;
        canvas_text(canvas, y + axis, x, labels[i].text, plain);
        canvas_attrs(canvas, y + axis, x + 1, canvas_text_width(labels[i].text, 64) - 2, dim.attrs,
                     0);
    }
}

/* rows: the height of each graph pair (graph_height); CPU above the axis, memory and swap below. */
static void draw_left(const struct tui_app *app, struct canvas *canvas, int y, int rows) {
    const struct app_histories *h = &app->histories;
    const struct nvt_host_state *host = &app->snap->host;
    struct graph_options options = {.baseline = 0.0, .bound = 100.0};
    options.style.color = VIEW_COLOR_CYAN;
    graph_draw(canvas, y, 1, LEFT_WIDTH, rows, &h->cpu, &options);
    options.style.color = VIEW_COLOR_MAGENTA;
    options.upside_down = true;
    graph_draw(canvas, y + rows + 1, 1, LEFT_WIDTH, rows - 1, &h->memory, &options);
    options.style.color = VIEW_COLOR_BLUE;
    options.upside_down = false;
    graph_draw(canvas, y + 2 * rows, 1, LEFT_WIDTH, 1, &h->swap, &options);

    const struct view_style plain = {0};
    char text[160];
    char value[32];
    char load[96];
    view_load_average_text(load, sizeof(load), host);
    snprintf(text, sizeof(text), " %s ", load);
    canvas_text(canvas, y, 1, text, plain);
    percent_text(value, sizeof(value), history_last(&h->cpu));
    snprintf(text, sizeof(text), " CPU: %s ", value);
    canvas_text(canvas, y + 1, 1, text, plain);
    char used[32];
    nvt_format_bytes(used, sizeof(used), host->memory_used_bytes, NVT_GiB);
    percent_text(value, sizeof(value), history_last(&h->memory));
    snprintf(text, sizeof(text), " MEM: %s (%s) ", used, value);
    canvas_text(canvas, y + 2 * rows - 1, 1, text, plain);
    nvt_format_bytes(used, sizeof(used), host->swap_used_bytes, NVT_GiB);
    percent_text(value, sizeof(value), history_last(&h->swap));
    snprintf(text, sizeof(text), " SWP: %s (%s) ", used, value);
    canvas_text(canvas, y + 2 * rows, 1, text, plain);
}

/* The right-hand graphs follow the selected process's device when there are several. */
static void pick_gpu_histories(const struct tui_app *app, const struct history *out[APP_GRAPHS],
                               char *prefix, size_t size) {
    const struct app_histories *h = &app->histories;
    size_t shown = 0;
    for (size_t i = 0; i < app->snap->device_count; i++) {
        shown += host_panel_is_leaf(app, i) ? 1 : 0;
    }
    size_t slot = app->selection.device_slot;
    if (shown > 1 && app->selection.set && slot < h->device_count && h->device[0] != NULL) {
        const struct nvt_device_info *info = &app->snap->devices[slot].info;
        if (info->is_mig) {
            snprintf(prefix, size, "GPU %u:%u", info->index, info->mig_index);
        } else {
            snprintf(prefix, size, "GPU %u", info->index);
        }
        for (size_t g = 0; g < APP_GRAPHS; g++) {
            out[g] = &h->device[g][slot];
        }
        return;
    }
    snprintf(prefix, size, "%s", shown > 1 ? "AVG GPU" : "GPU");
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        out[g] = &h->gpu[g];
    }
}

/* The graph's colour: loading intensity for GPU memory (memory thresholds) and the other
 * percentages (GPU thresholds); throughputs have no thresholds. */
static uint16_t metric_color(const struct tui_app *app, enum tui_graph_metric metric,
                             double value) {
    const struct view_thresholds *th = &app->view.thresholds;
    if (tui_graph_metric_is_rate(metric)) {
        return VIEW_COLOR_CYAN;
    }
    if (metric == TUI_GRAPH_MEMORY) {
        return (uint16_t)view_intensity_color(view_intensity_of(value, th->mem_low, th->mem_high));
    }
    return (uint16_t)view_intensity_color(view_intensity_of(value, th->gpu_low, th->gpu_high));
}

/* Throughput graphs fill at the highest value of the window they show (at least 1 MiB/s). */
static double rate_bound(const struct history *history, int width) {
    double bound = 1.0;
    for (size_t i = 0; i < (size_t)width * 2 && i < history_count(history); i++) {
        double value = history_at(history, i);
        if (!isnan(value) && value > bound) {
            bound = value;
        }
    }
    return bound;
}

static void draw_right(const struct tui_app *app, struct canvas *canvas, int y, int rows) {
    int width = app->cols;
    int graph_width = width - 80 > 20 ? width - 80 : 20;
    const struct history *histories[APP_GRAPHS];
    char prefix[32];
    pick_gpu_histories(app, histories, prefix, sizeof(prefix));
    const struct view_style plain = {0};
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        enum tui_graph_metric metric = app->graphs[g];
        double last = history_last(histories[g]);
        struct graph_options options = {.baseline = 0.0, .bound = 100.0};
        if (tui_graph_metric_is_rate(metric)) {
            options.bound = rate_bound(histories[g], graph_width);
        }
        options.gradient_rows = app->gradients;
        options.upside_down = g == 1;
        options.style.color = metric_color(app, metric, last);
        int top = g == 0 ? y : y + rows + 1;
        graph_draw(canvas, top, 79, graph_width, rows, histories[g], &options);
        char value[32];
        char text[96];
        metric_text(value, sizeof(value), metric, last);
        snprintf(text, sizeof(text), " %s %s: %s ", prefix, tui_graph_metric_label(metric), value);
        canvas_text(canvas, g == 0 ? y : y + 2 * rows, 79, text, plain);
    }
}

void host_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact) {
    if (app->snap == NULL) {
        return;
    }
    if (app->hide_host) {
        return;
    }
    if (compact || app->view.ascii) {
        draw_compact(app, canvas, y);
        return;
    }
    int height = full_height(app);
    int width = app->cols < 79 ? 79 : app->cols;
    int bandwidth = device_panel_bandwidth_col(app);
    struct view_device_panel_options device_options = {
        /* The device table stops at the bandwidth column, as device_panel_draw() lays it out. */
        .width = (size_t)(bandwidth > 0 ? bandwidth + 1 : width),
        .compact = app->layout.device_compact,
        .selected_slot = NVT_NA_SIZE,
    };
    size_t joint = view_device_panel_bottom_joint(app->snap, &app->view, &device_options);
    draw_frame(canvas, y, width, (int)joint, bandwidth, height);
    draw_left(app, canvas, y, height / 2 - 1);
    if (width >= 100) {
        draw_right(app, canvas, y, height / 2 - 1);
    }
}
