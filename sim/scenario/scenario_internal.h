/*
 * Shared by the scenario loader's files (scenario_*.c): the parse context that tracks where in
 * the document the loader is, so that every semantic error can name the offending value's line
 * and column, and the table-driven object reader.
 */
#ifndef NVITOP_SIM_SCENARIO_SCENARIO_INTERNAL_H
#define NVITOP_SIM_SCENARIO_SCENARIO_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/sim_errors.h"
#include "model/sim_model.h"

#define SCENARIO_MAX_DEPTH 16

/* One step of a JSON path: an object key or an array index. */
struct scenario_segment {
    const char *key; /* NULL for an array index */
    size_t index;
};

struct scenario_path {
    size_t depth;
    struct scenario_segment segments[SCENARIO_MAX_DEPTH];
};

struct scenario_ctx {
    const char *name; /* the file name used in messages */
    const char *text;
    size_t length;
    struct scenario_path path;
    struct sim_model *model; /* being built; owns what scenario_alloc returns */
    char *message;           /* the first error, "<file>:<line>:<column>: <message>"; owned */
    bool out_of_memory;
};

/* Where an error points: at the value of the current path, or at its last key. */
enum scenario_target {
    SCENARIO_AT_VALUE,
    SCENARIO_AT_KEY
};

void scenario_push_key(struct scenario_ctx *ctx, const char *key);
void scenario_push_index(struct scenario_ctx *ctx, size_t index);
void scenario_pop(struct scenario_ctx *ctx);

/* Records the first error (later ones are dropped: the first is the one the user fixes) and
 * returns -1, so callers can `return scenario_fail(...)`. */
int scenario_fail(struct scenario_ctx *ctx, enum scenario_target target, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The text a placeholder value "${NAME}" / "${NAME:-default}" stands for: the environment
 * variable NAME when set and not empty, else the default.  *origin is NAME or "default", for
 * messages about the text.  `buf` holds the copies the pointers point into.  A value of another
 * shape fails with "expected <expected>"; a variable not set without a default fails too.
 * Returns 0 or -1.  In scenario_process.c (pids were the first placeholders). */
int scenario_placeholder_text(struct scenario_ctx *ctx, const json_t *value, char *buf, size_t size,
                              const char *expected, const char **text, const char **origin);

/* Records an allocation failure and returns -1. */
int scenario_no_memory(struct scenario_ctx *ctx);

/*
 * Finds the line and column (both 1-based, columns in characters) of the value at `path` in
 * `text`, or of its last key when `want_key` is set.  The text must be valid JSON (jansson has
 * accepted it).  Returns false when the path does not lead anywhere; then *line and *column point
 * at the start of the document.  Pure function, thread-safe.
 */
bool scenario_locate(const char *text, size_t length, const struct scenario_path *path,
                     bool want_key, unsigned int *line, unsigned int *column);

/* How a field of the table-driven reader is written in the file. */
enum scenario_field_kind {
    FIELD_NUM,    /* number, sine or schedule */
    FIELD_ID,     /* number or "0x..." string (PCI ids) */
    FIELD_BOOL,   /* true / false, stored as 1 / 0 */
    FIELD_ENUM,   /* one of `names`, stored as its index */
    FIELD_TEXT,   /* string of at most `max` bytes */
    FIELD_GROUP,  /* an object read with `fields`; null / {"error"} sets all of them */
    FIELD_CUSTOM, /* read by `custom` */
};

struct scenario_field {
    const char *key;
    enum scenario_field_kind kind;
    size_t offset; /* of the sim_num / sim_text / target inside the object's struct */
    double min;    /* FIELD_NUM, FIELD_ID */
    double max;    /* FIELD_NUM, FIELD_ID; FIELD_TEXT: longest length in bytes */
    bool required;
    const char *const *names;            /* FIELD_ENUM: NULL-terminated */
    const struct scenario_field *fields; /* FIELD_GROUP: terminated by a NULL key */
    bool has_group_error;                /* FIELD_GROUP: `error_offset` names its error word */
    size_t error_offset;
    int (*custom)(struct scenario_ctx *ctx, const json_t *value, void *base);
};

/* Gives every field of `fields` (recursively) its range and the "not supported" default. */
void scenario_fields_init(const struct scenario_field *fields, void *base);

/* Reads `object` into `base` with the table: unknown keys, missing required keys, wrong types and
 * out-of-range values are errors.  Returns 0 or -1. */
int scenario_read_object(struct scenario_ctx *ctx, const json_t *object,
                         const struct scenario_field *fields, void *base);

/* Reads one number field (number, null, {"error": ...}, sine or schedule).  Returns 0 or -1. */
int scenario_read_num(struct scenario_ctx *ctx, const json_t *value, struct sim_num *num);

/* Reads `{"error": "NAME"}` or null into *error when `value` has that shape.  Returns 1 when it
 * did, 0 when `value` is something else, -1 on a bad error name. */
int scenario_read_error(struct scenario_ctx *ctx, const json_t *value, nvmlReturn_t *error);

/* Allocates `count` zeroed elements owned by the model (freed with it); records an allocation
 * failure and returns NULL. */
void *scenario_alloc(struct scenario_ctx *ctx, size_t count, size_t size);

/* Duplicates a string into the model, like scenario_alloc. */
char *scenario_strdup(struct scenario_ctx *ctx, const char *text);

/* jansson's iteration and copy functions take non-const values although they do not modify
 * them; this is the one place that drops the qualifier for them. */
json_t *scenario_unconst(const json_t *value);

/* Reads the "devices" array (scenario_device.c). */
int scenario_read_devices(struct scenario_ctx *ctx, const json_t *devices, struct sim_model *model);

/* Reads a "processes" value into `list` (scenario_process.c); processes get the given MIG ids. */
int scenario_read_processes(struct scenario_ctx *ctx, const json_t *value,
                            struct sim_process_list *list, unsigned int gpu_instance_id,
                            unsigned int compute_instance_id);

/* Reads a device's "mig" object (scenario_mig.c). */
int scenario_read_mig(struct scenario_ctx *ctx, const json_t *value, void *device);

/* Reads the top-level "call_latency" object into the model (scenario_latency.c). */
int scenario_read_latency(struct scenario_ctx *ctx, const json_t *value, void *base);

/* The same two for any table indexed by call id (a device's "call_latency", "call_errors"). */
int scenario_read_latency_table(struct scenario_ctx *ctx, const json_t *value, double *latency);
int scenario_read_call_error_table(struct scenario_ctx *ctx, const json_t *value,
                                   nvmlReturn_t *errors);

/* Reads the top-level "call_errors" object into the model (scenario_call_errors.c). */
int scenario_read_call_errors(struct scenario_ctx *ctx, const json_t *value, void *base);

#endif /* NVITOP_SIM_SCENARIO_SCENARIO_INTERNAL_H */
