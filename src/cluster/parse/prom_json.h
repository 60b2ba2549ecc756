/*
 * Reading Prometheus HTTP API answers (instant-vector query results and the target list) without
 * building a JSON tree: a strict JSON scanner that walks the answer once, decodes strings in place
 * and hands each series or target to a callback.  For 1,000 nodes an answer holds thousands of
 * small objects, and a tree of them (jansson) cost three times what the rest of a refresh did.
 * Ours, so fuzzed (fuzz_prom_json).  No I/O, no allocation; pure and thread-safe.
 */
#ifndef NVITOP_SRC_CLUSTER_PARSE_PROM_JSON_H
#define NVITOP_SRC_CLUSTER_PARSE_PROM_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/parse/promtext.h"

/* Labels kept per series or target (more are read and ignored; nvitop's series have < 16). */
#define PROM_JSON_LABELS 32

/* Points kept per series of a range query's answer (more are read and ignored; nvitop asks for
 * at most 21). */
#define PROM_JSON_POINTS 32

/* One series of a query's answer ({"metric": {...}, "value": [time, "value"]}, or, from a range
 * query, "values": [[time, "value"], ...]).  The strings point into the caller's body and live
 * as long as it. */
struct prom_json_series {
    struct prom_label labels[PROM_JSON_LABELS];
    size_t label_count;
    double time;  /* NaN when absent */
    double value; /* NaN when absent or not a number */
    size_t point_count;
    double point_time[PROM_JSON_POINTS]; /* "values", oldest first */
    double point_value[PROM_JSON_POINTS];
};

/* One active target of /api/v1/targets.  NULL for a member that is absent or not a string. */
struct prom_json_target {
    const char *instance; /* from its labels */
    const char *job;
    const char *health;
    const char *last_error;
    const char *last_scrape; /* RFC 3339 (prom_api_parse_time()) */
};

typedef void prom_json_series_fn(const struct prom_json_series *series, void *context);
typedef void prom_json_target_fn(const struct prom_json_target *target, void *context);

/*
 * Walk an /api/v1/query (or /api/v1/query_range) answer of len bytes at body (NUL-terminated at
 * body[len]; modified in place: strings are decoded where they are).  series() is called for every
 * element of data.result as it is read, so a caller must be ready to drop what it collected when
 * false is returned: the text is no JSON, or not a Prometheus success answer; err (size errlen)
 * says which, e.g. "not a Prometheus API answer (JSON: expected ':' after a key at byte 12)" or
 * "Prometheus answered an error: <its message>".
 */
bool prom_json_vector(char *body, size_t len, prom_json_series_fn *series, void *context, char *err,
                      size_t errlen);

/* The same for an /api/v1/targets answer: target() for each of data.activeTargets. */
bool prom_json_targets(char *body, size_t len, prom_json_target_fn *target, void *context,
                       char *err, size_t errlen);

/* The value of label `name` of a series, or NULL. */
const char *prom_json_label(const struct prom_json_series *series, const char *name);

#endif /* NVITOP_SRC_CLUSTER_PARSE_PROM_JSON_H */
