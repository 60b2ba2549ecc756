/*
 * The Prometheus source: every node's summary read from a Prometheus server through its HTTP API
 * in fifteen requests per refresh, whatever the number of nodes: one instant query per figure,
 * aggregated by Prometheus to one series per node, and the list of scrape targets (health, last
 * error, last scrape time).  Not thread-safe: one call at a time.
 */
#ifndef NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_API_H
#define NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_API_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/fetch/fetch.h"
#include "cluster/node.h"

/*
 * Read the fleet from the Prometheus server at base_url ("http://host:9090", maybe with a path
 * prefix).  Nodes are scrape targets, named by their instance label, sorted by it: those of jobs
 * that have nvitop-exporter metrics, plus every target whose last scrape failed (state
 * NODE_DOWN, reason Prometheus's error).  On success *nodes is calloc'd (*count entries; free());
 * false with a message in err when Prometheus itself cannot be read or answers nonsense.
 */
bool prom_api_read(const char *base_url, const struct fetch_options *options, struct node **nodes,
                   size_t *count, char *err, size_t errlen);

/*
 * Fill the nodes' history (sorted by address, as prom_api_read() gives them) with one range query
 * of the UTIL figure (GET /api/v1/query_range): NODE_HISTORY_CELLS points step_s apart, in the
 * middle of the history's slots, the last not after now.  A node Prometheus has no series of keeps
 * its history.  False with a message in err.
 */
bool prom_api_history(const char *base_url, const struct fetch_options *options, struct node *nodes,
                      size_t count, double step_s, double now, char *err, size_t errlen);

struct strbuf;

/* GET base_url + path (+ query, URL-escaped, when not NULL) into body (the caller's, empty; it
 * frees it with strbuf_fini()); on success body->data is NUL-terminated and writable.  False
 * with "<state>: <reason>" in err. */
bool prom_api_get(const char *base_url, const char *path, const char *query,
                  const struct fetch_options *options, struct strbuf *body, char *err,
                  size_t errlen);

/* Seconds since the epoch of an RFC 3339 time as Prometheus writes it ("2026-11-23T16:10:29.5Z",
 * "...+01:00"); NaN when malformed.  Pure. */
double prom_api_parse_time(const char *text);

#endif /* NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_API_H */
