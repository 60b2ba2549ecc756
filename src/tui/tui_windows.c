/*
 * tui_run() in the Windows build until the console back-end is there: the monitor reports that it
 * cannot start, and nvitop falls back to the once report as it does when curses fails.
 */
#include <stdio.h>

#include "tui/tui.h"

enum tui_result tui_run(const struct tui_config *config, char *error, size_t error_size) {
    (void)config;
    snprintf(error, error_size, "the Windows console monitor is not part of this build");
    return TUI_FAILED;
}
