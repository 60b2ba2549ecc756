/*
 * Device and process filters of the command line.
 */
#include "view/processes/filter.h"

#include <string.h>

bool view_device_is_shown(const struct nvt_snapshot *snap, const struct view_config *config,
                          size_t slot) {
    if (slot >= snap->device_count) {
        return false;
    }
    if (!config->device_filter.active) {
        return true;
    }
    uint32_t index = snap->devices[slot].info.index;
    for (size_t i = 0; i < config->device_filter.count; i++) {
        if (config->device_filter.indices[i] == index) {
            return true;
        }
    }
    return false;
}

const char *view_process_type(unsigned type) {
    bool compute = (type & NVT_PROCESS_COMPUTE) != 0;
    bool graphics = (type & NVT_PROCESS_GRAPHICS) != 0;
    if (compute && graphics) {
        return "X";
    }
    if (compute) {
        return "C";
    }
    if (graphics) {
        return "G";
    }
    return "N/A";
}

static bool user_matches(const struct nvt_gpu_process *process,
                         const struct view_process_filter *filter) {
    const char *user = process->host.user == NULL ? "" : process->host.user;
    for (size_t i = 0; i < filter->user_count; i++) {
        if (strcmp(filter->users[i], user) == 0) {
            return true;
        }
    }
    return false;
}

static bool pid_matches(const struct nvt_gpu_process *process,
                        const struct view_process_filter *filter) {
    for (size_t i = 0; i < filter->pid_count; i++) {
        if (filter->pids[i] == process->pid) {
            return true;
        }
    }
    return false;
}

bool view_process_is_shown(const struct nvt_gpu_process *process,
                           const struct view_config *config) {
    const struct view_process_filter *filter = &config->process_filter;
    const char *type = view_process_type(process->type);
    /* nvitop tests the display type: "X" counts as both; "N/A" has neither letter, so it passes
     * the "only" filters and fails the others. */
    bool has_c = strchr(type, 'C') != NULL || strcmp(type, "X") == 0;
    bool has_g = strchr(type, 'G') != NULL || strcmp(type, "X") == 0;
    if (filter->compute && !has_c) {
        return false;
    }
    if (filter->only_compute && has_g) {
        return false;
    }
    if (filter->graphics && !has_g) {
        return false;
    }
    if (filter->only_graphics && has_c) {
        return false;
    }
    if (filter->by_user && !user_matches(process, filter)) {
        return false;
    }
    if (filter->by_pid && !pid_matches(process, filter)) {
        return false;
    }
    return true;
}
