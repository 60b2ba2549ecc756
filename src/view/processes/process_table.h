/*
 * The process table (docs/nvitop-behaviour.md §2.5 in nvitop 1.7's layout): header, one row per GPU
 * process with the columns GPU PID USER GPU-MEM %SM %GMBW %CPU %MEM TIME COMMAND, separators
 * between physical GPUs, and the closing line.  Filters (view/config.h) and sort orders
 * (docs/nvitop-behaviour.md §3.6.3) are applied when the table is built.
 *
 * Build a table from a snapshot with view_process_table_build(), then render all of it (once
 * report) or row by row (the monitor, which paints selection and tags over the rows with
 * view_line_paint()).  The table points into the snapshot: keep the snapshot alive while the
 * table is used.  Not thread-safe for one table; pure otherwise.
 */
#ifndef NVITOP_SRC_VIEW_PROCESSES_PROCESS_TABLE_H
#define NVITOP_SRC_VIEW_PROCESSES_PROCESS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

#include "view/config.h"
#include "view/draw/line.h"

/* Sort orders, in the cycle order of the `,` / `.` keys. */
enum view_sort_order {
    VIEW_SORT_NATURAL = 0,
    VIEW_SORT_PID,
    VIEW_SORT_USERNAME,
    VIEW_SORT_GPU_MEMORY,
    VIEW_SORT_SM_UTILIZATION,
    VIEW_SORT_GPU_MEMORY_UTILIZATION,
    VIEW_SORT_CPU_PERCENT,
    VIEW_SORT_MEMORY_PERCENT,
    VIEW_SORT_TIME,
    VIEW_SORT_COUNT
};

struct view_sort_info {
    char bind_key;      /* `o` + this letter (lower case: default direction) */
    const char *column; /* header label the indicator follows: "ID", "PID", …, "GMBW", … */
    size_t offset;      /* header column of the label + 1, before horizontal scrolling */
    bool reverse;       /* default direction is descending */
    const char *name;   /* "natural", "pid", "username", "gpu_memory", … */
};

/* Facts about an order.  Never NULL for a valid order. */
const struct view_sort_info *view_sort_info(enum view_sort_order order);

/* The order bound to a letter after `o` (case-insensitive; *reverse tells whether the letter was
 * upper case, i.e. the opposite of the default direction).  Returns false for unbound letters. */
bool view_sort_from_key(char letter, enum view_sort_order *order, bool *reverse);

/* One row of the table. */
struct view_process_row {
    const struct nvt_gpu_process *process; /* points into the snapshot */
    size_t device_slot;                    /* leaf device of the process */
    uint32_t physical_index;               /* for separators between physical GPUs */
    char display_index[16];                /* "0", or "0:1" for a MIG device */
    enum view_color device_color;          /* display colour of the device */
    const char *command;                   /* the command as shown (or "No Such Process", …) */
    enum view_color command_color;         /* red (gone), yellow (zombie, no permission), default */
    bool special;                          /* command is one of the special texts above */
    bool owned;                            /* the current user's (or running as superuser) */
};

struct view_process_table {
    struct view_process_row *rows;
    size_t count;
    size_t time_width; /* width of the TIME column (>= 4) */
    /* The widest "%CPU %MEM  TIME  COMMAND" part of a row, untruncated, in cells (0 without
     * rows); each row's is made when the row is drawn. */
    size_t host_info_width;
};

/* Filter and sort the snapshot's processes of the shown devices.  reverse flips the order's
 * default direction.  The table is overwritten (call view_process_table_fini() before reuse). */
void view_process_table_build(const struct nvt_snapshot *snap, const struct view_config *config,
                              enum view_sort_order order, bool reverse,
                              struct view_process_table *table);

void view_process_table_fini(struct view_process_table *table);

/* The width the once report wants for the table: min(width, max(45 + host_info width), 79 when
 * empty). */
size_t view_process_table_print_width(const struct view_process_table *table, size_t width);

/*
 * The 4 header lines (top border, "Processes:" with user@host, column titles, double rule), and
 * for an empty table the "No running processes found" line and the bottom border.  user and
 * host: the "user@host" context (config->user_name and the snapshot's host name).  The column
 * titles are plain; the monitor adds the sort indicator itself (view_sort_info()).
 */
void view_process_header(const struct view_process_table *table, const struct view_config *config,
                         const char *host_name, size_t width, struct view_lines *out);

/* One row, width cells wide, styled as nvitop's once report styles it (GPU index in the device
 * colour, other users' processes dim unless config->superuser, special commands red or
 * yellow).  host_offset < 0: the host columns are cut with ".." to fit; otherwise they are
 * scrolled left by host_offset cells (the monitor's horizontal scroll). */
void view_process_row_line(const struct view_process_table *table, size_t row,
                           const struct view_config *config, size_t width, int host_offset,
                           struct view_line *out);

/* Separator between physical GPUs and the bottom border. */
void view_process_separator(size_t width, struct view_line *out);
void view_process_footer(size_t width, struct view_line *out);

/* The whole table as the once report prints it: an empty line, the header, rows with separators
 * between physical GPUs, the footer. */
void view_process_table_lines(const struct view_process_table *table,
                              const struct view_config *config, const char *host_name, size_t width,
                              struct view_lines *out);

#endif /* NVITOP_SRC_VIEW_PROCESSES_PROCESS_TABLE_H */
