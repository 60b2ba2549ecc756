#include "walk_expect.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    nvmlReturn_t code;
} errors[] = {
    {"SUCCESS", NVML_SUCCESS},
    {"UNINITIALIZED", NVML_ERROR_UNINITIALIZED},
    {"INVALID_ARGUMENT", NVML_ERROR_INVALID_ARGUMENT},
    {"NOT_SUPPORTED", NVML_ERROR_NOT_SUPPORTED},
    {"NO_PERMISSION", NVML_ERROR_NO_PERMISSION},
    {"ALREADY_INITIALIZED", NVML_ERROR_ALREADY_INITIALIZED},
    {"NOT_FOUND", NVML_ERROR_NOT_FOUND},
    {"INSUFFICIENT_SIZE", NVML_ERROR_INSUFFICIENT_SIZE},
    {"INSUFFICIENT_POWER", NVML_ERROR_INSUFFICIENT_POWER},
    {"DRIVER_NOT_LOADED", NVML_ERROR_DRIVER_NOT_LOADED},
    {"TIMEOUT", NVML_ERROR_TIMEOUT},
    {"IRQ_ISSUE", NVML_ERROR_IRQ_ISSUE},
    {"LIBRARY_NOT_FOUND", NVML_ERROR_LIBRARY_NOT_FOUND},
    {"FUNCTION_NOT_FOUND", NVML_ERROR_FUNCTION_NOT_FOUND},
    {"CORRUPTED_INFOROM", NVML_ERROR_CORRUPTED_INFOROM},
    {"GPU_IS_LOST", NVML_ERROR_GPU_IS_LOST},
    {"RESET_REQUIRED", NVML_ERROR_RESET_REQUIRED},
    {"OPERATING_SYSTEM", NVML_ERROR_OPERATING_SYSTEM},
    {"LIB_RM_VERSION_MISMATCH", NVML_ERROR_LIB_RM_VERSION_MISMATCH},
    {"IN_USE", NVML_ERROR_IN_USE},
    {"MEMORY", NVML_ERROR_MEMORY},
    {"NO_DATA", NVML_ERROR_NO_DATA},
    {"VGPU_ECC_NOT_SUPPORTED", NVML_ERROR_VGPU_ECC_NOT_SUPPORTED},
    {"INSUFFICIENT_RESOURCES", NVML_ERROR_INSUFFICIENT_RESOURCES},
    {"FREQ_NOT_SUPPORTED", NVML_ERROR_FREQ_NOT_SUPPORTED},
    {"ARGUMENT_VERSION_MISMATCH", NVML_ERROR_ARGUMENT_VERSION_MISMATCH},
    {"UNKNOWN", NVML_ERROR_UNKNOWN},
};

nvmlReturn_t walk_error_named(const char *name) {
    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
        if (strcmp(errors[i].name, name) == 0) {
            return errors[i].code;
        }
    }
    return NVML_ERROR_UNKNOWN;
}

const char *walk_error_name(nvmlReturn_t ret) {
    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
        if (errors[i].code == ret) {
            return errors[i].name;
        }
    }
    return "?";
}

/* null: NOT_SUPPORTED; {"error": NAME}: that error; anything else: SUCCESS. */
static nvmlReturn_t shape_error(const json_t *value) {
    if (value == NULL || json_is_null(value)) {
        return NVML_ERROR_NOT_SUPPORTED;
    }
    const json_t *error = json_object_get(value, "error");
    if (json_is_object(value) && json_is_string(error)) {
        return walk_error_named(json_string_value(error));
    }
    return NVML_SUCCESS;
}

/* Follows `path`, stopping at a group that is null or an error. */
static nvmlReturn_t lookup(const json_t *object, const char *path, const json_t **out) {
    char key[128];
    const json_t *at = object;
    const char *p = path;
    while (true) {
        nvmlReturn_t ret = shape_error(at);
        if (ret != NVML_SUCCESS) {
            return ret;
        }
        const char *dot = strchr(p, '.');
        size_t n = dot != NULL ? (size_t)(dot - p) : strlen(p);
        snprintf(key, sizeof(key), "%.*s", (int)n, p);
        at = json_object_get(at, key);
        if (dot == NULL) {
            break;
        }
        p = dot + 1;
    }
    *out = at;
    return shape_error(at);
}

static double at_zero(const json_t *value) {
    if (json_is_number(value)) {
        return json_number_value(value);
    }
    const json_t *base = json_object_get(value, "base");
    if (base != NULL) {
        double amplitude = json_number_value(json_object_get(value, "amplitude"));
        double period = json_number_value(json_object_get(value, "period"));
        double phase = json_number_value(json_object_get(value, "phase"));
        return json_number_value(base) + amplitude * sin(2.0 * M_PI * phase / period);
    }
    const json_t *points = json_object_get(value, "schedule");
    const json_t *first = json_array_get(points, 0);
    double value0 = json_number_value(json_array_get(first, 1));
    for (size_t i = 1; i < json_array_size(points); i++) {
        const json_t *a = json_array_get(points, i - 1);
        const json_t *b = json_array_get(points, i);
        double ta = json_number_value(json_array_get(a, 0));
        double tb = json_number_value(json_array_get(b, 0));
        if (ta <= 0.0 && 0.0 < tb) {
            double va = json_number_value(json_array_get(a, 1));
            double vb = json_number_value(json_array_get(b, 1));
            return va + (vb - va) * (0.0 - ta) / (tb - ta);
        }
        if (tb <= 0.0) {
            value0 = json_number_value(json_array_get(b, 1));
        }
    }
    return value0;
}

nvmlReturn_t walk_expect_num(const json_t *object, const char *path, const char *const *names,
                             double *value) {
    const json_t *at = NULL;
    nvmlReturn_t ret = lookup(object, path, &at);
    if (ret != NVML_SUCCESS) {
        return ret;
    }
    if (json_is_boolean(at)) {
        *value = json_is_true(at) ? 1.0 : 0.0;
    } else if (json_is_string(at)) {
        *value = -1.0;
        for (size_t i = 0; names != NULL && names[i] != NULL; i++) {
            if (strcmp(names[i], json_string_value(at)) == 0) {
                *value = (double)i;
            }
        }
    } else {
        *value = at_zero(at);
    }
    return NVML_SUCCESS;
}

nvmlReturn_t walk_expect_text(const json_t *object, const char *path, const char **text) {
    const json_t *at = NULL;
    nvmlReturn_t ret = lookup(object, path, &at);
    if (ret == NVML_SUCCESS) {
        *text = json_string_value(at);
    }
    return ret;
}
