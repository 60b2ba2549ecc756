/*
 * The display settings of a run from the options (filters) and the effective settings (thresholds,
 * colours: settings_resolve.h); indices are the physical devices to show (borrowed by the config).
 * Pure.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_MODES_RUN_CONFIG_H
#define NVITOP_SRC_CMD_NVITOP_MODES_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/nvitop/cli/options.h"
#include "settings/settings.h"
#include "view/config.h"

void run_config_build(const struct nvitop_options *options, const struct tui_settings *settings,
                      bool color, bool superuser, const uint32_t *indices, size_t count,
                      struct view_config *config);

#endif /* NVITOP_SRC_CMD_NVITOP_MODES_RUN_CONFIG_H */
