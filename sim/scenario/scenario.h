/*
 * Loading scenario files (JSON) into a model.  See docs/scenarios.md for the format.
 */
#ifndef NVITOP_SIM_SCENARIO_SCENARIO_H
#define NVITOP_SIM_SCENARIO_SCENARIO_H

#include <stddef.h>

#include "model/sim_model.h"

/*
 * Parses `length` bytes of `text` into a new model.  `name` is used in messages only.  On
 * success returns NVML_SUCCESS and stores the model in *out (the caller frees it with
 * sim_model_free).  On a malformed document returns NVML_ERROR_UNKNOWN and stores in *message
 * one line "<name>:<line>:<column>: <message>" (the caller frees it); on allocation failure
 * returns NVML_ERROR_MEMORY with *message NULL.  Reads the environment for pid placeholders.
 * Thread-safe (jansson is re-entrant; no shared state).
 */
nvmlReturn_t scenario_parse(const char *name, const char *text, size_t length,
                            struct sim_model **out, char **message);

/* Reads the file at `path` and parses it like scenario_parse; an unreadable file is reported as
 * "<path>: <strerror>" with NVML_ERROR_UNKNOWN. */
nvmlReturn_t scenario_load(const char *path, struct sim_model **out, char **message);

#endif /* NVITOP_SIM_SCENARIO_SCENARIO_H */
