/*
 * The once report (docs/nvitop-behaviour.md §2 in nvitop 1.7's layout): timestamp, device panel,
 * host lines, process table, at the width nvitop would choose for the terminal.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_REPORT_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <nvitop/snapshot.h>

#include "view/config.h"
#include "view/draw/line.h"

/* Terminal columns as nvitop's once mode sees them: $COLUMNS when a positive number, else the
 * terminal on stdout, else 79. */
size_t report_terminal_columns(void);

/* The width nvitop prints the report at for this snapshot and terminal width
 * (docs/nvitop-behaviour.md §2.2, with 1.7's cap of 140 columns for the minimum). */
size_t report_width(const struct nvt_snapshot *snap, const struct view_config *config,
                    size_t columns);

/* Append the report's lines (after the timestamp line) for the given width. */
void report_lines(const struct nvt_snapshot *snap, const struct view_config *config, size_t width,
                  struct view_lines *out);

/* Print the whole report to out, coloured and translated to ASCII as config says.  Returns false
 * when writing failed (e.g. a closed pipe). */
bool report_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config,
                  size_t columns);

/* As report_print(), with the time line showing `when` (seconds since the epoch) instead of now:
 * a replayed report shows the time it was recorded. */
bool report_print_at(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config,
                     size_t columns, double when);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_REPORT_H */
