/*
 * The once outputs: nvitop's report, our JSON document (docs/json.md) and the detailed per-device
 * report (--query).  Each takes one snapshot with what it needs and prints it to stdout.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_OUTPUT_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_OUTPUT_H

#include <stdbool.h>

#include <nvitop/context.h>

struct rec_writer;

#include "cmd/nvitop/cli/options.h"
#include "view/config.h"

/* Returns false when the snapshot could not be taken or stdout could not be written. */
bool output_print(nvt_context *ctx, const struct view_config *config, enum nvitop_output kind,
                  struct rec_writer *recorder);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_OUTPUT_H */
