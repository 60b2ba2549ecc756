/*
 * The scenario loader's entry points: reading the file, the top-level object ("driver",
 * "clock", "devices", "call_latency") and turning the first error into one
 * "<file>:<line>:<column>: <message>" line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scenario/scenario.h"
#include "scenario/scenario_internal.h"

/* Scenario files are small; anything this large is a mistake (or a fuzzer). */
#define SCENARIO_MAX_BYTES (16U << 20)

#define MODEL(member) offsetof(struct sim_model, member)

static int read_generation(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_init_error(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_clock(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_devices(struct scenario_ctx *ctx, const json_t *value, void *base);

static const struct scenario_field driver_fields[] = {
    {.key = "version",
     .kind = FIELD_TEXT,
     .offset = MODEL(driver_version),
     .max = NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE - 1,
     .required = true},
    {.key = "nvml_version",
     .kind = FIELD_TEXT,
     .offset = MODEL(nvml_version),
     .max = NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE - 1},
    {.key = "cuda_version",
     .kind = FIELD_NUM,
     .offset = MODEL(cuda_version),
     .min = 1000,
     .max = 99999,
     .required = true},
    {.key = "generation", .kind = FIELD_CUSTOM, .custom = read_generation},
    {.key = "init_error", .kind = FIELD_CUSTOM, .custom = read_init_error},
    {0},
};

static const struct scenario_field top_fields[] = {
    {.key = "driver", .kind = FIELD_GROUP, .fields = driver_fields, .required = true},
    {.key = "clock", .kind = FIELD_CUSTOM, .custom = read_clock},
    {.key = "devices", .kind = FIELD_CUSTOM, .custom = read_devices, .required = true},
    {.key = "call_latency", .kind = FIELD_CUSTOM, .custom = scenario_read_latency},
    {.key = "call_errors", .kind = FIELD_CUSTOM, .custom = scenario_read_call_errors},
    {0},
};

static int read_generation(struct scenario_ctx *ctx, const json_t *value, void *base) {
    static const char *const names[] = {"pre-r535", "r510", "r535", "r550"};
    struct sim_model *model = base;
    for (size_t i = 0; json_is_string(value) && i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(names[i], json_string_value(value)) == 0) {
            model->generation = (enum sim_generation)i;
            return 0;
        }
    }
    return scenario_fail(ctx, SCENARIO_AT_VALUE,
                         "expected \"pre-r535\", \"r510\", \"r535\" or \"r550\"");
}

static int read_init_error(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_model *model = base;
    if (json_is_null(value)) {
        model->init_error = NVML_SUCCESS;
        return 0;
    }
    if (!json_is_string(value) ||
        !sim_error_from_name(json_string_value(value), &model->init_error)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected null or an NVML error name such as \"DRIVER_NOT_LOADED\"");
    }
    return 0;
}

static int read_clock(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_model *model = base;
    if (!json_is_object(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an object");
    }
    const char *key;
    const json_t *member;
    json_object_foreach(scenario_unconst(value), key, member) {
        scenario_push_key(ctx, key);
        int rc = 0;
        if (strcmp(key, "frozen_at") != 0) {
            rc = scenario_fail(ctx, SCENARIO_AT_KEY, "unknown key \"%s\"", key);
        } else if (!json_is_number(member) || json_number_value(member) < 0.0 ||
                   json_number_value(member) > 1e9) {
            rc = scenario_fail(ctx, SCENARIO_AT_VALUE, "expected seconds in 0..1e9");
        } else {
            model->clock_frozen = true;
            model->frozen_at_s = json_number_value(member);
        }
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

static int read_devices(struct scenario_ctx *ctx, const json_t *value, void *base) {
    return scenario_read_devices(ctx, value, base);
}

/* NVIDIA's NVML version is the CUDA major version followed by the driver version. */
static int default_nvml_version(struct scenario_ctx *ctx, struct sim_model *model) {
    if (model->nvml_version.error == NVML_SUCCESS || model->driver_version.value == NULL) {
        return 0;
    }
    char text[NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE];
    snprintf(text, sizeof(text), "%d.%s", (int)(model->cuda_version.base / 1000),
             model->driver_version.value);
    model->nvml_version.value = scenario_strdup(ctx, text);
    model->nvml_version.error = NVML_SUCCESS;
    return model->nvml_version.value != NULL ? 0 : -1;
}

/* NVIDIA added the PCIe byte counter fields in R555. */
#define PCIE_COUNTERS_SINCE_MAJOR 555

static void derive_features(struct sim_model *model) {
    const char *version = model->driver_version.value;
    long major = 0;
    for (const char *p = version; p != NULL && *p >= '0' && *p <= '9' && major < 100000; p++) {
        major = major * 10 + (*p - '0');
    }
    model->pcie_byte_counters = major >= PCIE_COUNTERS_SINCE_MAJOR;
}

/* Messages quote pieces of the file (jansson's "near '...'", unknown keys); control characters
 * in them must not break the promise of exactly one line. */
static void make_one_line(char *message) {
    for (char *p = message; *p != '\0'; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7F) {
            *p = ' ';
        }
    }
}

static nvmlReturn_t finish(struct scenario_ctx *ctx, struct sim_model *model, int rc,
                           struct sim_model **out, char **message) {
    if (rc == 0 && !ctx->out_of_memory) {
        *out = model;
        *message = NULL;
        return NVML_SUCCESS;
    }
    sim_model_free(model);
    if (ctx->out_of_memory) {
        free(ctx->message);
        *message = NULL;
        return NVML_ERROR_MEMORY;
    }
    *message = ctx->message;
    if (*message != NULL) {
        make_one_line(*message);
    }
    return NVML_ERROR_UNKNOWN;
}

nvmlReturn_t scenario_parse(const char *name, const char *text, size_t length,
                            struct sim_model **out, char **message) {
    struct scenario_ctx ctx = {.name = name, .text = text, .length = length};
    *out = NULL;
    struct sim_model *model = calloc(1, sizeof(*model));
    if (model == NULL) {
        *message = NULL;
        return NVML_ERROR_MEMORY;
    }
    ctx.model = model;
    model->generation = SIM_GEN_R550;
    scenario_fields_init(top_fields, model);

    json_error_t error;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (root == NULL) {
        size_t size = strlen(name) + strlen(error.text) + 32;
        ctx.message = malloc(size);
        if (ctx.message == NULL) {
            return finish(&ctx, model, scenario_no_memory(&ctx), out, message);
        }
        snprintf(ctx.message, size, "%s:%d:%d: %s", name, error.line, error.column, error.text);
        return finish(&ctx, model, -1, out, message);
    }
    int rc = scenario_read_object(&ctx, root, top_fields, model);
    json_decref(root);
    if (rc == 0) {
        rc = default_nvml_version(&ctx, model);
        derive_features(model);
    }
    return finish(&ctx, model, rc, out, message);
}

static char *format_message(const char *path, const char *reason) {
    size_t size = strlen(path) + strlen(reason) + 4;
    char *message = malloc(size);
    if (message != NULL) {
        snprintf(message, size, "%s: %s", path, reason);
    }
    return message;
}

nvmlReturn_t scenario_load(const char *path, struct sim_model **out, char **message) {
    *out = NULL;
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        *message = format_message(path, strerror(errno));
        return NVML_ERROR_UNKNOWN;
    }
    /* The size is only a first guess (the file may be rewritten meanwhile): read until EOF. */
    struct stat st;
    size_t capacity = fstat(fileno(in), &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    capacity = capacity < SCENARIO_MAX_BYTES + 1 ? capacity : SCENARIO_MAX_BYTES + 1;
    char *text = NULL;
    size_t length = 0;
    int failed = 0;
    for (;;) {
        char *grown = realloc(text, capacity);
        if (grown == NULL) {
            free(text);
            fclose(in);
            *message = NULL;
            return NVML_ERROR_MEMORY;
        }
        text = grown;
        length += fread(text + length, 1, capacity - length, in);
        failed = ferror(in);
        if (failed || length < capacity || capacity > SCENARIO_MAX_BYTES) {
            break;
        }
        capacity = capacity * 2 < SCENARIO_MAX_BYTES + 1 ? capacity * 2 : SCENARIO_MAX_BYTES + 1;
    }
    fclose(in);
    if (failed || length > SCENARIO_MAX_BYTES) {
        free(text);
        *message = format_message(path, failed ? "read error" : "file larger than 16 MiB");
        return NVML_ERROR_UNKNOWN;
    }
    nvmlReturn_t ret = scenario_parse(path, text, length, out, message);
    free(text);
    return ret;
}
