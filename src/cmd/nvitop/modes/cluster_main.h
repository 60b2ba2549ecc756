/*
 * nvitop --hosts / --prometheus: the cluster view's entry point (docs/cluster.md).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_MAIN_H
#define NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_MAIN_H

#include <stdbool.h>

#include "cmd/nvitop/cli/options.h"

/* Is a cluster source given? */
bool cluster_requested(const struct nvitop_options *options);

/* Read every node once and print the table or JSON (-1, --json), or run the cluster screen.
 * Returns the exit status: 0 when every node
 * answered, 1 when some did not (they are still listed), 2 for bad options. */
int cluster_run(const struct nvitop_options *options);

#endif /* NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_MAIN_H */
