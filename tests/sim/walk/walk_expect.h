/*
 * What a scenario file says an NVML query answers, read from the JSON with jansson on its own
 * (not with the simulator's loader), so that the walker checks the simulator against the file
 * and not against itself.  Values are taken at t = 0 (the walker freezes the clock there).
 */
#ifndef NVITOP_TESTS_SIM_WALK_WALK_EXPECT_H
#define NVITOP_TESTS_SIM_WALK_WALK_EXPECT_H

#include <jansson.h>

#include "nvml/nvml_abi.h"

/* The value at dotted `path` ("power.limit_w") inside `object`: NVML_SUCCESS and *value, or the
 * error the file gives (null or a missing key: NOT_SUPPORTED; {"error": NAME}: that error, also
 * for a whole group).  Numbers, sines and schedules are evaluated at t = 0; booleans read 0 / 1;
 * strings are looked up in `names` (NULL-terminated) and give their index. */
nvmlReturn_t walk_expect_num(const json_t *object, const char *path, const char *const *names,
                             double *value);

/* The same for a string field; *text points into the JSON document. */
nvmlReturn_t walk_expect_text(const json_t *object, const char *path, const char **text);

/* The error named NAME (as in scenario files, without NVML_ERROR_), or NVML_ERROR_UNKNOWN. */
nvmlReturn_t walk_error_named(const char *name);

/* NVML's name of a return code ("SUCCESS", "NOT_SUPPORTED", ...). */
const char *walk_error_name(nvmlReturn_t ret);

#endif /* NVITOP_TESTS_SIM_WALK_WALK_EXPECT_H */
