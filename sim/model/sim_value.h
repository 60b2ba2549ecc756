/*
 * Evaluating the model's numbers at a simulated time.  Pure functions: thread-safe, no
 * allocation, no system calls.
 */
#ifndef NVITOP_SIM_MODEL_SIM_VALUE_H
#define NVITOP_SIM_MODEL_SIM_VALUE_H

#include "model/sim_model.h"

/* The value of `num` at time `t_s` (seconds since the scenario was loaded), clamped to the
 * field's range.  The caller checks num->error first. */
double sim_value_at(const struct sim_num *num, double t_s);

/* The integral of `num` over [0, t_s] (a cumulative counter fed at the rate `num`). */
double sim_value_integral(const struct sim_num *num, double t_s);

/* Stores the rounded value of `num` at `t_s` in *out and returns NVML_SUCCESS, or returns the
 * field's error and leaves *out alone. */
nvmlReturn_t sim_value_uint(const struct sim_num *num, double t_s, unsigned int *out);

/* The same for a 64-bit field measured in MiB, stored in bytes. */
nvmlReturn_t sim_value_mib_bytes(const struct sim_num *num, double t_s, unsigned long long *out);

/* Copies `text` with its NUL into buf: INVALID_ARGUMENT for a NULL buffer, INSUFFICIENT_SIZE
 * when it does not fit in `length` bytes (NVML's rule for every string query). */
nvmlReturn_t sim_copy_string(const char *text, char *buf, unsigned int length);

/* The same for a text field, which may carry an injected error instead. */
nvmlReturn_t sim_copy_text(const struct sim_text *text, char *buf, unsigned int length);

#endif /* NVITOP_SIM_MODEL_SIM_VALUE_H */
