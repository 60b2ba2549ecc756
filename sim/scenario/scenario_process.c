/*
 * Reading process lists, including pids given as environment placeholders such as
 * "${NVT_STANDIN_3:-4424242}", so that a scenario can name real, running processes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

/* Linux never hands out pids of 4194304 (PID_MAX_LIMIT on 64-bit) or above: scenarios may use
 * such pids for made-up processes that no host process can ever hold (up to 7 digits, the width
 * of the PID column). */
#define SIM_PID_MAX 9999999

static int read_pid(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_type(struct scenario_ctx *ctx, const json_t *value, void *base);

#define PROC(member) offsetof(struct sim_process, member)

static const struct scenario_field process_fields[] = {
    {.key = "pid", .kind = FIELD_CUSTOM, .required = true, .custom = read_pid},
    {.key = "type", .kind = FIELD_CUSTOM, .required = true, .custom = read_type},
    {.key = "used_mib", .kind = FIELD_NUM, .offset = PROC(used_mib), .max = 1e8},
    {.key = "sm", .kind = FIELD_NUM, .offset = PROC(sm), .max = 100},
    {.key = "mem", .kind = FIELD_NUM, .offset = PROC(mem), .max = 100},
    {.key = "enc", .kind = FIELD_NUM, .offset = PROC(enc), .max = 100},
    {.key = "dec", .kind = FIELD_NUM, .offset = PROC(dec), .max = 100},
    {0},
};

static bool parse_pid(const char *text, unsigned int *pid) {
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!isdigit((unsigned char)text[0]) || *end != '\0' || errno != 0 || v < 1 ||
        v > SIM_PID_MAX) {
        return false;
    }
    *pid = (unsigned int)v;
    return true;
}

static bool split_placeholder(const char *text, char *buf, size_t size, const char **name,
                              const char **fallback) {
    size_t len = strlen(text);
    if (len < 4 || len >= size || strncmp(text, "${", 2) != 0 || text[len - 1] != '}') {
        return false;
    }
    memcpy(buf, text + 2, len - 3);
    buf[len - 3] = '\0';
    *fallback = NULL;
    char *sep = strstr(buf, ":-");
    if (sep != NULL) {
        *sep = '\0';
        *fallback = sep + 2;
    }
    *name = buf;
    if (!(isalpha((unsigned char)buf[0]) || buf[0] == '_')) {
        return false;
    }
    for (const char *p = buf; *p != '\0'; p++) {
        if (!(isalnum((unsigned char)*p) || *p == '_')) {
            return false;
        }
    }
    return true;
}

int scenario_placeholder_text(struct scenario_ctx *ctx, const json_t *value, char *buf, size_t size,
                              const char *expected, const char **text, const char **origin) {
    const char *name = NULL;
    const char *fallback = NULL;
    if (!json_is_string(value) ||
        !split_placeholder(json_string_value(value), buf, size, &name, &fallback)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected %s", expected);
    }
    const char *env = getenv(name);
    *text = env != NULL && env[0] != '\0' ? env : fallback;
    *origin = *text == env ? name : "default";
    if (*text == NULL) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "environment variable %s is not set and the placeholder has no "
                             "default",
                             name);
    }
    return 0;
}

static int read_pid(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_process *proc = base;
    if (json_is_integer(value)) {
        json_int_t v = json_integer_value(value);
        if (v < 1 || v > SIM_PID_MAX) {
            return scenario_fail(ctx, SCENARIO_AT_VALUE, "pid %lld is out of range 1..%d",
                                 (long long)v, SIM_PID_MAX);
        }
        proc->pid = (unsigned int)v;
        return 0;
    }
    char buf[256];
    const char *text = NULL;
    const char *origin = NULL;
    if (scenario_placeholder_text(ctx, value, buf, sizeof(buf),
                                  "a pid or a placeholder \"${NAME}\" / \"${NAME:-default}\"",
                                  &text, &origin) != 0) {
        return -1;
    }
    if (!parse_pid(text, &proc->pid)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "%s \"%s\" is not a pid in 1..%d", origin,
                             text, SIM_PID_MAX);
    }
    return 0;
}

static int read_type(struct scenario_ctx *ctx, const json_t *value, void *base) {
    static const struct {
        const char *name;
        unsigned int types;
    } types[] = {
        {"compute", SIM_PROCESS_COMPUTE},
        {"graphics", SIM_PROCESS_GRAPHICS},
        {"compute+graphics", SIM_PROCESS_COMPUTE | SIM_PROCESS_GRAPHICS},
        {"mps", SIM_PROCESS_MPS},
    };
    struct sim_process *proc = base;
    for (size_t i = 0; json_is_string(value) && i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(types[i].name, json_string_value(value)) == 0) {
            proc->types = types[i].types;
            return 0;
        }
    }
    return scenario_fail(ctx, SCENARIO_AT_VALUE,
                         "expected \"compute\", \"graphics\", \"compute+graphics\" or \"mps\"");
}

int scenario_read_processes(struct scenario_ctx *ctx, const json_t *value,
                            struct sim_process_list *list, unsigned int gpu_instance_id,
                            unsigned int compute_instance_id) {
    int shape = scenario_read_error(ctx, value, &list->error);
    if (shape != 0) {
        return shape < 0 ? -1 : 0;
    }
    size_t n = json_array_size(value);
    if (!json_is_array(value) || n > 4096) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected an array of at most 4096 processes, null or "
                             "{\"error\": ...}");
    }
    list->items = scenario_alloc(ctx, n, sizeof(*list->items));
    if (list->items == NULL) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct sim_process *proc = &list->items[i];
        scenario_fields_init(process_fields, proc);
        proc->gpu_instance_id = gpu_instance_id;
        proc->compute_instance_id = compute_instance_id;
        list->count = i + 1;
        scenario_push_index(ctx, i);
        int rc = scenario_read_object(ctx, json_array_get(value, i), process_fields, proc);
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}
