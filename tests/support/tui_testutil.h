/*
 * What the C tests of the monitor share: pointing the simulated driver at the bundled 2-GPU
 * workstation with its clock frozen (NVT_SCENARIO_DIR is set by CTest; from the source tree the
 * relative path works too).
 */
#ifndef NVITOP_TESTS_SUPPORT_TUI_TESTUTIL_H
#define NVITOP_TESTS_SUPPORT_TUI_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

static inline void tt_use_workstation(void) {
    const char *dir = getenv("NVT_SCENARIO_DIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/workstation-2gpu.json", dir != NULL ? dir : "sim/scenarios");
    setenv("NVML_SIM_SCENARIO", path, 1);
    setenv("NVML_SIM_TIME", "100", 1);
}

#endif /* NVITOP_TESTS_SUPPORT_TUI_TESTUTIL_H */
