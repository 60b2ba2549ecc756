/*
 * nvitop's trailing messages (docs/nvitop-behaviour.md §1.6): collected during the run, printed to
 * stderr after the report with coloured "ERROR:", "WARNING:" and "HINT:" tags; any message makes
 * the exit status 1. Also the two start-up failures that end the program early (NVML missing, NVML
 * error).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_MESSAGES_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/context.h>

struct messages {
    char **items;
    size_t count;
    bool color;
};

void messages_init(struct messages *messages, bool color);
void messages_fini(struct messages *messages);

void messages_addf(struct messages *messages, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "ERROR: Invalid device index: 9." / "ERROR: Invalid device indices: [5, 7]." (sorted, unique). */
void messages_invalid_indices(struct messages *messages, const long long *indices, size_t count);

/* The "FunctionNotFound" report for NVML functions the driver lacks (none: nothing). */
void messages_add_missing_functions(struct messages *messages, const nvt_context *ctx);

/* Print every message to stderr.  Returns true when there was at least one. */
bool messages_print(const struct messages *messages);

/* The FATAL/HINT text printed when no NVML library can be loaded. */
void messages_print_nvml_not_found(bool color);

/* After messages_print_nvml_not_found: when $NVITOP_NVML_LIBRARY named the library, one line
 * naming it and why it could not be used. */
void messages_print_nvml_library_error(bool color);

/* "NVML ERROR: <message>" for a failed NVML initialisation. */
void messages_print_nvml_error(bool color, const char *message);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_MESSAGES_H */
