/*
 * The process table.  Rows are built once per snapshot (filter, texts, sort); rendering a row is
 * then cheap, so the monitor can redraw with other widths and offsets without rebuilding.
 */
#include "view/processes/process_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

#include "util/text/str.h"
#include "util/text/utf8.h"
#include "util/xalloc.h"
#include "view/draw/intensity.h"
#include "view/processes/filter.h"
#include "view/processes/process_sort.h"

#define HOST_COLUMNS 45 /* cells before the host columns plus the closing " │" */

static const struct view_style plain = {VIEW_COLOR_DEFAULT, 0, VIEW_COLOR_DEFAULT};

static bool host_is_gone(const struct nvt_host_process *host) {
    return host->status == NVT_HOST_GONE || host->status == NVT_HOST_NOT_IN_NAMESPACE;
}

static bool host_is_known(const struct nvt_host_process *host) {
    return !host_is_gone(host);
}

static const char *special_command(const struct nvt_host_process *host, enum view_color *color) {
    switch (host->status) {
    case NVT_HOST_GONE:
        *color = VIEW_COLOR_RED;
        return "No Such Process";
    case NVT_HOST_NOT_IN_NAMESPACE:
        *color = VIEW_COLOR_RED;
        return "No Such Process (not in this PID namespace; run with --pid=host)";
    case NVT_HOST_ZOMBIE:
        *color = VIEW_COLOR_YELLOW;
        return "Zombie Process";
    case NVT_HOST_NO_PERMISSION:
        *color = VIEW_COLOR_YELLOW;
        return "No Permissions";
    case NVT_HOST_OK:
        break;
    }
    *color = VIEW_COLOR_DEFAULT;
    return NULL;
}

static const char *user_of(const struct nvt_gpu_process *process) {
    const char *user = process->host.user;
    if (!host_is_known(&process->host) || user == NULL || user[0] == '\0') {
        return "N/A";
    }
    return user;
}

static double host_number(const struct nvt_host_process *host, double value) {
    return host_is_known(host) ? value : NAN;
}

/* text right-aligned in width bytes at p, never cut (printf's "%*s"); returns the end.  The
 * caller has the room.  Rows are built this way, not with snprintf: every row of every frame. */
static char *put_right(char *p, const char *text, size_t width) {
    size_t len = strlen(text);
    if (len < width) {
        memset(p, ' ', width - len);
        p += width - len;
    }
    memcpy(p, text, len);
    return p + len;
}

/* nvitop's cpu_percent_string without the "%". */
static void cpu_text(char *buf, size_t size, double percent) {
    if (isnan(percent)) {
        str_copy(buf, size, "N/A");
    } else if (percent < 1000.0) {
        nvt_format_fixed(buf, size, percent, 1);
    } else if (percent < 10000.0) {
        snprintf(buf, size, "%d", (int)percent);
    } else {
        str_copy(buf, size, "9999+");
    }
}

static void time_text(char *buf, size_t size, const struct nvt_host_process *host) {
    double seconds = host_number(host, host->running_time_s);
    if (isnan(seconds) || seconds < 0) {
        str_copy(buf, size, "N/A");
    } else {
        nvt_format_duration(buf, size, seconds, false);
    }
}

static int compare_keys(const void *a, const void *b, void *arg) {
    const int *how = arg; /* order, then direction sign */
    return how[1] * view_sort_compare((enum view_sort_order)how[0], a, b);
}

/* What the sort compares of one process. */
static void fill_key(const struct nvt_snapshot *snap, const struct nvt_gpu_process *process,
                     struct view_sort_item *key) {
    const struct nvt_device_snapshot *device = &snap->devices[process->device];
    key->process = process;
    key->physical_index = device->info.index;
    key->mig_index = device->info.is_mig ? device->info.mig_index : NVT_NA_U32;
    key->gone = host_is_gone(&process->host);
    key->user = user_of(process);
    key->cpu_percent = host_number(&process->host, process->host.cpu_percent);
    key->memory_percent = host_number(&process->host, process->host.memory_percent);
    key->running_time = host_number(&process->host, process->host.running_time_s);
}

static void fill_row(const struct nvt_snapshot *snap, const struct view_config *config,
                     const struct view_device_colors *device_colors,
                     const struct nvt_gpu_process *process, struct view_process_row *row) {
    const struct nvt_device_snapshot *device = &snap->devices[process->device];
    row->process = process;
    row->device_slot = process->device;
    row->physical_index = device->info.index;
    /* "%u" or "%u:%u" (the MIG instance). */
    size_t size = sizeof(row->display_index);
    size_t len = str_u64(row->display_index, size, device->info.index);
    if (device->info.is_mig && len + 1 < size) {
        row->display_index[len] = ':';
        str_u64(row->display_index + len + 1, size - len - 1, device->info.mig_index);
    }
    row->device_color = device_colors[process->device].display;
    const char *special = special_command(&process->host, &row->command_color);
    row->special = special != NULL;
    row->command = special != NULL                 ? special
                   : process->host.command != NULL ? process->host.command
                                                   : "";
    const char *user = user_of(process);
    row->owned =
        config->superuser || (config->user_name != NULL && strcmp(user, config->user_name) == 0);
}

/* "%CPU %MEM  TIME  COMMAND" with TIME (time_text()'s) right-aligned to time_width. */
/* The %CPU and %MEM texts of a host process (32 bytes each). */
static void cpu_mem_text(const struct nvt_host_process *host, char *cpu, char *mem) {
    cpu_text(cpu, 32, host_number(host, host->cpu_percent));
    double memory = host_number(host, host->memory_percent);
    if (isnan(memory)) {
        str_copy(mem, 32, "N/A");
    } else {
        nvt_format_fixed(mem, 32, memory, 1);
    }
}

static char *host_info_text(const struct view_process_row *row, const char *time,
                            size_t time_width) {
    char cpu[32];
    char mem[32];
    cpu_mem_text(&row->process->host, cpu, mem);
    /* "%5s %5s  %*s  %s" with TIME right-aligned to time_width. */
    size_t time_len = strlen(time);
    size_t time_cells = time_width > time_len ? time_width : time_len;
    size_t command_len = strlen(row->command);
    char *text = xmalloc(sizeof(cpu) + sizeof(mem) + time_cells + command_len + 8);
    char *p = put_right(text, cpu, 5);
    *p++ = ' ';
    p = put_right(p, mem, 5);
    p = put_right(p, "  ", 2);
    p = put_right(p, time, time_cells);
    p = put_right(p, "  ", 2);
    memcpy(p, row->command, command_len + 1);
    return text;
}

void view_process_table_build(const struct nvt_snapshot *snap, const struct view_config *config,
                              enum view_sort_order order, bool reverse,
                              struct view_process_table *table) {
    memset(table, 0, sizeof(*table));
    /* Each device's colours once, not once per process (a thousand share eight GPUs). */
    struct view_device_colors *colors = xcalloc(snap->device_count + 1, sizeof(*colors));
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        view_device_colors(&snap->devices[slot], &config->thresholds, &colors[slot]);
    }
    /* The sort keys are the only array beside the rows while the table is built (56 bytes a
     * process); the rows are made from them once sorted. */
    struct view_sort_item *keys = xcalloc(snap->process_count + 1, sizeof(*keys));
    size_t count = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *process = &snap->processes[i];
        if (process->device >= snap->device_count ||
            !view_device_is_shown(snap, config, process->device) ||
            !view_process_is_shown(process, config)) {
            continue;
        }
        fill_key(snap, process, &keys[count++]);
    }
    const struct view_sort_info *info = view_sort_info(order);
    int how[2] = {(int)order, (info->reverse != reverse) ? -1 : 1};
    qsort_r(keys, count, sizeof(*keys), compare_keys, how);

    table->time_width = 4;
    table->rows = xcalloc(count + 1, sizeof(*table->rows));
    table->count = count;
    char time_buf[64];
    for (size_t i = 0; i < count; i++) {
        fill_row(snap, config, colors, keys[i].process, &table->rows[i]);
        time_text(time_buf, sizeof(time_buf), &keys[i].process->host);
        if (strlen(time_buf) > table->time_width) {
            table->time_width = strlen(time_buf);
        }
    }
    free(keys);
    free(colors);
    /* Each row's text is made when the row is drawn (a few dozen of a thousand), not kept (120
     * bytes a row); here its width is summed as host_info_text() lays it out, TIME at time_width,
     * the widest of them. */
    for (size_t i = 0; i < count; i++) {
        const struct view_process_row *row = &table->rows[i];
        char cpu[32];
        char mem[32];
        cpu_mem_text(&row->process->host, cpu, mem);
        size_t width = (strlen(cpu) > 5 ? strlen(cpu) : 5) + 1 +
                       (strlen(mem) > 5 ? strlen(mem) : 5) + 2 + table->time_width + 2 +
                       nvt_text_width(row->command);
        if (width > table->host_info_width) {
            table->host_info_width = width;
        }
    }
}

void view_process_table_fini(struct view_process_table *table) {
    if (table == NULL) {
        return;
    }
    free(table->rows);
    memset(table, 0, sizeof(*table));
}

size_t view_process_table_print_width(const struct view_process_table *table, size_t width) {
    size_t wanted = table->count == 0 ? 79 : HOST_COLUMNS + table->host_info_width;
    return wanted < width ? wanted : width;
}

static void rule_line(struct view_line *line, const char *left, const char *fill, const char *right,
                      size_t width) {
    view_line_add(line, left, plain);
    view_line_add_repeat(line, fill, width > 2 ? width - 2 : 0, plain);
    view_line_add(line, right, plain);
}

void view_process_separator(size_t width, struct view_line *out) {
    rule_line(out, "├", "─", "┤", width);
}

void view_process_footer(size_t width, struct view_line *out) {
    rule_line(out, "╘", "═", "╛", width);
}

static void context_line(const struct view_config *config, const char *host_name, size_t width,
                         struct view_line *line) {
    const char *user = config->user_name != NULL ? config->user_name : "";
    const char *host = host_name != NULL ? host_name : "";
    size_t context = nvt_text_width(user) + 1 + nvt_text_width(host);
    size_t inner = width - 4;
    view_line_add(line, "│ ", plain);
    view_line_add(line, "Processes:", plain);
    size_t used = strlen("Processes:");
    /* nvitop overwrites the end of the padded line with the context, even when they overlap. */
    size_t gap = inner > used + context ? inner - used - context : 0;
    view_line_add_repeat(line, " ", gap, plain);
    view_line_add(line, user,
                  view_style_make(config->superuser ? VIEW_COLOR_YELLOW : VIEW_COLOR_MAGENTA,
                                  VIEW_ATTR_BOLD));
    view_line_add(line, "@", view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD));
    view_line_add(line, host, view_style_make(VIEW_COLOR_GREEN, VIEW_ATTR_BOLD));
    view_line_add(line, " │", plain);
}

void view_process_header(const struct view_process_table *table, const struct view_config *config,
                         const char *host_name, size_t width, struct view_lines *out) {
    width = width < 79 ? 79 : width;
    rule_line(view_lines_add(out), "╒", "═", "╕", width);
    context_line(config, host_name, width, view_lines_add(out));

    char headers[64];
    snprintf(headers, sizeof(headers), "%%CPU  %%MEM  %*sTIME  COMMAND",
             (int)(table->time_width - 4), "");
    struct view_line *line = view_lines_add(out);
    view_line_add(line, "│ GPU     PID      USER  GPU-MEM %SM %GMBW  ", plain);
    view_line_add_fit(line, headers, width - 46 > strlen(headers) ? width - 46 : strlen(headers),
                      false, plain);
    view_line_add(line, " │", plain);
    rule_line(view_lines_add(out), "╞", "═", "╡", width);
    if (table->count == 0) {
        line = view_lines_add(out);
        view_line_add(line, "│ ", plain);
        view_line_add_fit(line, " No running processes found ", width - 4, false, plain);
        view_line_add(line, " │", plain);
        view_process_footer(width, view_lines_add(out));
    }
}

/* cut_string(text, maxlen, padstr) keeping the left part. */
static void cut_left(char *buf, size_t size, const char *text, size_t maxlen, const char *pad) {
    size_t len = strlen(text);
    if (utf8_width(text, len) <= maxlen) {
        str_copy(buf, size, text);
        return;
    }
    size_t keep = utf8_fit(text, len, maxlen - strlen(pad), NULL);
    snprintf(buf, size, "%.*s%s", (int)keep, text, pad);
}

/* The host columns of a row (info: host_info_text()'s), exactly width cells. */
static void host_columns(const char *info, size_t width, int host_offset, struct view_line *out) {
    size_t len = strlen(info);
    if (host_offset < 0) {
        if (utf8_width(info, len) > width) {
            struct view_line cut;
            view_line_init(&cut);
            size_t keep = utf8_fit(info, len, width >= 2 ? width - 2 : 0, NULL);
            view_line_add_n(&cut, info, keep, plain);
            view_line_add(&cut, "..", plain);
            view_line_pad(&cut, width);
            view_line_add_line(out, &cut);
            view_line_fini(&cut);
            return;
        }
        view_line_add_fit(out, info, width, false, plain);
        return;
    }
    struct view_line whole;
    struct view_line part;
    view_line_init(&whole);
    view_line_init(&part);
    view_line_add(&whole, info, plain);
    view_line_slice(&whole, (size_t)host_offset, width, &part);
    view_line_pad(&part, width);
    view_line_add_line(out, &part);
    view_line_fini(&whole);
    view_line_fini(&part);
}

/* Add info text with nvitop's once-mode styles: dim for other users' processes, and the special
 * command text in red or yellow. */
static void add_info(struct view_line *line, const struct view_process_row *row,
                     const struct view_line *info, bool owned) {
    struct view_style dim = view_style_make(VIEW_COLOR_DEFAULT, owned ? 0 : VIEW_ATTR_DIM);
    if (!row->special) {
        if (owned) {
            view_line_add_n(line, info->text, info->len, plain);
        } else {
            view_line_add_n(line, info->text, info->len, dim);
        }
        return;
    }
    /* str.split(command) then colored(command).join(segments), like nvitop. */
    const char *pos = info->text;
    const char *end = info->text + info->len;
    size_t clen = strlen(row->command);
    struct view_style command_style = view_style_make(row->command_color, 0);
    for (;;) {
        const char *hit = clen > 0 ? strstr(pos, row->command) : NULL;
        const char *stop = hit == NULL ? end : hit;
        view_line_add_n(line, pos, (size_t)(stop - pos), owned ? plain : dim);
        if (hit == NULL) {
            return;
        }
        view_line_add_n(line, hit, clen, command_style);
        pos = hit + clen;
    }
}

void view_process_row_line(const struct view_process_table *table, size_t index,
                           const struct view_config *config, size_t width, int host_offset,
                           struct view_line *out) {
    const struct view_process_row *row = &table->rows[index];
    const struct nvt_gpu_process *process = row->process;
    width = width < 79 ? 79 : width;
    char pid[32];
    char pid_text[16];
    char user[64];
    char gpu_mem[32];
    char sm[16];
    char gmbw[16];
    str_u64(pid_text, sizeof(pid_text), process->pid);
    cut_left(pid, sizeof(pid), pid_text, 7, ".");
    cut_left(user, sizeof(user), user_of(process), 7, "+");
    if (nvt_is_na_u64(process->gpu_memory_bytes)) {
        str_copy(gpu_mem, sizeof(gpu_mem), "N/A");
    } else {
        nvt_format_bytes(gpu_mem, sizeof(gpu_mem), process->gpu_memory_bytes, 1);
    }
    if (nvt_is_na_u32(process->sm_util_pct)) {
        str_copy(sm, sizeof(sm), "N/A");
    } else {
        str_u64(sm, sizeof(sm), process->sm_util_pct);
    }
    if (nvt_is_na_u32(process->memory_util_pct)) {
        str_copy(gmbw, sizeof(gmbw), "N/A");
    } else {
        str_u64(gmbw, sizeof(gmbw), process->memory_util_pct);
    }

    struct view_line info;
    view_line_init(&info);
    size_t user_cells = nvt_text_width(user);
    /* "%7s %s %*s%s %8s %3s %5s " with USER right-aligned to 7 cells; every piece is shorter than
     * its array, so the sum fits. */
    char columns[sizeof(pid) + 8 + 8 + sizeof(user) + sizeof(gpu_mem) + sizeof(sm) + sizeof(gmbw)];
    char *p = put_right(columns, pid, 7);
    *p++ = ' ';
    p = put_right(p, view_process_type(process->type), 0);
    *p++ = ' ';
    p = put_right(p, "", user_cells < 7 ? 7 - user_cells : 0);
    p = put_right(p, user, 0);
    *p++ = ' ';
    p = put_right(p, gpu_mem, 8);
    *p++ = ' ';
    p = put_right(p, sm, 3);
    *p++ = ' ';
    p = put_right(p, gmbw, 5);
    *p++ = ' ';
    view_line_add_n(&info, columns, (size_t)(p - columns), plain);
    char time[64];
    time_text(time, sizeof(time), &process->host);
    char *host_info = host_info_text(row, time, table->time_width);
    host_columns(host_info, width - HOST_COLUMNS, host_offset, &info);
    free(host_info);
    if (host_offset > 0) {
        /* nvitop blanks the first host cell when scrolled, marking the cut. */
        size_t col = view_line_width(&info) - (width - HOST_COLUMNS);
        struct view_line head;
        struct view_line tail;
        view_line_init(&head);
        view_line_init(&tail);
        view_line_slice(&info, 0, col, &head);
        view_line_slice(&info, col + 1, width, &tail);
        view_line_clear(&info);
        view_line_add_line(&info, &head);
        view_line_add(&info, " ", plain);
        view_line_add_line(&info, &tail);
        view_line_fini(&head);
        view_line_fini(&tail);
    }

    view_line_add(out, "│", plain);
    char index_text[sizeof(row->display_index) + 4];
    *put_right(index_text, row->display_index, 4) = '\0';
    view_line_add(out, index_text, view_style_make(row->device_color, 0));
    view_line_add(out, " ", plain);
    /* Running as superuser, nothing is dimmed (nvitop's IS_SUPERUSER). */
    add_info(out, row, &info, row->owned || config->superuser);
    view_line_add(out, " │", plain);
    view_line_fini(&info);
}

void view_process_table_lines(const struct view_process_table *table,
                              const struct view_config *config, const char *host_name, size_t width,
                              struct view_lines *out) {
    width = width < 79 ? 79 : width;
    view_line_add(view_lines_add(out), "", plain);
    view_process_header(table, config, host_name, width, out);
    if (table->count == 0) {
        return;
    }
    for (size_t i = 0; i < table->count; i++) {
        if (i > 0 && table->rows[i].physical_index != table->rows[i - 1].physical_index) {
            view_process_separator(width, view_lines_add(out));
        }
        view_process_row_line(table, i, config, width, -1, view_lines_add(out));
    }
    view_process_footer(width, view_lines_add(out));
}
