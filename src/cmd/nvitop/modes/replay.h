/*
 * Once mode and JSON from a recording (`--replay FILE|DIR` with `--at`, or `--from/--to` with
 * `--json`): the recorded frames go through the same report and JSON code as live snapshots.
 * Without either, the monitor opens on the recording (src/tui/replay/replay_source.h).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_MODES_REPLAY_H
#define NVITOP_SRC_CMD_NVITOP_MODES_REPLAY_H

#include <stdbool.h>

#include "cmd/nvitop/cli/options.h"
#include "settings/settings.h"

/* Print the frame(s) the options ask for, with the effective settings' thresholds and colours.
 * Returns the exit status (1 with a message on stderr for an unreadable recording or a time
 * outside it). */
int replay_print(const struct nvitop_options *options, const struct tui_settings *settings,
                 bool color);

/* Open the monitor on the recording (`--replay` without --once or --json), at --at or at its first
 * frame.  Returns the exit status: 1 with a message for an unreadable recording, a time outside
 * it, or a terminal curses cannot use. */
int replay_monitor(const struct nvitop_options *options, const struct tui_settings *settings,
                   const char *settings_path, bool color);

#endif /* NVITOP_SRC_CMD_NVITOP_MODES_REPLAY_H */
