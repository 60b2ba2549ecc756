#include "model/sim_calls.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The counters are process-wide by nature: the NVML ABI has no context argument, so a driver has
 * to keep its state in the library itself (as NVIDIA's does).  Relaxed atomics keep counting
 * cheap and correct under concurrent queries.
 */
static atomic_ulong sim_call_counts[SIM_CALL_COUNT];

/* Numbers the temporary files of concurrent dumps (a stalled call in one thread, a shutdown in
 * another), so that each writes its own before the rename. */
static atomic_ulong sim_dump_sequence;

#define SIM_CALL_NAME(name, params) #name,
static const char *const sim_call_names[SIM_CALL_COUNT] = {
    NVML_ABI_FUNCTIONS(SIM_CALL_NAME) NVML_ABI_MONITOR_FUNCTIONS(SIM_CALL_NAME) "nvmlErrorString",
};
#undef SIM_CALL_NAME

void sim_calls_count(enum sim_call_id id) {
    atomic_fetch_add_explicit(&sim_call_counts[id], 1, memory_order_relaxed);
}

bool sim_calls_find(const char *name, enum sim_call_id *id) {
    for (size_t i = 0; i < SIM_CALL_COUNT; i++) {
        if (strcmp(sim_call_names[i], name) == 0) {
            *id = (enum sim_call_id)i;
            return true;
        }
    }
    return false;
}

void sim_calls_dump(void) {
    const char *path = getenv("NVML_SIM_CALLS_FILE");
    if (path == NULL || path[0] == '\0') {
        return;
    }
    char tmp[4096];
    unsigned long sequence = atomic_fetch_add_explicit(&sim_dump_sequence, 1, memory_order_relaxed);
    int n = snprintf(tmp, sizeof(tmp), "%s.%ld.%lu.tmp", path, (long)getpid(), sequence);
    if (n < 0 || (size_t)n >= sizeof(tmp)) {
        return;
    }
    FILE *out = fopen(tmp, "w");
    if (out == NULL) {
        return;
    }
    for (size_t i = 0; i < SIM_CALL_COUNT; i++) {
        unsigned long count = atomic_load_explicit(&sim_call_counts[i], memory_order_relaxed);
        if (count > 0) {
            fprintf(out, "%s %lu\n", sim_call_names[i], count);
        }
    }
    if (fclose(out) != 0) {
        remove(tmp);
        return;
    }
    if (rename(tmp, path) != 0) {
        remove(tmp);
    }
}
