/*
 * The scenario's "call_errors" object: entry points that fail on every call with an error the
 * scenario names, before they look at their arguments or the machine, as a real driver answers
 * for reasons a scenario does not model otherwise: a handle refused with NO_PERMISSION, a
 * versioned struct the driver was not built for (ARGUMENT_VERSION_MISMATCH), an entry point that
 * answers UNKNOWN.  Keys are NVML entry points; values are error names as elsewhere.
 */
#include <string.h>

#include "scenario/scenario_internal.h"

/* Reads one member; returns 0 or -1. */
static int read_member(struct scenario_ctx *ctx, const char *key, const json_t *value,
                       nvmlReturn_t *errors) {
    enum sim_call_id id;
    if (!sim_calls_find(key, &id)) {
        return scenario_fail(ctx, SCENARIO_AT_KEY, "unknown NVML entry point \"%s\"", key);
    }
    if (id == SIM_CALL_nvmlErrorString || id == SIM_CALL_nvmlShutdown ||
        strncmp(key, "nvmlInit", strlen("nvmlInit")) == 0) {
        /* nvmlErrorString answers from a static table; init has "driver.init_error". */
        return scenario_fail(ctx, SCENARIO_AT_KEY, "%s cannot be made to fail", key);
    }
    if (!json_is_string(value) || !sim_error_from_name(json_string_value(value), &errors[id])) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected an NVML error name such as \"NO_PERMISSION\"");
    }
    return 0;
}

int scenario_read_call_error_table(struct scenario_ctx *ctx, const json_t *value,
                                   nvmlReturn_t *errors) {
    if (!json_is_object(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected an object mapping NVML entry points to error names");
    }
    const char *key;
    const json_t *member;
    json_object_foreach(scenario_unconst(value), key, member) {
        scenario_push_key(ctx, key);
        int rc = read_member(ctx, key, member, errors);
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

int scenario_read_call_errors(struct scenario_ctx *ctx, const json_t *value, void *base) {
    return scenario_read_call_error_table(ctx, value, ((struct sim_model *)base)->call_error);
}
