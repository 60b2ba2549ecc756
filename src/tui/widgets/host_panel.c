/*
 * The monitor's host panel (SPEC.md §3.3.2): the once report's two host lines when compact, and
 * otherwise Braille history graphs of CPU, memory and swap on the left and of GPU memory and
 * utilisation on the right (from 100 columns).
 */
#include "view/host_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

#include "tui/widgets/graph.h"
#include "tui/widgets/panels.h"
#include "view/filter.h"
#include "view/intensity.h"

#define FULL_HEIGHT 12
#define LEFT_WIDTH  77
#define BORDER_COL  78

int host_panel_height(const struct tui_app *app, bool compact) {
    return compact || app->view.ascii ? 2 : FULL_HEIGHT;
}

/* GPU memory (sum used / sum total) and utilisation (mean) over the shown physical devices. */
static void gpu_averages(const struct tui_app *app, double *memory, double *util) {
    const struct nvt_snapshot *snap = app->snap;
    uint64_t used = 0;
    uint64_t total = 0;
    double util_sum = 0.0;
    size_t util_count = 0;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        if (device->info.is_mig || !view_device_is_shown(snap, &app->view, slot)) {
            continue;
        }
        const struct nvt_device_state *state = &device->state;
        if (!nvt_is_na_u64(state->memory_used_bytes) && !nvt_is_na_u64(state->memory_total_bytes)) {
            used += state->memory_used_bytes;
            total += state->memory_total_bytes;
        }
        if (!nvt_is_na_u32(state->gpu_util_pct)) {
            util_sum += state->gpu_util_pct;
            util_count++;
        }
    }
    *memory = total > 0 ? 100.0 * (double)used / (double)total : NAN;
    *util = util_count > 0 ? util_sum / (double)util_count : NAN;
}

static bool ensure_device_histories(struct app_histories *histories, size_t count) {
    if (histories->device_count == count) {
        return true;
    }
    for (size_t i = 0; i < histories->device_count; i++) {
        history_fini(&histories->device_memory[i]);
        history_fini(&histories->device_util[i]);
    }
    free(histories->device_memory);
    free(histories->device_util);
    histories->device_memory = calloc(count > 0 ? count : 1, sizeof(struct history));
    histories->device_util = calloc(count > 0 ? count : 1, sizeof(struct history));
    histories->device_count = 0;
    if (histories->device_memory == NULL || histories->device_util == NULL) {
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        history_init(&histories->device_memory[i]);
        history_init(&histories->device_util[i]);
    }
    histories->device_count = count;
    return true;
}

void host_panel_record(struct tui_app *app, double now_s) {
    const struct nvt_snapshot *snap = app->snap;
    struct app_histories *histories = &app->histories;
    if (snap == NULL) {
        return;
    }
    if (snap->flags & NVT_SAMPLE_HOST) {
        history_add(&histories->cpu, now_s, snap->host.cpu_percent);
        history_add(&histories->memory, now_s, snap->host.memory_percent);
        history_add(&histories->swap, now_s, snap->host.swap_percent);
    }
    double memory;
    double util;
    gpu_averages(app, &memory, &util);
    history_add(&histories->gpu_memory, now_s, memory);
    history_add(&histories->gpu_util, now_s, util);
    if (!ensure_device_histories(histories, snap->device_count)) {
        return;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        uint32_t gpu = device->state.gpu_util_pct;
        history_add(&histories->device_memory[slot], now_s, view_device_memory_percent(device));
        history_add(&histories->device_util[slot], now_s, nvt_is_na_u32(gpu) ? NAN : gpu);
    }
}

static void percent_text(char *buf, size_t size, double value) {
    if (isnan(value)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.1f%%", value);
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

static void draw_frame(struct canvas *canvas, int y, int width) {
    const struct view_style plain = {0};
    const struct view_style dim = {0, VIEW_ATTR_DIM};
    bool right = width >= 100;
    canvas_text(canvas, y - 1, 0,
                "╞═══════════════════════════════╧══════════════════════╧══════════════════════╡",
                plain);
    canvas_text(canvas, y + FULL_HEIGHT - 1, 0, "╘", plain);
    canvas_fill(canvas, y + FULL_HEIGHT - 1, 1, BORDER_COL - 1, "═", plain);
    canvas_text(canvas, y + FULL_HEIGHT - 1, BORDER_COL, "╛", plain);
    for (int row = 0; row < FULL_HEIGHT - 1; row++) {
        canvas_text(canvas, y + row, 0, "│", plain);
        canvas_fill(canvas, y + row, 1, LEFT_WIDTH, " ", plain);
        canvas_text(canvas, y + row, BORDER_COL, "│", plain);
    }
    canvas_text(canvas, y + 5, 0,
                "├────────────╴120s├─────────────────────────╴60s├──────────╴30s├──────────────┤",
                plain);
    canvas_attrs(canvas, y + 5, 14, 4, VIEW_ATTR_DIM, 0);
    canvas_attrs(canvas, y + 5, 45, 3, VIEW_ATTR_DIM, 0);
    canvas_attrs(canvas, y + 5, 60, 3, VIEW_ATTR_DIM, 0);
    if (!right) {
        return;
    }
    int remaining = width - 79;
    canvas_text(canvas, y - 1, BORDER_COL, "╪", plain);
    canvas_fill(canvas, y - 1, 79, remaining - 1, "═", plain);
    canvas_text(canvas, y - 1, width - 1, "╡", plain);
    canvas_text(canvas, y + FULL_HEIGHT - 1, BORDER_COL, "╧", plain);
    canvas_fill(canvas, y + FULL_HEIGHT - 1, 79, remaining - 1, "═", plain);
    canvas_text(canvas, y + FULL_HEIGHT - 1, width - 1, "╛", plain);
    for (int row = 0; row < FULL_HEIGHT - 1; row++) {
        canvas_fill(canvas, y + row, 79, remaining - 1, " ", plain);
        canvas_text(canvas, y + row, width - 1, "│", plain);
    }
    canvas_text(canvas, y + 5, BORDER_COL, "┼", plain);
    canvas_fill(canvas, y + 5, 79, remaining - 1, "─", plain);
    canvas_text(canvas, y + 5, width - 1, "┤", plain);
    static const struct {
        int offset;
        const char *text;
    } labels[] = {{20, "╴30s├"},  {35, "╴60s├"},   {66, "╴120s├"},
                  {96, "╴180s├"}, {126, "╴240s├"}, {156, "╴300s├"}};
    for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
        if (labels[i].offset > remaining) {
            break;
        }
        int x = width - labels[i].offset;
        canvas_text(canvas, y + 5, x, labels[i].text, plain);
        canvas_attrs(canvas, y + 5, x + 1, canvas_text_width(labels[i].text, 64) - 2, dim.attrs, 0);
    }
}

static void draw_left(const struct tui_app *app, struct canvas *canvas, int y) {
    const struct app_histories *h = &app->histories;
    const struct nvt_host_state *host = &app->snap->host;
    struct graph_options options = {.baseline = 0.0, .bound = 100.0};
    options.style.color = VIEW_COLOR_CYAN;
    graph_draw(canvas, y, 1, LEFT_WIDTH, 5, &h->cpu, &options);
    options.style.color = VIEW_COLOR_MAGENTA;
    options.upside_down = true;
    graph_draw(canvas, y + 6, 1, LEFT_WIDTH, 4, &h->memory, &options);
    options.style.color = VIEW_COLOR_BLUE;
    options.upside_down = false;
    graph_draw(canvas, y + 10, 1, LEFT_WIDTH, 1, &h->swap, &options);

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
    canvas_text(canvas, y + 9, 1, text, plain);
    nvt_format_bytes(used, sizeof(used), host->swap_used_bytes, NVT_GiB);
    percent_text(value, sizeof(value), history_last(&h->swap));
    snprintf(text, sizeof(text), " SWP: %s (%s) ", used, value);
    canvas_text(canvas, y + 10, 1, text, plain);
}

/* The right-hand graphs follow the selected process's device when there are several. */
static void pick_gpu_histories(const struct tui_app *app, const struct history **memory,
                               const struct history **util, char *prefix, size_t size) {
    const struct app_histories *h = &app->histories;
    size_t shown = 0;
    for (size_t i = 0; i < app->snap->device_count; i++) {
        if (!app->snap->devices[i].info.is_mig && view_device_is_shown(app->snap, &app->view, i)) {
            shown++;
        }
    }
    size_t slot = app->selection.device_slot;
    if (shown > 1 && app->selection.set && slot < h->device_count) {
        const struct nvt_device_info *info = &app->snap->devices[slot].info;
        if (info->is_mig) {
            snprintf(prefix, size, "GPU %u:%u", info->index, info->mig_index);
        } else {
            snprintf(prefix, size, "GPU %u", info->index);
        }
        *memory = &h->device_memory[slot];
        *util = &h->device_util[slot];
        return;
    }
    snprintf(prefix, size, "%s", shown > 1 ? "AVG GPU" : "GPU");
    *memory = &h->gpu_memory;
    *util = &h->gpu_util;
}

static void draw_right(const struct tui_app *app, struct canvas *canvas, int y) {
    const struct view_thresholds *th = &app->view.thresholds;
    int width = app->cols;
    int graph_width = width - 80 > 20 ? width - 80 : 20;
    const struct history *memory;
    const struct history *util;
    char prefix[32];
    pick_gpu_histories(app, &memory, &util, prefix, sizeof(prefix));
    double memory_last = history_last(memory);
    double util_last = history_last(util);

    struct graph_options options = {.baseline = 0.0, .bound = 100.0};
    options.gradient_rows = app->gradients;
    options.style.color =
        (uint16_t)view_intensity_color(view_intensity_of(memory_last, th->mem_low, th->mem_high));
    graph_draw(canvas, y, 79, graph_width, 5, memory, &options);
    options.upside_down = true;
    options.style.color =
        (uint16_t)view_intensity_color(view_intensity_of(util_last, th->gpu_low, th->gpu_high));
    graph_draw(canvas, y + 6, 79, graph_width, 5, util, &options);

    const struct view_style plain = {0};
    char value[32];
    char text[96];
    percent_text(value, sizeof(value), memory_last);
    snprintf(text, sizeof(text), " %s MEM: %s ", prefix, value);
    canvas_text(canvas, y, 79, text, plain);
    percent_text(value, sizeof(value), util_last);
    snprintf(text, sizeof(text), " %s UTL: %s ", prefix, value);
    canvas_text(canvas, y + 10, 79, text, plain);
}

void host_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact) {
    if (app->snap == NULL) {
        return;
    }
    if (compact || app->view.ascii) {
        draw_compact(app, canvas, y);
        return;
    }
    int width = app->cols < 79 ? 79 : app->cols;
    draw_frame(canvas, y, width);
    draw_left(app, canvas, y);
    if (width >= 100) {
        draw_right(app, canvas, y);
    }
}
