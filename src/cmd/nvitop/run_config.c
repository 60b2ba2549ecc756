/*
 * The display settings of a run, from the command line (shared by live and replayed reports).
 */
#include "run_config.h"

#include <string.h>

static void sorted_pair(const uint32_t in[2], uint32_t *low, uint32_t *high) {
    *low = in[0] < in[1] ? in[0] : in[1];
    *high = in[0] < in[1] ? in[1] : in[0];
}

void run_config_build(const struct nvitop_options *options, bool color, bool superuser,
                      const uint32_t *indices, size_t count, struct view_config *config) {
    memset(config, 0, sizeof(*config));
    config->thresholds = (struct view_thresholds){10, 75, 10, 80};
    if (options->gpu_thresh_given) {
        sorted_pair(options->gpu_thresh, &config->thresholds.gpu_low, &config->thresholds.gpu_high);
    }
    if (options->mem_thresh_given) {
        sorted_pair(options->mem_thresh, &config->thresholds.mem_low, &config->thresholds.mem_high);
    }
    config->ascii = options->ascii;
    config->colorful = options->colorful;
    config->light = options->light;
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
