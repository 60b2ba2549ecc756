/*
 * Once mode and JSON from a recording (`--replay FILE|DIR` with `--at`, or `--from/--to` with
 * `--json`): the recorded frames go through the same report and JSON code as live snapshots.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_REPLAY_H
#define NVITOP_SRC_CMD_NVITOP_REPLAY_H

#include <stdbool.h>

#include "options.h"
#include "tui/settings.h"

/* Print the frame(s) the options ask for, with the effective settings' thresholds and colours.
 * Returns the exit status (1 with a message on stderr for an unreadable recording or a time
 * outside it). */
int replay_print(const struct nvitop_options *options, const struct tui_settings *settings,
                 bool color);

#endif /* NVITOP_SRC_CMD_NVITOP_REPLAY_H */
