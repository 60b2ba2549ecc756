/*
 * The walker's cases: one per NVML entry point, each calling it on the walk's current device (or
 * once for the system) and, when a scenario is given, checking the answer against it.
 */
#ifndef NVITOP_TESTS_SIM_WALK_WALK_CASES_H
#define NVITOP_TESTS_SIM_WALK_WALK_CASES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "nvml/nvml_abi.h"

#define WALK_API_MEMBER(name, params) nvmlReturn_t(*name) params;
struct walk_api {
    NVML_ABI_FUNCTIONS(WALK_API_MEMBER)
    NVML_ABI_MONITOR_FUNCTIONS(WALK_API_MEMBER)
};
#undef WALK_API_MEMBER

struct walk {
    const struct walk_api *api;
    const json_t *root; /* the scenario, or NULL: print only */
    FILE *out;
    FILE *times;       /* or NULL: each case's wall time, "<device>\t<entry point>\t<us>" */
    const json_t *dev; /* the current device's object in the scenario */
    nvmlDevice_t handle;
    unsigned int index;
    int failures;
};

/* Whether the walker has a case for the entry point `name`. */
bool walk_has_case(const char *name);

/* Initialises the driver, walks every case on the system and on every device, shuts down.
 * Returns 0, or 2 when the driver cannot be initialised. */
int walk_all(struct walk *w);

#endif /* NVITOP_TESTS_SIM_WALK_WALK_CASES_H */
