/*
 * The display settings of a run, from the command line and the effective settings (shared by live
 * and replayed reports).
 */
#include "cmd/nvitop/modes/run_config.h"

#include <string.h>

void run_config_build(const struct nvitop_options *options, const struct tui_settings *settings,
                      bool color, bool superuser, const uint32_t *indices, size_t count,
                      struct view_config *config) {
    memset(config, 0, sizeof(*config));
    config->thresholds = settings->thresholds;
    config->ascii = options->ascii;
    config->colorful = settings->colorful;
    config->light = settings->light;
    config->color = color;
    config->device_filter = (struct view_device_filter){true, indices, count};
    struct view_process_filter *filter = &config->process_filter;
    filter->compute = options->compute;
    filter->only_compute = options->only_compute;
    filter->graphics = options->graphics;
    filter->only_graphics = options->only_graphics;
    filter->by_user = options->user_given;
    filter->users = (const char *const *)options->users;
    filter->user_count = options->user_count;
    filter->by_pid = options->pid_given;
    filter->pids = options->pids;
    filter->pid_count = options->pid_count;
    config->user_name = options->user_name;
    config->superuser = superuser;
}
