/*
 * The device panel.  The left 79 columns are nvitop's fixed three-box table; from 100 columns a
 * bar column is appended to every line, split into two sub-columns (MEM|MBW over UTL|PWR, or
 * MEM|UTL in compact mode) once it is at least 44 columns wide, with the box joints of the
 * split drawn into the frame lines above and below each split device.
 */
#include "view/panels/device_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>
#include <nvitop/version.h>

#include "util/text/str.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"
#include "view/draw/bar.h"
#include "view/draw/intensity.h"
#include "view/panels/device_fields.h"
#include "view/processes/filter.h"

#define TABLE_WIDTH        79
#define BARS_MIN_WIDTH     100
#define GRID_MIN_REMAINING 44

struct panel {
    const struct nvt_snapshot *snap;
    const struct view_config *config;
    struct view_lines *out;
    size_t width;
    size_t remaining; /* width of the bar column including its right border */
    size_t left_width;
    size_t right_width;
    bool bars;
    bool grid;
    bool compact;
    bool support_mig;
    bool perf_right; /* compact layout: performance state right-aligned */
    size_t selected_slot;
};

static const struct view_style plain = {VIEW_COLOR_DEFAULT, 0, VIEW_COLOR_DEFAULT};

size_t view_shown_devices(const struct nvt_snapshot *snap, const struct view_config *config,
                          size_t *slots, size_t max) {
    size_t count = 0;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (!view_device_is_shown(snap, config, slot)) {
            continue;
        }
        if (count < max) {
            slots[count] = slot;
        }
        count++;
    }
    return count;
}

/* Append a frame line: the 78 cells of a 79-column frame text, then (with the bar column) the
 * joint, the fill with an optional split character, and the end; else the last character. */
static void frame_line(const struct panel *p, const char *left79, const char *last,
                       const char *joint, const char *fill, const char *end, const char *split) {
    struct view_line *line = view_lines_add(p->out);
    view_line_add(line, left79, plain);
    if (!p->bars) {
        view_line_add(line, last, plain);
        return;
    }
    view_line_add(line, joint, plain);
    size_t split_col = p->width - p->right_width - 4;
    size_t last_col = p->width - 1; /* columns TABLE_WIDTH .. last_col - 1 are filled */
    if (split != NULL && split_col >= TABLE_WIDTH && split_col < last_col) {
        view_line_add_repeat(line, fill, split_col - TABLE_WIDTH, plain);
        view_line_add(line, split, plain);
        view_line_add_repeat(line, fill, last_col - split_col - 1, plain);
    } else if (last_col > TABLE_WIDTH) {
        view_line_add_repeat(line, fill, last_col - TABLE_WIDTH, plain);
    }
    view_line_add(line, end, plain);
}

static const char *const row_left = "├───────────────────────────────┼──────────────────────┼──────"
                                    "────────────────";
static const char *const top_left = "╞═══════════════════════════════╪══════════════════════╪══════"
                                    "════════════════";
static const char *const bottom_left = "╘═══════════════════════════════╧══════════════════════╧═══"
                                       "═══════════════════";

static void version_line(const struct panel *p, const char *version) {
    char parts[3][NVT_VERSION_LEN + 32];
    const struct nvt_system_info *system = &p->snap->system;
    snprintf(parts[0], sizeof(parts[0]), "NVITOP %s", version);
    snprintf(parts[1], sizeof(parts[1]), "Driver Version: %s",
             system->driver_version[0] == '\0' ? "N/A" : system->driver_version);
    int32_t cuda = system->cuda_driver_version;
    if (nvt_is_na_i32(cuda)) {
        snprintf(parts[2], sizeof(parts[2]), "CUDA Driver Version: N/A");
    } else if (cuda % 10 == 0) {
        snprintf(parts[2], sizeof(parts[2]), "CUDA Driver Version: %d.%d", cuda / 1000,
                 (cuda % 1000) / 10);
    } else {
        snprintf(parts[2], sizeof(parts[2]), "CUDA Driver Version: %d.%d.%d", cuda / 1000,
                 (cuda % 1000) / 10, cuda % 10);
    }
    size_t total = strlen(parts[0]) + strlen(parts[1]) + strlen(parts[2]);
    if (total % 2 == 0) {
        strcat(parts[0], " ");
        total++;
    }
    size_t sep = total < 75 ? (75 - total) / 2 : 0;
    sep = sep < 2 ? 2 : sep;
    struct strbuf text = STRBUF_INIT;
    bool ok = strbuf_appendf(&text, "%s%*s%s%*s%s", parts[0], (int)sep, "", parts[1], (int)sep, "",
                             parts[2]);
    struct view_line *line = view_lines_add(p->out);
    view_line_add(line, "│ ", plain);
    view_line_add_fit(line, ok ? strbuf_cstr(&text) : "", text.len > 75 ? text.len : 75, false,
                      plain);
    view_line_add(line, " │", plain);
    strbuf_fini(&text);
}

static void header_lines(const struct panel *p, size_t shown, const char *version,
                         const char *first_split) {
    view_line_add(view_lines_add(p->out),
                  "╒═════════════════════════════════════════════════════════════════════════════╕",
                  plain);
    version_line(p, version);
    if (shown == 0) {
        static const char *const empty[] = {
            "╞═════════════════════════════════════════════════════════════════════════════╡",
            "│  No visible devices found                                                   │",
            "╘═════════════════════════════════════════════════════════════════════════════╛",
        };
        for (size_t i = 0; i < 3; i++) {
            view_line_add(view_lines_add(p->out), empty[i], plain);
        }
        return;
    }
    view_line_add(view_lines_add(p->out),
                  "├───────────────────────────────┬──────────────────────┬──────────────────────┤",
                  plain);
    if (p->compact) {
        view_line_add(
            view_lines_add(p->out),
            "│ GPU Fan Temp Perf Pwr:Usg/Cap │         Memory-Usage │ GPU-Util  Compute M. │",
            plain);
    } else {
        view_line_add(view_lines_add(p->out),
                      p->support_mig ? "│ GPU  Name        Persistence-M│ Bus-Id        Disp.A │ "
                                       "MIG M.   Uncorr. ECC │"
                                     : "│ GPU  Name        Persistence-M│ Bus-Id        Disp.A │ "
                                       "Volatile Uncorr. ECC │",
                      plain);
        view_line_add(
            view_lines_add(p->out),
            "│ Fan  Temp  Perf  Pwr:Usage/Cap│         Memory-Usage │ GPU-Util  Compute M. │",
            plain);
    }
    frame_line(p, top_left, "╡", "╪", "═", "╕", first_split);
}

/* Python's str.center(): the extra blank goes to the right. */
static void center(char *buf, size_t size, const char *text, size_t width) {
    size_t len = strlen(text);
    size_t pad = width > len ? width - len : 0;
    str_format_s(buf, size, "%*s%s%*s", (int)(pad / 2), "", text, (int)(pad - pad / 2), "");
}

/* The texts of a device's table lines (without the bar column), one per entry of rows. */
static size_t row_texts(const struct panel *p, const struct nvt_device_snapshot *device,
                        const struct view_device_fields *fields, char rows[2][512]) {
    if (device->info.is_mig) {
        str_format_s(rows[0], 512, "│%2s:%-2s%12s @ GI/CI:%2s/%-2s│ %20s │ BAR1: %8s / %3s │",
                     fields->index, fields->mig_index, fields->name, fields->gpu_instance,
                     fields->compute_instance, fields->memory_usage, fields->bar1_used,
                     fields->bar1_percent);
        return 1;
    }
    if (p->compact) {
        str_format_s(rows[0], 512, "│ %3s %3s %4s %*s%13s │ %20s │ %7s  %11s │", fields->index,
                     fields->fan, fields->temperature, p->perf_right ? 3 : -3, fields->performance,
                     fields->power_status, fields->memory_usage, fields->gpu_util,
                     fields->compute_mode);
        return 1;
    }
    char ecc[64];
    if (p->support_mig) {
        str_format_s(ecc, sizeof(ecc), "%8s  %10s", fields->mig_mode, fields->ecc);
    } else {
        str_format_s(ecc, sizeof(ecc), "%20s", fields->ecc);
    }
    char perf[sizeof(fields->performance) + 4];
    center(perf, sizeof(perf), fields->performance, 4);
    str_format_s(rows[0], 512, "│ %3s  %-19s %4s │ %-16s %3s │ %s │", fields->index, fields->name,
                 fields->persistence, fields->bus_id, fields->display_active, ecc);
    str_format_s(rows[1], 512, "│ %3s  %4s  %s %13s │ %20s │ %7s  %11s │", fields->fan,
                 fields->temperature, perf, fields->power_status, fields->memory_usage,
                 fields->gpu_util, fields->compute_mode);
    return 2;
}

/* Add text split at the box characters, each non-empty segment in style (nvitop colours the
 * boxes' contents, never the borders). */
static void add_segments(struct view_line *line, const char *text, struct view_style style) {
    const char *border = "│";
    size_t blen = strlen(border);
    const char *pos = text;
    for (;;) {
        const char *next = strstr(pos, border);
        size_t len = next == NULL ? strlen(pos) : (size_t)(next - pos);
        if (len > 0) {
            view_line_add_n(line, pos, len, style);
        }
        if (next == NULL) {
            return;
        }
        view_line_add_n(line, border, blen, plain);
        pos = next + blen;
    }
}

struct bar_cell {
    const char *prefix;
    struct view_percent percent;
    enum view_color color;
    size_t width;
    const char *extra;
};

static void add_bar(struct view_line *line, const struct bar_cell *cell, unsigned attrs) {
    struct strbuf text = STRBUF_INIT;
    const char *extra = strstr(cell->extra, "N/A") != NULL ? "" : cell->extra;
    size_t elen = strlen(cell->extra);
    bool swap = !(elen >= 3 && strcmp(cell->extra + elen - 3, "MHz") == 0);
    struct view_bar_options options = {extra, swap, " "};
    /* Out of memory leaves a shorter bar; the strbuf stays valid either way. */
    (void)view_bar(&text, cell->prefix, cell->percent, cell->width, &options);
    view_line_add(line, " ", plain);
    view_line_add_n(line, strbuf_cstr(&text), text.len, view_style_make(cell->color, attrs));
    view_line_add(line, " │", plain);
    strbuf_fini(&text);
}

static struct view_percent pct(double value, bool integral) {
    struct view_percent percent = {value, integral};
    return percent;
}

static struct view_percent u32_pct(uint32_t value) {
    return pct(nvt_is_na_u32(value) ? NAN : (double)value, true);
}

/* Fill the bar cells of a device: rows x columns, returns the number of rows. */
static size_t bar_cells(const struct panel *p, const struct nvt_device_snapshot *device,
                        const struct view_device_fields *f, struct bar_cell cells[2][2],
                        size_t *columns) {
    struct view_device_colors colors;
    view_device_colors(device, &p->config->thresholds, &colors);
    size_t full = p->remaining - 3;
    struct bar_cell mem = {"MEM", pct(view_device_memory_percent(device), false), colors.memory,
                           full, f->memory_used};
    struct bar_cell utl = {"UTL", u32_pct(device->state.gpu_util_pct), colors.gpu, full,
                           f->clock_sm[0] == '\0' ? "N/A" : f->clock_sm};
    struct bar_cell mbw = {"MBW", u32_pct(device->state.memory_bandwidth_util_pct),
                           colors.bandwidth, p->right_width,
                           f->clock_memory[0] == '\0' ? "N/A" : f->clock_memory};
    struct bar_cell pwr = {"PWR", pct(view_device_power_percent(device), false), colors.power,
                           p->right_width, f->power_usage};
    if (device->info.is_mig) {
        cells[0][0] = mem;
        *columns = 1;
        return 1;
    }
    if (p->grid) {
        mem.width = p->left_width;
        utl.width = p->compact ? p->right_width : p->left_width;
        *columns = 2;
        if (p->compact) {
            cells[0][0] = mem;
            cells[0][1] = utl;
            return 1;
        }
        cells[0][0] = mem;
        cells[0][1] = mbw;
        cells[1][0] = utl;
        cells[1][1] = pwr;
        return 2;
    }
    *columns = 1;
    cells[0][0] = mem;
    if (p->compact) {
        return 1;
    }
    cells[1][0] = utl;
    return 2;
}

static unsigned row_attrs(const struct panel *p, size_t slot) {
    if (p->selected_slot == NVT_NA_SIZE || p->selected_slot >= p->snap->device_count) {
        return 0;
    }
    const struct nvt_device_snapshot *device = &p->snap->devices[slot];
    const struct nvt_device_snapshot *selected = &p->snap->devices[p->selected_slot];
    if (slot == p->selected_slot) {
        return VIEW_ATTR_BOLD;
    }
    if (device->info.is_mig || device->info.index != selected->info.index) {
        return VIEW_ATTR_DIM;
    }
    return 0;
}

static void device_rows(const struct panel *p, size_t slot) {
    const struct nvt_device_snapshot *device = &p->snap->devices[slot];
    struct view_device_fields f;
    view_device_fields_fill(device, &f);
    char rows[2][512];
    size_t count = row_texts(p, device, &f, rows);
    struct view_device_colors colors;
    view_device_colors(device, &p->config->thresholds, &colors);
    unsigned attrs = row_attrs(p, slot);
    struct bar_cell cells[2][2];
    size_t columns = 0;
    size_t bar_rows = 0;
    if (p->bars) {
        bar_rows = bar_cells(p, device, &f, cells, &columns);
    }
    for (size_t r = 0; r < count; r++) {
        struct view_line *line = view_lines_add(p->out);
        add_segments(line, rows[r], view_style_make(colors.display, attrs));
        for (size_t c = 0; r < bar_rows && c < columns; c++) {
            add_bar(line, &cells[r][c], attrs);
        }
    }
}

/* Whether a device's bar column is split in two. */
static bool is_split(const struct panel *p, const struct nvt_device_snapshot *device) {
    return p->bars && p->grid && !device->info.is_mig;
}

static void init_panel(struct panel *p, const struct nvt_snapshot *snap,
                       const struct view_config *config,
                       const struct view_device_panel_options *options, struct view_lines *out) {
    memset(p, 0, sizeof(*p));
    p->snap = snap;
    p->config = config;
    p->out = out;
    p->width = options != NULL && options->width > TABLE_WIDTH ? options->width : TABLE_WIDTH;
    p->compact = options != NULL && options->compact;
    p->selected_slot = options != NULL ? options->selected_slot : NVT_NA_SIZE;
    p->bars = p->width >= BARS_MIN_WIDTH;
    p->remaining = p->width - TABLE_WIDTH;
    p->grid = p->remaining >= GRID_MIN_REMAINING;
    p->left_width = p->remaining >= 5 ? (p->remaining - 5) / 2 - 1 : 0;
    p->right_width = p->remaining >= 6 ? (p->remaining - 6) / 2 + 1 : 0;
    p->perf_right = true;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        if (!view_device_is_shown(snap, config, slot)) {
            continue;
        }
        if (device->state.mig_mode != NVT_FEATURE_NA && !device->info.is_mig) {
            p->support_mig = true;
        }
        char limit[24];
        if (nvt_is_na_u32(device->state.power_limit_mw)) {
            snprintf(limit, sizeof(limit), "N/A");
        } else {
            snprintf(limit, sizeof(limit), "%.0fW",
                     nvt_round_half_even(device->state.power_limit_mw / 1000.0));
        }
        if (strlen(limit) >= 5) {
            p->perf_right = false;
        }
    }
}

void view_device_panel(const struct nvt_snapshot *snap, const struct view_config *config,
                       const struct view_device_panel_options *options, struct view_lines *out) {
    struct panel p;
    init_panel(&p, snap, config, options, out);
    size_t shown = view_shown_devices(snap, config, NULL, 0);
    size_t *slots = xcalloc(shown == 0 ? 1 : shown, sizeof(*slots));
    view_shown_devices(snap, config, slots, shown);
    const char *version =
        options != NULL && options->version != NULL ? options->version : NVT_VERSION_STRING;
    bool first_split = shown > 0 && is_split(&p, &snap->devices[slots[0]]);
    header_lines(&p, shown, version, first_split ? "╤" : NULL);
    for (size_t i = 0; i < shown; i++) {
        const struct nvt_device_snapshot *device = &snap->devices[slots[i]];
        if (i > 0) {
            const struct nvt_device_snapshot *prev = &snap->devices[slots[i - 1]];
            if (device->info.is_mig != prev->info.is_mig ||
                device->info.index != prev->info.index) {
                const char *split = NULL;
                if (is_split(&p, device)) {
                    split = prev->info.is_mig ? "┬" : "┼";
                } else if (is_split(&p, prev)) {
                    split = "┴";
                }
                frame_line(&p, row_left, "┤", "┼", "─", "┤", split);
            }
        }
        device_rows(&p, slots[i]);
    }
    if (shown > 0) {
        bool last_split = is_split(&p, &snap->devices[slots[shown - 1]]);
        frame_line(&p, bottom_left, "╛", "╧", "═", "╛", last_split ? "╧" : NULL);
    }
    free(slots);
}

size_t view_device_panel_bottom_joint(const struct nvt_snapshot *snap,
                                      const struct view_config *config,
                                      const struct view_device_panel_options *options) {
    struct panel p;
    init_panel(&p, snap, config, options, NULL);
    size_t last = NVT_NA_SIZE;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (view_device_is_shown(snap, config, slot)) {
            last = slot;
        }
    }
    if (last == NVT_NA_SIZE || !is_split(&p, &snap->devices[last])) {
        return 0;
    }
    return p.width - p.right_width - 4;
}

/* Counted from the panel's structure rather than by rendering it: the monitor asks for both
 * layouts' heights on every frame to choose its display mode. */
size_t view_device_panel_height(const struct nvt_snapshot *snap, const struct view_config *config,
                                bool compact) {
    /* Top border, version line, then either the three "No visible devices" lines or the column
     * separator, one or two header rows and the double rule. */
    size_t height = 2;
    const struct nvt_device_snapshot *prev = NULL;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (!view_device_is_shown(snap, config, slot)) {
            continue;
        }
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        if (prev != NULL &&
            (device->info.is_mig != prev->info.is_mig || device->info.index != prev->info.index)) {
            height++; /* separator between device groups */
        }
        height += device->info.is_mig || compact ? 1 : 2;
        prev = device;
    }
    if (prev == NULL) {
        return height + 3;
    }
    return height + (compact ? 3 : 4) + 1; /* header rows, and the bottom border */
}

size_t view_device_panel_print_width(const struct nvt_snapshot *snap,
                                     const struct view_config *config, size_t width) {
    if (view_shown_devices(snap, config, NULL, 0) > 0 && width >= BARS_MIN_WIDTH) {
        return width;
    }
    return TABLE_WIDTH;
}
