/*
 * `nvitop --query`: a detailed per-device report with everything igpu prints
 * (docs/nvitop-behaviour.md §8.3) — serial, VBIOS, PCI ids, link generation and width, clocks with
 * maxima, power with limits, and the processes with their parents — in igpu's code formats.  See
 * docs/man/nvitop.1.scd.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_QUERY_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_QUERY_H

#include <stdbool.h>
#include <stdio.h>

#include <nvitop/snapshot.h>

#include "view/config.h"

/* Print one block per shown physical device.  Returns false when writing failed. */
bool query_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_QUERY_H */
