/*
 * The subset of Jansson's API that the scenario loader (sim/scenario/) uses, for builds where
 * Jansson itself is not available: Debian has no mingw-w64 build of it, so the Windows
 * cross-build of the simulated driver (docs/windows.md) compiles json_lite.c instead.  Names and
 * semantics follow Jansson's documentation for what is declared here; anything else is absent, so
 * a loader change that needs more fails to compile rather than behaving differently.
 *
 * Values are reference-counted and immutable once parsed, except json_object_del() on a copy.
 * Nothing here is thread-safe beyond what Jansson promises (distinct values are independent).
 */
#ifndef NVITOP_SIM_JANSSON_LITE_JANSSON_H
#define NVITOP_SIM_JANSSON_LITE_JANSSON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef long long json_int_t;

typedef enum {
    JSON_OBJECT,
    JSON_ARRAY,
    JSON_STRING,
    JSON_INTEGER,
    JSON_REAL,
    JSON_TRUE,
    JSON_FALSE,
    JSON_NULL
} json_type;

typedef struct json_t json_t;

#define JSON_ERROR_TEXT_LENGTH 160

typedef struct json_error_t {
    int line;   /* 1-based */
    int column; /* 1-based, in bytes */
    int position;
    char text[JSON_ERROR_TEXT_LENGTH];
} json_error_t;

/* Duplicate keys in an object are an error (the only flag the loader passes). */
#define JSON_REJECT_DUPLICATES 0x1

/* Parse buflen bytes holding one JSON object or array (nothing but white space after it).  NULL
 * with *error filled on bad input or exhausted memory. */
json_t *json_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error);

void json_decref(json_t *json);
json_type json_typeof(const json_t *json);

#define json_is_object(j)  ((j) != NULL && json_typeof(j) == JSON_OBJECT)
#define json_is_array(j)   ((j) != NULL && json_typeof(j) == JSON_ARRAY)
#define json_is_string(j)  ((j) != NULL && json_typeof(j) == JSON_STRING)
#define json_is_integer(j) ((j) != NULL && json_typeof(j) == JSON_INTEGER)
#define json_is_real(j)    ((j) != NULL && json_typeof(j) == JSON_REAL)
#define json_is_number(j)  (json_is_integer(j) || json_is_real(j))
#define json_is_true(j)    ((j) != NULL && json_typeof(j) == JSON_TRUE)
#define json_is_false(j)   ((j) != NULL && json_typeof(j) == JSON_FALSE)
#define json_is_boolean(j) (json_is_true(j) || json_is_false(j))
#define json_is_null(j)    ((j) != NULL && json_typeof(j) == JSON_NULL)

/* NULL, 0 or 0.0 when the value is not of the type asked. */
const char *json_string_value(const json_t *json);
size_t json_string_length(const json_t *json);
json_int_t json_integer_value(const json_t *json);
double json_number_value(const json_t *json);

size_t json_array_size(const json_t *array);
json_t *json_array_get(const json_t *array, size_t index); /* borrowed */

size_t json_object_size(const json_t *object);
json_t *json_object_get(const json_t *object, const char *key); /* borrowed */
int json_object_del(json_t *object, const char *key);           /* 0, or -1 when absent */

/* A shallow copy (members shared, their reference counts raised); NULL without memory. */
json_t *json_copy(json_t *json);

/* The i-th member of an object, in file order (the iteration behind json_object_foreach). */
const char *json_lite_object_key(const json_t *object, size_t index);
json_t *json_lite_object_value(const json_t *object, size_t index);

#define JSON_LITE_CAT2(a, b) a##b
#define JSON_LITE_CAT(a, b)  JSON_LITE_CAT2(a, b)
#define json_object_foreach(object, key, value)                                                    \
    for (size_t JSON_LITE_CAT(json_lite_i_, __LINE__) = 0;                                         \
         JSON_LITE_CAT(json_lite_i_, __LINE__) < json_object_size(object) &&                       \
         ((key) = json_lite_object_key(object, JSON_LITE_CAT(json_lite_i_, __LINE__)),             \
         (value) = json_lite_object_value(object, JSON_LITE_CAT(json_lite_i_, __LINE__)),          \
         (value) != NULL);                                                                         \
         JSON_LITE_CAT(json_lite_i_, __LINE__)++)

#endif /* NVITOP_SIM_JANSSON_LITE_JANSSON_H */
