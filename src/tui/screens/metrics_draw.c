/*
 * Drawing the process metrics screen (docs/nvitop-behaviour.md §3.10): the frame, the header and
 * value rows, the four graphs with their labels, y-ticks and time marks, and the "exited" mark.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <nvitop/format.h>

#include "tui/screens/metrics_screen.h"
#include "tui/widgets/graph.h"
#include "util/array.h"
#include "util/text/str.h"
#include "util/text/utf8.h"
#include "view/processes/filter.h"

static const struct view_style plain = {0};

/* nvitop's cut_string: text longer than maxlen cells keeps its start and ends with pad. */
static void cut_text(char *buf, size_t size, const char *text, size_t maxlen, const char *pad) {
    size_t len = strlen(text);
    if (utf8_width(text, len) <= maxlen) {
        str_copy(buf, size, text);
        return;
    }
    size_t pad_len = strlen(pad);
    size_t keep = maxlen > pad_len ? utf8_fit(text, len, maxlen - pad_len, NULL) : 0;
    snprintf(buf, size, "%.*s%s", (int)keep, text, pad);
}

/* One frame line: left end, fill, the split character at column split (none when 0), fill, right
 * end, built as one text so the canvas draws it in one pass (12,000 cells a frame at 200×60). */
static void rule(struct canvas *canvas, int y, int width, const char *ends[3], const char *fill,
                 int split) {
    char text[3 * 1024 + 16];
    size_t fill_len = strlen(fill);
    size_t len = 0;
    width = width > 1024 ? 1024 : width;
    len += (size_t)snprintf(text, sizeof(text), "%s", ends[0]);
    for (int x = 1; x < width - 1; x++) {
        const char *ch = x == split ? ends[1] : fill;
        size_t n = x == split ? strlen(ends[1]) : fill_len;
        memcpy(text + len, ch, n);
        len += n;
    }
    len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", ends[2]);
    canvas_textn(canvas, y, 0, text, len, plain);
}

static void draw_frame(struct canvas *canvas, const struct metrics_layout *l) {
    int w = l->width;
    int split = l->left + 1;
    rule(canvas, 0, w, (const char *[3]){"╒", "", "╕"}, "═", 0);
    for (int y = 1; y <= 4; y++) {
        if (y == 3) {
            rule(canvas, y, w, (const char *[3]){"╞", "", "╡"}, "═", 0);
        } else {
            rule(canvas, y, w, (const char *[3]){"│", "", "│"}, " ", 0);
        }
    }
    rule(canvas, 5, w, (const char *[3]){"╞", "╤", "╡"}, "═", split);
    for (int i = 0; i < l->upper + l->lower + 1; i++) {
        int y = 6 + i;
        if (i == l->upper) {
            rule(canvas, y, w, (const char *[3]){"├", "┼", "┤"}, "─", split);
        } else {
            /* The graphs fill their rectangles, blanks included: only the borders here. */
            canvas_text(canvas, y, 0, "│", plain);
            canvas_text(canvas, y, split, "│", plain);
            canvas_text(canvas, y, w - 1, "│", plain);
        }
    }
    rule(canvas, 7 + l->upper + l->lower, w, (const char *[3]){"╘", "╧", "╛"}, "═", split);

    static const struct {
        int offset;
        const char *text;
    } marks[] = {{19, "╴30s├"},  {34, "╴60s├"},   {65, "╴120s├"},
                 {95, "╴180s├"}, {125, "╴240s├"}, {155, "╴300s├"}};
    int y = 6 + l->upper;
    for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
        const int edges[2][2] = {{1 + l->left, l->left}, {2 + l->left + l->right, l->right}};
        for (int g = 0; g < 2; g++) {
            if (marks[i].offset > edges[g][1]) {
                break;
            }
            int x = edges[g][0] - marks[i].offset;
            canvas_text(canvas, y, x, marks[i].text, plain);
            int cells = canvas_text_width(marks[i].text, strlen(marks[i].text));
            canvas_attrs(canvas, y, x + 1, cells - 2, VIEW_ATTR_DIM, 0);
        }
    }
}

static void draw_title(const struct metrics_screen *screen, const struct metrics_draw_context *ctx,
                       struct canvas *canvas, int width) {
    canvas_text(canvas, 1, 2, "Process:", plain);
    const char *user = ctx->view->user_name != NULL ? ctx->view->user_name : "";
    const char *host = ctx->host_name != NULL ? ctx->host_name : "";
    int context = canvas_text_width(user, strlen(user)) + 1 + canvas_text_width(host, strlen(host));
    int x = width - context - 2;
    x = canvas_text(canvas, 1, x, user,
                    view_style_make(ctx->view->superuser ? VIEW_COLOR_YELLOW : VIEW_COLOR_MAGENTA,
                                    VIEW_ATTR_BOLD));
    x = canvas_text(canvas, 1, x, "@", view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD));
    canvas_text(canvas, 1, x, host, view_style_make(VIEW_COLOR_GREEN, VIEW_ATTR_BOLD));
    if (screen->exited) {
        /* Beyond nvitop: the graphs stay, frozen at the exit, and say so. */
        char when[32] = "";
        time_t seconds = (time_t)screen->exited_wall_s;
        struct tm tm;
        if (localtime_r(&seconds, &tm) != NULL) {
            strftime(when, sizeof(when), "%H:%M:%S", &tm);
        }
        char text[96];
        snprintf(text, sizeof(text), " exited at %s: the graphs stop there ", when);
        canvas_text(canvas, 1, 11, text,
                    view_style_make(VIEW_COLOR_RED, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE));
    }
}

static void u32_text(char *buf, size_t size, uint32_t value) {
    if (nvt_is_na_u32(value)) {
        str_copy(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%u", value);
    }
}

/* nvitop's cpu_percent_string, memory_percent_string and running_time_human. */
static void cpu_text(char *buf, size_t size, double percent) {
    if (isnan(percent)) {
        str_copy(buf, size, "N/A");
    } else if (percent < 1000.0) {
        nvt_format_fixed(buf, size, percent, 1);
        str_append(buf, size, "%");
    } else if (percent < 10000.0) {
        snprintf(buf, size, "%d%%", (int)percent);
    } else {
        str_copy(buf, size, "9999+%");
    }
}

static void percent_text(char *buf, size_t size, double percent) {
    if (isnan(percent)) {
        str_copy(buf, size, "N/A");
    } else {
        nvt_format_fixed(buf, size, percent, 1);
        str_append(buf, size, "%");
    }
}

enum {
    COLUMN_COUNT = 11,
    CELL_LEN = 96
};

/* The header labels and the values, each value right-aligned to its own width and the label to
 * the value's width (docs/nvitop-behaviour.md §3.10). */
static void column_values(const struct metrics_process *p, char values[COLUMN_COUNT][CELL_LEN]) {
    char text[CELL_LEN];
    snprintf(values[0], CELL_LEN, "%4s", p->display_index);
    snprintf(values[1], CELL_LEN, "%3u %s", p->pid, view_process_type(p->type));
    char user[CELL_LEN];
    snprintf(user, sizeof(user), "%4s", p->user[0] != '\0' ? p->user : "N/A");
    cut_text(values[2], CELL_LEN, user, 32, "+");
    if (nvt_is_na_u64(p->gpu_memory_bytes)) {
        str_copy(text, sizeof(text), "N/A");
    } else {
        nvt_format_bytes(text, sizeof(text), p->gpu_memory_bytes, 1);
    }
    snprintf(values[3], CELL_LEN, "%8s", text);
    u32_text(text, sizeof(text), p->sm_pct);
    snprintf(values[4], CELL_LEN, "%4s", text);
    u32_text(text, sizeof(text), p->bandwidth_pct);
    snprintf(values[5], CELL_LEN, "%5s", text);
    u32_text(text, sizeof(text), p->encoder_pct);
    snprintf(values[6], CELL_LEN, "%4s", text);
    u32_text(text, sizeof(text), p->decoder_pct); /* nvitop shows the encoder here */
    snprintf(values[7], CELL_LEN, "%4s", text);
    cpu_text(text, sizeof(text), p->cpu_percent);
    snprintf(values[8], CELL_LEN, "%6s", text);
    percent_text(text, sizeof(text), p->memory_percent);
    snprintf(values[9], CELL_LEN, "%5s", text);
    if (isnan(p->running_time_s) || p->running_time_s < 0) {
        str_copy(text, sizeof(text), "N/A");
    } else {
        nvt_format_duration(text, sizeof(text), p->running_time_s, false);
    }
    char time[40]; /* a duration is short: "1:02:03", "4.0 days" */
    snprintf(time, sizeof(time), " %.32s", text);
    snprintf(values[10], CELL_LEN, "%5s", time);
}

static void draw_columns(const struct metrics_screen *screen, struct canvas *canvas, int width) {
    static const char *const labels[COLUMN_COUNT] = {" GPU",   "PID  ", "USER", " GPU-MEM",
                                                     " %SM",   "%GMBW", "%ENC", "%DEC",
                                                     "  %CPU", " %MEM", " TIME"};
    char values[COLUMN_COUNT][CELL_LEN];
    column_values(&screen->process, values);
    int x = 1;     /* where the next column starts */
    int cells = 0; /* width of the value row so far */
    bool all = true;
    for (int i = 0; i < COLUMN_COUNT; i++) {
        int w = canvas_text_width(values[i], strlen(values[i]));
        if (x + w >= width - 2) {
            all = false;
            break;
        }
        int at = 1 + cells + (i > 0 ? 1 : 0);
        int label_width = canvas_text_width(labels[i], strlen(labels[i]));
        canvas_text(canvas, 2, at + (w > label_width ? w - label_width : 0), labels[i], plain);
        struct view_style style = plain;
        if (i == 0) {
            style.color = screen->process.device_color;
        }
        canvas_text(canvas, 4, at, values[i], style);
        cells = at - 1 + w;
        x = 1 + cells;
    }
    if (!all) {
        return;
    }
    x = 1 + cells + 2;
    if (x + 4 >= width - 2) {
        return;
    }
    size_t room = (size_t)(width - x - 2);
    char text[512];
    cut_text(text, sizeof(text), "COMMAND", room, "..");
    canvas_text(canvas, 2, x, text, plain);
    struct view_style style = plain;
    if (screen->exited) {
        style.color = VIEW_COLOR_RED;
    } else if (screen->process.zombie_or_denied) {
        style.color = VIEW_COLOR_YELLOW;
    }
    cut_text(text, sizeof(text), screen->process.command, room, "..");
    canvas_text(canvas, 4, x, text, style);
}

/* The largest completed value among the width × 2 + 1 shown, NaN when none. */
static double visible_max(const struct history *history, int width) {
    double max = NAN;
    size_t count = history_count(history);
    for (size_t i = 0; i < (size_t)(2 * width + 1) && i < count; i++) {
        double value = history_at(history, i);
        if (!isnan(value) && (isnan(max) || value > max)) {
            max = value;
        }
    }
    return max;
}

static void fixed_percent(char *buf, size_t size, const char *name, double value) {
    if (isnan(value)) {
        snprintf(buf, size, "%s: N/A", name);
        return;
    }
    char number[32];
    nvt_format_fixed(number, sizeof(number), value, 1);
    snprintf(buf, size, "%s: %s%%", name, number);
}

/* "<name>: <human> (p%)", with " / <total>" when with_total. */
static void memory_text(char *buf, size_t size, const char *name, double value, uint64_t total,
                        bool with_total) {
    if (isnan(value)) {
        snprintf(buf, size, "%s: N/A", name);
        return;
    }
    char human[32];
    nvt_format_bytes(human, sizeof(human), (uint64_t)llround(value), 1);
    if (nvt_is_na_u64(total) || total == 0) {
        snprintf(buf, size, "%s: %s", name, human);
        return;
    }
    char percent[32];
    nvt_format_fixed(percent, sizeof(percent),
                     nvt_round_half_even_digits(100.0 * value / (double)total, 1), 1);
    if (!with_total) {
        snprintf(buf, size, "%s: %s (%s%%)", name, human, percent);
        return;
    }
    char total_human[32];
    nvt_format_bytes(total_human, sizeof(total_human), total, 1);
    snprintf(buf, size, "%s: %s (%s%%) / %s", name, human, percent, total_human);
}

/* " text " at (y, x), cut to maxlen cells with ".." first when maxlen > 0. */
static void label(struct canvas *canvas, int y, int x, const char *text, int maxlen) {
    char cut[256];
    if (maxlen > 0) {
        cut_text(cut, sizeof(cut), text, (size_t)maxlen, "..");
    } else {
        str_copy(cut, sizeof(cut), text);
    }
    char padded[260];
    snprintf(padded, sizeof(padded), " %s ", cut);
    canvas_text(canvas, y, x, padded, plain);
}

static void ticks(struct canvas *canvas, const struct metrics_graph *graph, int y, int x,
                  int height, bool upside_down) {
    int rows[3];
    int percents[3];
    size_t n = metrics_graph_ticks(graph, height, upside_down, rows, percents);
    for (size_t i = 0; i < n; i++) {
        char text[32];
        snprintf(text, sizeof(text), "├╴%d%% ", percents[i]);
        canvas_text(canvas, y + rows[i], x, text, view_style_make(VIEW_COLOR_DEFAULT, 0));
        canvas_attrs(canvas, y + rows[i], x + 2, canvas_text_width(text, strlen(text)) - 2,
                     VIEW_ATTR_DIM, 0);
    }
}

static void graph(struct canvas *canvas, const struct metrics_graph *g, int y, int x, int width,
                  int height, bool upside_down, uint16_t color, bool gradient) {
    struct graph_options options = {.baseline = 0.0, .bound = g->bound};
    options.upside_down = upside_down;
    options.style.color = color;
    options.gradient_rows = gradient;
    graph_draw(canvas, y, x, width, height, &g->history, &options);
}

static const char *const lower_names[METRICS_LOWER_COUNT] = {"GPU-SM", "GPU-MBW", "GPU-ENC",
                                                             "GPU-DEC"};

static void draw_graphs(const struct metrics_screen *screen, const struct metrics_draw_context *ctx,
                        struct canvas *canvas, const struct metrics_layout *l) {
    const struct metrics_process *p = &screen->process;
    const struct metrics_graph *lower = &screen->lower_graphs[screen->lower];
    int top = 6;
    int bottom = 7 + l->upper; /* first row of the lower graphs */
    int right_x = l->left + 2;
    uint16_t lower_color =
        screen->lower == METRICS_LOWER_BANDWIDTH ? p->bandwidth_color : p->gpu_color;
    graph(canvas, &screen->cpu, top, 1, l->left, l->upper, false, VIEW_COLOR_CYAN, false);
    graph(canvas, &screen->host_memory, bottom, 1, l->left, l->lower, true, VIEW_COLOR_MAGENTA,
          false);
    graph(canvas, &screen->gpu_memory, top, right_x, l->right, l->upper, false, p->memory_color,
          ctx->gradients);
    graph(canvas, lower, bottom, right_x, l->right, l->lower, true, lower_color, ctx->gradients);

    char text[192];
    int last_row = bottom + l->lower - 1;
    fixed_percent(text, sizeof(text), "MAX CPU", visible_max(&screen->cpu.history, l->left));
    label(canvas, top, 1, text, 0);
    fixed_percent(text, sizeof(text), "CPU", history_last(&screen->cpu.history));
    label(canvas, top + 1, 5, text, 0);
    memory_text(text, sizeof(text), "HOST-MEM", history_last(&screen->host_memory.history),
                screen->host_memory_total, false);
    label(canvas, last_row - 1, 5, text, 0);
    memory_text(text, sizeof(text), "MAX HOST-MEM",
                visible_max(&screen->host_memory.history, l->left), screen->host_memory_total,
                true);
    label(canvas, last_row, 1, text, l->left - 2);
    memory_text(text, sizeof(text), "MAX GPU-MEM",
                visible_max(&screen->gpu_memory.history, l->right), screen->device_memory_total,
                true);
    label(canvas, top, right_x, text, l->right - 2);
    memory_text(text, sizeof(text), "GPU-MEM", history_last(&screen->gpu_memory.history),
                screen->device_memory_total, false);
    label(canvas, top + 1, right_x + 4, text, 0);
    fixed_percent(text, sizeof(text), lower_names[screen->lower], history_last(&lower->history));
    label(canvas, last_row - 1, right_x + 4, text, 0);
    char name[32];
    snprintf(name, sizeof(name), "MAX %s", lower_names[screen->lower]);
    fixed_percent(text, sizeof(text), name, visible_max(&lower->history, l->right));
    label(canvas, last_row, right_x, text, 0);

    ticks(canvas, &screen->cpu, top, 0, l->upper, false);
    ticks(canvas, &screen->host_memory, bottom, 0, l->lower, true);
    ticks(canvas, &screen->gpu_memory, top, l->left + 1, l->upper, false);
    ticks(canvas, lower, bottom, l->left + 1, l->lower, true);
}

void metrics_screen_draw(const struct metrics_screen *screen,
                         const struct metrics_draw_context *ctx, struct canvas *canvas) {
    if (!screen->open) {
        return;
    }
    struct metrics_layout layout;
    int rows = ctx->rows > 0 && ctx->rows < canvas_rows(canvas) ? ctx->rows : canvas_rows(canvas);
    metrics_layout_of(rows, canvas_cols(canvas), &layout);
    draw_frame(canvas, &layout);
    draw_title(screen, ctx, canvas, layout.width);
    draw_columns(screen, canvas, layout.width);
    draw_graphs(screen, ctx, canvas, &layout);
}
