/*
 * The scenario's "call_latency" object: how long an entry point sleeps before it answers, as a
 * real driver blocks (nvmlDeviceGetPcieThroughput for about 20 ms) or stalls (any call, for
 * seconds, on a GPU without persistence mode).  Keys are NVML entry points, "*" sets the default.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

/* An hour is far past any real stall; larger values are typos (milliseconds for seconds). */
#define SCENARIO_MAX_LATENCY_S 3600.0

static int check_seconds(struct scenario_ctx *ctx, double v, double *seconds) {
    if (!(v >= 0.0 && v <= SCENARIO_MAX_LATENCY_S)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "value %g is out of range 0..%g", v,
                             SCENARIO_MAX_LATENCY_S);
    }
    *seconds = v;
    return 0;
}

/* Reads one value into *seconds: a number, or a placeholder "${NAME:-default}" whose variable
 * (or default) holds one, so that one file serves a driver that blocks and one that does not
 * (NVT_SIM_PCIE_LATENCY=0 with h100-8gpu.json).  Returns 0 or -1. */
static int read_seconds(struct scenario_ctx *ctx, const json_t *value, double *seconds) {
    if (json_is_number(value)) {
        return check_seconds(ctx, json_number_value(value), seconds);
    }
    char buf[256];
    const char *text = NULL;
    const char *origin = NULL;
    if (scenario_placeholder_text(ctx, value, buf, sizeof(buf),
                                  "seconds (a number or a placeholder \"${NAME:-seconds}\")", &text,
                                  &origin) != 0) {
        return -1;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "%s \"%s\" is not a number of seconds", origin,
                             text);
    }
    return check_seconds(ctx, v, seconds);
}

/* Reads one member: "*" or an entry point the driver answers through its state. */
static int read_member(struct scenario_ctx *ctx, const char *key, const json_t *value,
                       double *latency, bool *given, double *fallback) {
    if (strcmp(key, "*") == 0) {
        return read_seconds(ctx, value, fallback);
    }
    enum sim_call_id id;
    if (!sim_calls_find(key, &id)) {
        return scenario_fail(ctx, SCENARIO_AT_KEY, "unknown NVML entry point \"%s\"", key);
    }
    if (id == SIM_CALL_nvmlErrorString) {
        /* It answers from a static table, without the driver, as NVIDIA's does. */
        return scenario_fail(ctx, SCENARIO_AT_KEY, "nvmlErrorString has no latency");
    }
    given[id] = true;
    return read_seconds(ctx, value, &latency[id]);
}

int scenario_read_latency_table(struct scenario_ctx *ctx, const json_t *value, double *latency) {
    if (!json_is_object(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected an object mapping NVML entry points to seconds");
    }
    bool given[SIM_CALL_COUNT] = {false};
    double fallback = 0.0;
    const char *key;
    const json_t *member;
    json_object_foreach(scenario_unconst(value), key, member) {
        scenario_push_key(ctx, key);
        int rc = read_member(ctx, key, member, latency, given, &fallback);
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    /* "*" is the default whatever its place in the object. */
    for (size_t i = 0; i < SIM_CALL_COUNT; i++) {
        if (!given[i] && i != SIM_CALL_nvmlErrorString) {
            latency[i] = fallback;
        }
    }
    return 0;
}

int scenario_read_latency(struct scenario_ctx *ctx, const json_t *value, void *base) {
    return scenario_read_latency_table(ctx, value, ((struct sim_model *)base)->call_latency_s);
}
