/*
 * The effective settings of a run: defaults, the system file, the user file (or --config FILE;
 * none with --no-config), then the environment and the command line, each overriding what came
 * before (docs/man/nvitop.1.scd, SETTINGS).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_CLI_SETTINGS_RESOLVE_H
#define NVITOP_SRC_CMD_NVITOP_CLI_SETTINGS_RESOLVE_H

#include "cmd/nvitop/cli/options.h"
#include "settings/settings.h"

/*
 * Fill *out with the effective settings.  Problems in the files are printed on stderr as
 * "file:line: message" (the key keeps its earlier value); nothing here fails.  *save_path
 * receives where the monitor's S key saves (malloc'd; NULL when no user file can be named).
 */
void nvitop_settings_resolve(const struct nvitop_options *options, struct tui_settings *out,
                             char **save_path);

#endif /* NVITOP_SRC_CMD_NVITOP_CLI_SETTINGS_RESOLVE_H */
