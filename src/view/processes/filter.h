/*
 * The command line's device and process filters (view/config.h, docs/nvitop-behaviour.md §1.2) as
 * predicates.
 */
#ifndef NVITOP_SRC_VIEW_PROCESSES_FILTER_H
#define NVITOP_SRC_VIEW_PROCESSES_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

#include "view/config.h"

/* Is the device in this slot shown?  A physical GPU passes the device filter by index; a MIG
 * device follows its parent. */
bool view_device_is_shown(const struct nvt_snapshot *snap, const struct view_config *config,
                          size_t slot);

/* Does the process pass the type, user and PID filters (all active ones)? */
bool view_process_is_shown(const struct nvt_gpu_process *process, const struct view_config *config);

/* nvitop's one-letter process type: "C", "G", "X" (both) or "N/A". */
const char *view_process_type(unsigned type);

#endif /* NVITOP_SRC_VIEW_PROCESSES_FILTER_H */
