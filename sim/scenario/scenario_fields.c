/*
 * The scenario loader's building blocks: path tracking, error messages that point at the
 * offending value, and the table-driven reader for objects and their fields.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

void scenario_push_key(struct scenario_ctx *ctx, const char *key) {
    /* Deeper paths only lose precision in messages; the loader never nests that deep. */
    if (ctx->path.depth < SCENARIO_MAX_DEPTH) {
        ctx->path.segments[ctx->path.depth].key = key;
        ctx->path.segments[ctx->path.depth].index = 0;
    }
    ctx->path.depth++;
}

void scenario_push_index(struct scenario_ctx *ctx, size_t index) {
    if (ctx->path.depth < SCENARIO_MAX_DEPTH) {
        ctx->path.segments[ctx->path.depth].key = NULL;
        ctx->path.segments[ctx->path.depth].index = index;
    }
    ctx->path.depth++;
}

void scenario_pop(struct scenario_ctx *ctx) {
    ctx->path.depth--;
}

int scenario_fail(struct scenario_ctx *ctx, enum scenario_target target, const char *format, ...) {
    if (ctx->message != NULL || ctx->out_of_memory) {
        return -1;
    }
    char text[512];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof(text), format, ap);
    va_end(ap);

    struct scenario_path path = ctx->path;
    if (path.depth > SCENARIO_MAX_DEPTH) {
        path.depth = SCENARIO_MAX_DEPTH;
    }
    unsigned int line = 1;
    unsigned int column = 1;
    scenario_locate(ctx->text, ctx->length, &path, target == SCENARIO_AT_KEY, &line, &column);
    size_t size = strlen(ctx->name) + strlen(text) + 32;
    ctx->message = malloc(size);
    if (ctx->message == NULL) {
        ctx->out_of_memory = true;
        return -1;
    }
    snprintf(ctx->message, size, "%s:%u:%u: %s", ctx->name, line, column, text);
    return -1;
}

json_t *scenario_unconst(const json_t *value) {
    return (json_t *)(uintptr_t)value;
}

int scenario_no_memory(struct scenario_ctx *ctx) {
    ctx->out_of_memory = true;
    return -1;
}

void *scenario_alloc(struct scenario_ctx *ctx, size_t count, size_t size) {
    struct sim_model *model = ctx->model;
    if (model->block_count == model->block_capacity) {
        size_t capacity = model->block_capacity > 0 ? model->block_capacity * 2 : 64;
        void **blocks = realloc(model->blocks, capacity * sizeof(*blocks));
        if (blocks == NULL) {
            scenario_no_memory(ctx);
            return NULL;
        }
        model->blocks = blocks;
        model->block_capacity = capacity;
    }
    void *block = calloc(count > 0 ? count : 1, size);
    if (block == NULL) {
        scenario_no_memory(ctx);
        return NULL;
    }
    model->blocks[model->block_count++] = block;
    return block;
}

char *scenario_strdup(struct scenario_ctx *ctx, const char *text) {
    size_t length = strlen(text);
    char *copy = scenario_alloc(ctx, length + 1, 1);
    if (copy != NULL) {
        memcpy(copy, text, length);
    }
    return copy;
}

int scenario_read_error(struct scenario_ctx *ctx, const json_t *value, nvmlReturn_t *error) {
    if (json_is_null(value)) {
        *error = NVML_ERROR_NOT_SUPPORTED;
        return 1;
    }
    const json_t *name = json_object_get(value, "error");
    if (!json_is_object(value) || name == NULL) {
        return 0;
    }
    if (json_object_size(value) != 1) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "an {\"error\": ...} object takes no other keys");
    }
    scenario_push_key(ctx, "error");
    if (!json_is_string(name) || !sim_error_from_name(json_string_value(name), error)) {
        int rc = scenario_fail(ctx, SCENARIO_AT_VALUE,
                               "expected an NVML error name such as \"NOT_SUPPORTED\"");
        scenario_pop(ctx);
        return rc;
    }
    scenario_pop(ctx);
    return 1;
}

static int check_range(struct scenario_ctx *ctx, double v, const struct sim_num *num) {
    if (!isfinite(v) || v < num->min || v > num->max) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "value %g is out of range %g..%g", v, num->min,
                             num->max);
    }
    return 0;
}

/* Reads a member that must be a number in [min, max] into *out. */
static int read_member_number(struct scenario_ctx *ctx, const json_t *object, const char *key,
                              double min, double max, double *out) {
    const json_t *value = json_object_get(object, key);
    if (value == NULL) {
        return 0;
    }
    scenario_push_key(ctx, key);
    int rc = 0;
    if (!json_is_number(value)) {
        rc = scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a number");
    } else {
        *out = json_number_value(value);
        if (!isfinite(*out) || *out < min || *out > max) {
            rc = scenario_fail(ctx, SCENARIO_AT_VALUE, "value %g is out of range %g..%g", *out, min,
                               max);
        }
    }
    scenario_pop(ctx);
    return rc;
}

static int check_keys(struct scenario_ctx *ctx, const json_t *object, const char *const *allowed) {
    const char *key;
    const json_t *member;
    json_object_foreach(scenario_unconst(object), key, member) {
        size_t i = 0;
        while (allowed[i] != NULL && strcmp(allowed[i], key) != 0) {
            i++;
        }
        if (allowed[i] == NULL) {
            scenario_push_key(ctx, key);
            scenario_fail(ctx, SCENARIO_AT_KEY, "unknown key \"%s\"", key);
            scenario_pop(ctx);
            return -1;
        }
    }
    return 0;
}

static int read_sine(struct scenario_ctx *ctx, const json_t *value, struct sim_num *num) {
    static const char *const keys[] = {"base", "amplitude", "period", "phase", NULL};
    if (check_keys(ctx, value, keys) != 0) {
        return -1;
    }
    if (json_object_get(value, "base") == NULL || json_object_get(value, "period") == NULL) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "a varying number needs \"base\" and \"period\" (or \"schedule\")");
    }
    num->kind = SIM_NUM_SINE;
    num->amplitude = 0.0;
    num->phase_s = 0.0;
    if (read_member_number(ctx, value, "base", num->min, num->max, &num->base) != 0 ||
        read_member_number(ctx, value, "amplitude", 0.0, 1e18, &num->amplitude) != 0 ||
        read_member_number(ctx, value, "period", 1e-3, 1e9, &num->period_s) != 0 ||
        read_member_number(ctx, value, "phase", -1e9, 1e9, &num->phase_s) != 0) {
        return -1;
    }
    return 0;
}

static int read_point(struct scenario_ctx *ctx, const json_t *pair, struct sim_num *num, size_t i) {
    if (!json_is_array(pair) || json_array_size(pair) != 2 ||
        !json_is_number(json_array_get(pair, 0)) || !json_is_number(json_array_get(pair, 1))) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a [seconds, value] pair");
    }
    double t = json_number_value(json_array_get(pair, 0));
    double v = json_number_value(json_array_get(pair, 1));
    if (!isfinite(t) || t < 0.0 || (i > 0 && t < num->points[i - 1].time_s)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "schedule times must be non-negative and in increasing order");
    }
    if (check_range(ctx, v, num) != 0) {
        return -1;
    }
    num->points[i].time_s = t;
    num->points[i].value = v;
    return 0;
}

static int read_schedule(struct scenario_ctx *ctx, const json_t *value, struct sim_num *num) {
    static const char *const keys[] = {"schedule", "repeat", NULL};
    if (check_keys(ctx, value, keys) != 0) {
        return -1;
    }
    const json_t *repeat = json_object_get(value, "repeat");
    if (repeat != NULL && !json_is_boolean(repeat)) {
        scenario_push_key(ctx, "repeat");
        scenario_fail(ctx, SCENARIO_AT_VALUE, "expected true or false");
        scenario_pop(ctx);
        return -1;
    }
    const json_t *points = json_object_get(value, "schedule");
    scenario_push_key(ctx, "schedule");
    size_t n = json_array_size(points);
    if (!json_is_array(points) || n == 0 || n > 1000) {
        scenario_fail(ctx, SCENARIO_AT_VALUE, "expected 1 to 1000 [seconds, value] pairs");
        scenario_pop(ctx);
        return -1;
    }
    num->points = scenario_alloc(ctx, n, sizeof(*num->points));
    if (num->points == NULL) {
        scenario_pop(ctx);
        return -1;
    }
    num->kind = SIM_NUM_SCHEDULE;
    num->point_count = n;
    num->repeat = json_is_true(repeat);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        scenario_push_index(ctx, i);
        rc = read_point(ctx, json_array_get(points, i), num, i);
        scenario_pop(ctx);
    }
    scenario_pop(ctx);
    num->base = num->points[0].value;
    return rc;
}

int scenario_read_num(struct scenario_ctx *ctx, const json_t *value, struct sim_num *num) {
    int shape = scenario_read_error(ctx, value, &num->error);
    if (shape != 0) {
        return shape < 0 ? -1 : 0;
    }
    num->error = NVML_SUCCESS;
    num->kind = SIM_NUM_CONSTANT;
    if (json_is_number(value)) {
        num->base = json_number_value(value);
        return check_range(ctx, num->base, num);
    }
    if (json_is_object(value) && json_object_get(value, "schedule") != NULL) {
        return read_schedule(ctx, value, num);
    }
    if (json_is_object(value)) {
        return read_sine(ctx, value, num);
    }
    return scenario_fail(ctx, SCENARIO_AT_VALUE,
                         "expected a number, null, {\"error\": ...}, a sine or a schedule");
}
