/*
 * `nvitop --json`: one snapshot as a JSON document whose layout is versioned and documented in
 * docs/json.md (JSON Schema: docs/nvitop-json.schema.json).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <nvitop/snapshot.h>

#include "view/config.h"

/* Bumped whenever a key is removed or changes meaning (adding keys keeps the version). */
#define JSON_SCHEMA_VERSION 1

/* Print the document for the devices and processes config selects.  Returns false when writing
 * failed or memory ran out. */
bool json_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config);

/* The same document on one line, for JSON Lines (`--replay --from/--to`). */
bool json_print_line(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_JSON_H */
