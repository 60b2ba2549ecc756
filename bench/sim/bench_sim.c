/*
 * bench-sim: what a query of the simulated driver costs, against a floor measured in the same
 * run (a trivial exported function, nvmlErrorString, called through a dlsym'd pointer).  Prints
 * nanoseconds per call and the ratio to the floor; never fails on a time.
 *
 *   LD_LIBRARY_PATH=build/sim-driver build/bench/bench-sim [scenario]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nvml/nvml_abi.h"

#define ROUNDS 2000000L

struct api {
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*shutdown)(void);
    const char *(*error_string)(nvmlReturn_t);
    nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
    nvmlReturn_t (*fan)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_v2_t *);
    nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t *);
    nvmlReturn_t (*processes)(nvmlDevice_t, unsigned int *, void *);
};

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Each measured operation, behind one function pointer so that all pay the same call. */
enum op {
    OP_FLOOR,
    OP_FAN,
    OP_MEMORY,
    OP_UTILIZATION,
    OP_PROCESSES,
    OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
    "nvmlErrorString (floor)",
    "nvmlDeviceGetFanSpeed",
    "nvmlDeviceGetMemoryInfo_v2",
    "nvmlDeviceGetUtilizationRates",
    "nvmlDeviceGetComputeRunningProcesses_v3",
};

static unsigned long run(const struct api *api, nvmlDevice_t dev, enum op op, long rounds) {
    unsigned long sink = 0;
    for (long i = 0; i < rounds; i++) {
        unsigned int v = 0;
        nvmlMemory_v2_t mem = {.version = nvmlMemory_v2};
        nvmlUtilization_t util;
        nvmlProcessInfo_v2_t procs[8];
        unsigned int count = 8;
        switch (op) {
        case OP_FLOOR:
            sink += (unsigned long)api->error_string(NVML_SUCCESS)[0];
            break;
        case OP_FAN:
            sink += (unsigned long)api->fan(dev, &v) + v;
            break;
        case OP_MEMORY:
            sink += (unsigned long)api->memory(dev, &mem) + (unsigned long)mem.used;
            break;
        case OP_UTILIZATION:
            sink += (unsigned long)api->utilization(dev, &util) + util.gpu;
            break;
        default:
            sink += (unsigned long)api->processes(dev, &count, procs) + count;
            break;
        }
    }
    return sink;
}

static int resolve(void *lib, struct api *api) {
    *(void **)&api->init = dlsym(lib, "nvmlInit_v2");
    *(void **)&api->shutdown = dlsym(lib, "nvmlShutdown");
    *(void **)&api->error_string = dlsym(lib, "nvmlErrorString");
    *(void **)&api->handle = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&api->fan = dlsym(lib, "nvmlDeviceGetFanSpeed");
    *(void **)&api->memory = dlsym(lib, "nvmlDeviceGetMemoryInfo_v2");
    *(void **)&api->utilization = dlsym(lib, "nvmlDeviceGetUtilizationRates");
    *(void **)&api->processes = dlsym(lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    return api->init != NULL && api->shutdown != NULL && api->error_string != NULL &&
                   api->handle != NULL && api->fan != NULL && api->memory != NULL &&
                   api->utilization != NULL && api->processes != NULL
               ? 0
               : -1;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        setenv("NVML_SIM_SCENARIO", argv[1], 1);
    }
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    struct api api;
    if (lib == NULL || resolve(lib, &api) != 0) {
        fprintf(stderr, "bench-sim: cannot load the NVML entry points: %s\n",
                lib == NULL ? dlerror() : "missing symbol");
        return 1;
    }
    nvmlDevice_t dev = NULL;
    if (api.init() != NVML_SUCCESS || api.handle(0, &dev) != NVML_SUCCESS) {
        fprintf(stderr, "bench-sim: set NVML_SIM_SCENARIO to a scenario with a GPU\n");
        return 1;
    }
    unsigned long sink = 0;
    double floor_ns = 0.0;
    printf("%-52s %10s %8s\n", "query", "ns/call", "x floor");
    for (int op = 0; op < OP_COUNT; op++) {
        sink += run(&api, dev, (enum op)op, ROUNDS / 10); /* warm up */
        double start = now_ns();
        sink += run(&api, dev, (enum op)op, ROUNDS);
        double per_call = (now_ns() - start) / (double)ROUNDS;
        if (op == OP_FLOOR) {
            floor_ns = per_call;
        }
        printf("%-52s %10.1f %8.1f\n", op_names[op], per_call,
               floor_ns > 0.0 ? per_call / floor_ns : 0.0);
    }
    api.shutdown();
    dlclose(lib);
    return sink == 42 ? 2 : 0; /* keeps the loops from being optimised away */
}
