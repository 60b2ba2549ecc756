/* The driver branch a build of the simulator models (sim/exports.txt; sim/CMakeLists.txt builds
 * one variant per branch and compiles sim_branch.c into each with its range). */
#ifndef NVITOP_SIM_DRIVER_SIM_BRANCH_H
#define NVITOP_SIM_DRIVER_SIM_BRANCH_H

#include "model/sim_model.h"

/* scenario_load(), then the check that the scenario's driver.version is a version of this build's
 * branch: a scenario of another branch is refused with NVML_ERROR_LIB_RM_VERSION_MISMATCH (what a
 * real libnvidia-ml.so.1 answers for a kernel module of another version) and a message naming
 * the branch and the build to use.  *message as scenario_load()'s. */
nvmlReturn_t sim_branch_load(const char *path, struct sim_model **model, char **message);

#endif /* NVITOP_SIM_DRIVER_SIM_BRANCH_H */
