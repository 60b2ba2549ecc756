/*
 * The table-driven object reader: one `struct scenario_field` row per key says how the value is
 * written and where it goes in the model, so that every object gets the same checks (unknown
 * keys, required keys, types, ranges) from one place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

static void *field_at(void *base, size_t offset) {
    return (char *)base + offset;
}

/* Sets every field of a table (recursively) to `error`. */
static void fields_set_error(const struct scenario_field *fields, void *base, nvmlReturn_t error) {
    for (const struct scenario_field *f = fields; f->key != NULL; f++) {
        if (f->kind == FIELD_TEXT) {
            ((struct sim_text *)field_at(base, f->offset))->error = error;
        } else if (f->kind == FIELD_GROUP) {
            fields_set_error(f->fields, base, error);
            if (f->has_group_error) {
                *(nvmlReturn_t *)field_at(base, f->error_offset) = error;
            }
        } else if (f->kind != FIELD_CUSTOM) {
            ((struct sim_num *)field_at(base, f->offset))->error = error;
        }
    }
}

void scenario_fields_init(const struct scenario_field *fields, void *base) {
    for (const struct scenario_field *f = fields; f->key != NULL; f++) {
        if (f->kind == FIELD_GROUP) {
            scenario_fields_init(f->fields, base);
        } else if (f->kind == FIELD_NUM || f->kind == FIELD_ID) {
            struct sim_num *num = field_at(base, f->offset);
            num->min = f->min;
            num->max = f->max;
        } else if (f->kind == FIELD_BOOL) {
            struct sim_num *num = field_at(base, f->offset);
            num->max = 1.0;
        } else if (f->kind == FIELD_ENUM) {
            struct sim_num *num = field_at(base, f->offset);
            num->max = 1e9;
        }
    }
    fields_set_error(fields, base, NVML_ERROR_NOT_SUPPORTED);
}

static int read_text(struct scenario_ctx *ctx, const struct scenario_field *f, const json_t *value,
                     struct sim_text *text) {
    if (!json_is_string(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a string");
    }
    if (json_string_length(value) > (size_t)f->max ||
        strlen(json_string_value(value)) != json_string_length(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected a string of at most %.0f bytes without NUL characters",
                             f->max);
    }
    text->value = scenario_strdup(ctx, json_string_value(value));
    if (text->value == NULL) {
        return -1;
    }
    text->error = NVML_SUCCESS;
    return 0;
}

static void set_constant(struct sim_num *num, double v) {
    num->error = NVML_SUCCESS;
    num->kind = SIM_NUM_CONSTANT;
    num->base = v;
}

static int read_enum(struct scenario_ctx *ctx, const struct scenario_field *f, const json_t *value,
                     struct sim_num *num) {
    if (json_is_string(value)) {
        for (size_t i = 0; f->names[i] != NULL; i++) {
            if (strcmp(f->names[i], json_string_value(value)) == 0) {
                set_constant(num, (double)i);
                return 0;
            }
        }
    }
    char choices[256] = "";
    for (size_t i = 0; f->names[i] != NULL; i++) {
        size_t used = strlen(choices);
        snprintf(choices + used, sizeof(choices) - used, "%s\"%s\"", i > 0 ? ", " : "",
                 f->names[i]);
    }
    return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected one of %s", choices);
}

static int read_id(struct scenario_ctx *ctx, const json_t *value, struct sim_num *num) {
    if (!json_is_string(value)) {
        return scenario_read_num(ctx, value, num);
    }
    const char *s = json_string_value(value);
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 16);
    if (strncmp(s, "0x", 2) != 0 || s[2] == '\0' || *end != '\0' || errno != 0 ||
        (double)v > num->max) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected a number or a hexadecimal string such as \"0x20B010DE\"");
    }
    set_constant(num, (double)v);
    return 0;
}

static int read_group(struct scenario_ctx *ctx, const struct scenario_field *f, const json_t *value,
                      void *base) {
    nvmlReturn_t error = NVML_SUCCESS;
    int shape = scenario_read_error(ctx, value, &error);
    if (shape != 0) {
        if (shape > 0) {
            fields_set_error(f->fields, base, error);
            if (f->has_group_error) {
                *(nvmlReturn_t *)field_at(base, f->error_offset) = error;
            }
        }
        return shape < 0 ? -1 : 0;
    }
    if (!json_is_object(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an object");
    }
    if (f->has_group_error) {
        *(nvmlReturn_t *)field_at(base, f->error_offset) = NVML_SUCCESS;
    }
    return scenario_read_object(ctx, value, f->fields, base);
}

static int read_field(struct scenario_ctx *ctx, const struct scenario_field *f, const json_t *value,
                      void *base) {
    void *target = field_at(base, f->offset);
    if (f->kind == FIELD_GROUP) {
        return read_group(ctx, f, value, base);
    }
    if (f->kind == FIELD_CUSTOM) {
        return f->custom(ctx, value, base);
    }
    if (f->kind == FIELD_NUM) {
        return scenario_read_num(ctx, value, target);
    }
    nvmlReturn_t *error = f->kind == FIELD_TEXT ? &((struct sim_text *)target)->error
                                                : &((struct sim_num *)target)->error;
    int shape = scenario_read_error(ctx, value, error);
    if (shape != 0) {
        return shape < 0 ? -1 : 0;
    }
    switch (f->kind) {
    case FIELD_TEXT:
        return read_text(ctx, f, value, target);
    case FIELD_ID:
        return read_id(ctx, value, target);
    case FIELD_ENUM:
        return read_enum(ctx, f, value, target);
    default:
        if (!json_is_boolean(value)) {
            return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected true or false");
        }
        set_constant(target, json_is_true(value) ? 1.0 : 0.0);
        return 0;
    }
}

static const struct scenario_field *find_field(const struct scenario_field *fields,
                                               const char *key) {
    for (const struct scenario_field *f = fields; f->key != NULL; f++) {
        if (strcmp(f->key, key) == 0) {
            return f;
        }
    }
    return NULL;
}

int scenario_read_object(struct scenario_ctx *ctx, const json_t *object,
                         const struct scenario_field *fields, void *base) {
    if (!json_is_object(object)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an object");
    }
    const char *key;
    const json_t *value;
    json_object_foreach(scenario_unconst(object), key, value) {
        const struct scenario_field *f = find_field(fields, key);
        scenario_push_key(ctx, key);
        int rc = f == NULL ? scenario_fail(ctx, SCENARIO_AT_KEY, "unknown key \"%s\"", key)
                           : read_field(ctx, f, value, base);
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    for (const struct scenario_field *f = fields; f->key != NULL; f++) {
        if (f->required && json_object_get(object, f->key) == NULL) {
            return scenario_fail(ctx, SCENARIO_AT_VALUE, "missing required key \"%s\"", f->key);
        }
    }
    return 0;
}
