/*
 * A scrape's `name[]` filter (/metrics?name[]=gpu_utilization_Percentage&name[]=...), answered as
 * Prometheus's client libraries answer it, nvitop-exporter's among them: only the samples whose
 * name was asked for, each kept family's metadata lines (# HELP, # TYPE, # UNIT) before its first
 * kept sample, and the OpenMetrics "# EOF" where the text has one.  A name that matches nothing
 * keeps nothing.  The cluster view asks for the ten series it summarises, a quarter of a body.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_METRICS_FILTER_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_METRICS_FILTER_H

#include <stdbool.h>
#include <stddef.h>

/* At most this many distinct names are kept; more make the scrape an error (HTTP 400). */
#define METRICS_FILTER_MAX_NAMES 256

struct metrics_filter;

/* An empty filter; NULL when out of memory. */
struct metrics_filter *metrics_filter_new(void);

/* Add a name (an empty one is ignored, a repeated one kept once).  False when out of memory or
 * past METRICS_FILTER_MAX_NAMES. */
bool metrics_filter_add(struct metrics_filter *f, const char *name);

/* How many distinct names it holds: 0 means "no filter", the whole text. */
size_t metrics_filter_count(const struct metrics_filter *f);

/* The lines of text[0, len) the filter keeps, into a fresh malloc'd *out of *out_len bytes (the
 * caller frees it; NUL-terminated).  False, *out NULL, when out of memory. */
bool metrics_filter_apply(const struct metrics_filter *f, const char *text, size_t len, char **out,
                          size_t *out_len);

/* Accepts NULL. */
void metrics_filter_free(struct metrics_filter *f);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_METRICS_FILTER_H */
