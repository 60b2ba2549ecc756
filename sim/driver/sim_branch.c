/* The branch check of sim_branch.h.  Compiled into each build of the simulated driver with its
 * branch: SIM_BRANCH_NAME ("R418"), SIM_BRANCH_FIRST and SIM_BRANCH_END (the major driver
 * versions [first, end) of the branch, as sim/CMakeLists.txt derives them from sim/exports.txt).
 * Without them (the main build) every version is accepted: that build stands for every branch,
 * older ones through the scenario's driver.generation. */
#include "driver/sim_branch.h"

#include <stdio.h>
#include <stdlib.h>

#include "scenario/scenario.h"

#ifndef SIM_BRANCH_NAME
#define SIM_BRANCH_NAME  ""
#define SIM_BRANCH_FIRST 0u
#define SIM_BRANCH_END   0u
#endif

static const char branch_name[] = SIM_BRANCH_NAME;
static const unsigned branch_first = SIM_BRANCH_FIRST;
static const unsigned branch_end = SIM_BRANCH_END;

#define REFUSAL                                                                                    \
    "nvml-sim: %s: driver.version %s is not a version of %s, the branch this build of the "        \
    "simulator models (drivers %u to %u.x); use a scenario of that branch, or the build of its "   \
    "branch (docs/scenarios.md, \"Library variants\")"

/* The major version ("470" of "470.182.03"); false when the text does not start with one. */
static bool major_version(const char *text, unsigned long *major) {
    if (text == NULL || *text < '0' || *text > '9') {
        return false;
    }
    char *end = NULL;
    *major = strtoul(text, &end, 10);
    return end != text;
}

nvmlReturn_t sim_branch_load(const char *path, struct sim_model **model, char **message) {
    nvmlReturn_t ret = scenario_load(path, model, message);
    if (ret != NVML_SUCCESS || branch_end == 0) {
        return ret;
    }
    const struct sim_text *version = &(*model)->driver_version;
    unsigned long major = 0;
    if (version->error != NVML_SUCCESS || !major_version(version->value, &major) ||
        (major >= branch_first && major < branch_end)) {
        return NVML_SUCCESS;
    }
    int len = snprintf(NULL, 0, REFUSAL, path, version->value, branch_name, branch_first,
                       branch_end - 1u);
    char *text = len > 0 ? malloc((size_t)len + 1) : NULL;
    if (text != NULL) {
        snprintf(text, (size_t)len + 1, REFUSAL, path, version->value, branch_name, branch_first,
                 branch_end - 1u);
    }
    free(*message);
    *message = text;
    sim_model_free(*model);
    *model = NULL;
    return text != NULL ? NVML_ERROR_LIB_RM_VERSION_MISMATCH : NVML_ERROR_MEMORY;
}
