/*
 * nvml-walk: calls every NVML entry point of src/lib/nvml/nvml_abi.h (the library's and the
 * monitoring ones) on every device, the way a monitoring client does, and prints one line per
 * answer: "<device>\t<query>\t<result>".  It runs against whatever libnvidia-ml.so.1 the dynamic
 * linker finds (or --library PATH): the simulator in tests, NVIDIA's driver in
 * scripts/hw-check.sh.
 *
 * With --check SCENARIO it also compares each answer (value or error) with what the scenario
 * file says, read independently with jansson; the clock must be frozen at 0 (NVML_SIM_TIME=0).
 * With --times FILE it writes each case's wall time there ("<device>\t<entry point>\t<us>": a
 * case's total, which for the per-link and per-clock cases spans many calls).
 * Every entry point must have a case here: one without fails the walk (exit 2), so an entry
 * point cannot be added to the simulator without a test.  Exit 1: a mismatch.
 */
#include <dlfcn.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NVML_ABI_PROTOTYPES
#include "nvml/nvml_abi.h"
#include "walk_cases.h"
#include "walk_expect.h"

#define WALK_API_RESOLVE(name, params) *(void **)&api->name = dlsym(handle, #name);
static void resolve(struct walk_api *api, void *handle) {
    NVML_ABI_FUNCTIONS(WALK_API_RESOLVE)
    NVML_ABI_MONITOR_FUNCTIONS(WALK_API_RESOLVE)
}
#undef WALK_API_RESOLVE

#define WALK_NAME(name, params) #name,
static const char *const entry_points[] = {NVML_ABI_FUNCTIONS(WALK_NAME)
                                               NVML_ABI_MONITOR_FUNCTIONS(WALK_NAME) NULL};
#undef WALK_NAME

/* Every entry point has a case. */
static int check_coverage(void) {
    int missing = 0;
    for (size_t i = 0; entry_points[i] != NULL; i++) {
        if (!walk_has_case(entry_points[i])) {
            fprintf(stderr, "nvml-walk: no walker case for %s (add one to tests/sim/walk/)\n",
                    entry_points[i]);
            missing++;
        }
    }
    return missing;
}

static json_t *load_scenario(const char *path) {
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (root == NULL) {
        fprintf(stderr, "nvml-walk: %s:%d: %s\n", path, error.line, error.text);
    }
    return root;
}

int main(int argc, char **argv) {
    const char *library = "libnvidia-ml.so.1";
    const char *scenario = NULL;
    const char *times_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--library") == 0 && i + 1 < argc) {
            library = argv[++i];
        } else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) {
            scenario = argv[++i];
        } else if (strcmp(argv[i], "--times") == 0 && i + 1 < argc) {
            times_path = argv[++i];
        } else {
            fprintf(stderr, "usage: nvml-walk [--library PATH] [--check SCENARIO.json] "
                            "[--times FILE]\n");
            return 2;
        }
    }
    if (check_coverage() != 0) {
        return 2;
    }
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "nvml-walk: %s\n", dlerror());
        return 2;
    }
    struct walk_api api;
    memset(&api, 0, sizeof(api));
    resolve(&api, handle);
    json_t *root = NULL;
    if (scenario != NULL && (root = load_scenario(scenario)) == NULL) {
        dlclose(handle);
        return 2;
    }
    FILE *times = NULL;
    if (times_path != NULL && (times = fopen(times_path, "w")) == NULL) {
        perror(times_path);
        json_decref(root);
        dlclose(handle);
        return 2;
    }
    struct walk w = {.api = &api, .root = root, .out = stdout, .times = times};
    int rc = walk_all(&w);
    if (times != NULL && fclose(times) != 0) {
        perror(times_path);
        rc = rc == 0 ? 2 : rc;
    }
    json_decref(root);
    dlclose(handle);
    if (rc == 0 && w.failures > 0) {
        fprintf(stderr, "nvml-walk: %d answers differ from %s\n", w.failures, scenario);
        rc = 1;
    }
    return rc;
}
