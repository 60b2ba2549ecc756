/*
 * The monitor's device panel: the clock line and the device table of view/panels/device_panel.h,
 * and on wide terminals a bandwidth column to its right (PCIe RX/TX on a GPU's first row, NVLink on
 * its second).  The column is drawn here rather than in the view layer because only the monitor
 * samples the throughputs (a rate needs two readings, or before R555 a PCIe query that blocks
 * 20 ms per GPU and direction: too slow for the once report).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <nvitop/format.h>

#include "tui/widgets/panels.h"
#include "util/array.h"
#include "util/text/str.h"
#include "view/panels/device_panel.h"
#include "view/processes/filter.h"

#define HELP_HINT "(Press h for help or q to quit)"

int device_panel_height(const struct tui_app *app, bool compact) {
    if (app->snap == NULL) {
        return 1;
    }
    return 1 + (int)view_device_panel_height(app->snap, &app->view, compact);
}

static void draw_clock_line(struct canvas *canvas, int y, double wall_s) {
    const struct view_style plain = {0};
    const struct view_style key = {VIEW_COLOR_MAGENTA, VIEW_ATTR_BOLD | VIEW_ATTR_ITALIC,
                                   VIEW_COLOR_DEFAULT};
    time_t now = (time_t)wall_s;
    struct tm local;
    char text[64] = "";
    if (localtime_r(&now, &local) != NULL) {
        strftime(text, sizeof(text), "%a %b %d %H:%M:%S %Y", &local);
    }
    text[32] = '\0';
    canvas_text(canvas, y, 0, text, plain);
    int x = 79 - (int)strlen(HELP_HINT);
    canvas_text(canvas, y, x, HELP_HINT, plain);
    static const int key_offsets[] = {7, 18}; /* the `h` and the `q` */
    for (size_t i = 0; i < ARRAY_SIZE(key_offsets); i++) {
        canvas_color(canvas, y, x + key_offsets[i], 1, key.color);
        canvas_attrs(canvas, y, x + key_offsets[i], 1, key.attrs, 0xFF);
    }
}

int device_panel_bandwidth_col(const struct tui_app *app) {
    if (app->hide_bandwidth || app->cols < BANDWIDTH_MIN_WIDTH || app->snap == NULL ||
        view_shown_devices(app->snap, &app->view, NULL, 0) == 0) {
        return 0;
    }
    return app->cols - BANDWIDTH_WIDTH - 2;
}

/* "12.3GiB/s" from KiB/s; "N/A" for NaN. */
static void rate_text(char *buf, size_t size, double kibps) {
    /* "%.0fKiB/s", "%.1fMiB/s" or "%.2fGiB/s", with nvt_format_fixed() (printf's "%.*f") rather
     * than snprintf: two per device per frame. */
    if (isnan(kibps)) {
        str_copy(buf, size, "N/A");
        return;
    }
    const char *unit = "KiB/s";
    int digits = 0;
    double value = kibps;
    if (kibps >= 1024.0 * 1024.0) {
        unit = "GiB/s";
        digits = 2;
        value = kibps / (1024.0 * 1024.0);
    } else if (kibps >= 1024.0) {
        unit = "MiB/s";
        digits = 1;
        value = kibps / 1024.0;
    }
    size_t len = nvt_format_fixed(buf, size, value, digits);
    if (len < size) {
        str_copy(buf + len, size - len, unit);
    }
}

static double u32_rate(uint32_t kibps) {
    return nvt_is_na_u32(kibps) ? NAN : (double)kibps;
}

/* The sum over a GPU's links; NaN when no link has a value. */
static double link_sum(const double *kibps) {
    double sum = NAN;
    for (size_t i = 0; i < NVT_NVLINK_MAX_LINKS; i++) {
        if (!nvt_is_na_double(kibps[i])) {
            sum = isnan(sum) ? kibps[i] : sum + kibps[i];
        }
    }
    return sum;
}

/* The device at slot in the newest snapshot with PCIe throughput (the column's figures are read
 * every 5 s, not with every snapshot), when it is the same device as in the newest snapshot;
 * NULL when there is none. */
static const struct nvt_device_snapshot *pcie_device(const struct tui_app *app, size_t slot) {
    if (app->pcie_devices == NULL || slot >= app->pcie_device_count ||
        app->pcie_device_count != app->snap->device_count) {
        return NULL;
    }
    const struct nvt_device_snapshot *device = &app->pcie_devices[slot];
    const struct nvt_device_snapshot *now = &app->snap->devices[slot];
    if (device->info.index != now->info.index || strcmp(device->info.uuid, now->info.uuid) != 0) {
        return NULL; /* re-enumerated since */
    }
    return device;
}

/* The text of one row of the bandwidth cell (row 0: PCIe, row 1: NVLink) from device, N/A for
 * NULL. */
static void bandwidth_text(const struct nvt_device_snapshot *device, int row, char *buf,
                           size_t size) {
    char rx[24];
    char tx[24];
    if (device == NULL) {
        str_copy(rx, sizeof(rx), "N/A");
        str_copy(tx, sizeof(tx), "N/A");
    } else if (row == 0) {
        rate_text(rx, sizeof(rx), u32_rate(device->state.pcie_rx_kibps));
        rate_text(tx, sizeof(tx), u32_rate(device->state.pcie_tx_kibps));
    } else {
        rate_text(rx, sizeof(rx), link_sum(device->state.nvlink_rx_kibps));
        rate_text(tx, sizeof(tx), link_sum(device->state.nvlink_tx_kibps));
    }
    str_format_s(buf, size, " %-6s RX %11s  TX %11s", row == 0 ? "PCIe" : "NVLink", rx, tx);
}

/* The frame around the bandwidth cell follows the last character of each line of the panel. */
static bool frame_of(const struct view_line *line, const char **joint, const char **fill,
                     const char **end) {
    static const struct {
        const char *last;
        const char *joint;
        const char *fill;
        const char *end;
    } frames[] = {{"╕", "╤", "═", "╕"},
                  {"│", "│", " ", "│"},
                  {"┤", "┼", "─", "┤"},
                  {"╛", "╧", "═", "╛"},
                  {"╡", "╪", "═", "╡"}};
    for (size_t i = 0; i < ARRAY_SIZE(frames); i++) {
        size_t n = strlen(frames[i].last);
        if (line->len >= n && memcmp(line->text + line->len - n, frames[i].last, n) == 0) {
            *joint = frames[i].joint;
            *fill = frames[i].fill;
            *end = frames[i].end;
            return true;
        }
    }
    return false;
}

/* Draw the bandwidth cell beside the panel's lines (drawn at rows y + 1 ...), finding each
 * device's rows as view_device_panel() lays them out: after the header, each shown device's
 * rows (one for MIG devices and in compact mode, else two), with a separator between groups. */
static void draw_bandwidth(const struct tui_app *app, struct canvas *canvas, int y, bool compact,
                           const struct view_lines *lines, int col) {
    const struct view_style plain = {0};
    const struct nvt_snapshot *snap = app->snap;
    size_t device_lines = 0;
    const struct nvt_device_snapshot *prev = NULL;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (!view_device_is_shown(snap, &app->view, slot)) {
            continue;
        }
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        bool separator = prev != NULL && (device->info.is_mig != prev->info.is_mig ||
                                          device->info.index != prev->info.index);
        device_lines += (separator ? 1 : 0) + (device->info.is_mig || compact ? 1 : 2);
        prev = device;
    }
    if (lines->count < device_lines + 2) {
        return;
    }
    size_t first = lines->count - device_lines - 2; /* the double rule above the devices */
    for (size_t i = 0; i < lines->count; i++) {
        const char *joint;
        const char *fill;
        const char *end;
        if (i < first || !frame_of(&lines->items[i], &joint, &fill, &end)) {
            continue;
        }
        canvas_text(canvas, y + 1 + (int)i, col, joint, plain);
        canvas_fill(canvas, y + 1 + (int)i, col + 1, BANDWIDTH_WIDTH, fill, plain);
        canvas_text(canvas, y + 1 + (int)i, col + 1 + BANDWIDTH_WIDTH, end, plain);
    }
    size_t line = first + 1;
    prev = NULL;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (!view_device_is_shown(snap, &app->view, slot)) {
            continue;
        }
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        if (prev != NULL &&
            (device->info.is_mig != prev->info.is_mig || device->info.index != prev->info.index)) {
            line++;
        }
        int rows = device->info.is_mig || compact ? 1 : 2;
        for (int r = 0; r < rows && !device->info.is_mig; r++) {
            char text[96];
            bandwidth_text(pcie_device(app, slot), r, text, sizeof(text));
            canvas_text(canvas, y + 1 + (int)line + r, col + 1, text, plain);
        }
        line += (size_t)rows;
        prev = device;
    }
}

void device_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact,
                       double wall_s) {
    draw_clock_line(canvas, y, wall_s);
    if (app->snap == NULL) {
        return;
    }
    int bandwidth_col = device_panel_bandwidth_col(app);
    int width = app->cols < 79 ? 79 : app->cols;
    struct view_device_panel_options options = {
        .width = (size_t)(bandwidth_col > 0 ? bandwidth_col + 1 : width),
        .compact = compact,
        .selected_slot = app->selection.set ? app->selection.device_slot : NVT_NA_SIZE,
        .version = NULL,
    };
    struct view_lines lines;
    view_lines_init(&lines);
    view_device_panel(app->snap, &app->view, &options, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        canvas_line(canvas, y + 1 + (int)i, 0, &lines.items[i]);
    }
    if (bandwidth_col > 0) {
        draw_bandwidth(app, canvas, y, compact, &lines, bandwidth_col);
    }
    view_lines_fini(&lines);
}
