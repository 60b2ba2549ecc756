/*
 * One node's series read from Prometheus, for the cluster screen's node view with --prometheus:
 * every nvitop-exporter series of the target whose instance label is `instance`, in one query,
 * written back as Prometheus text (what the exporter served at its last scrape), so that
 * remote_snapshot_build() draws it as it draws a node read directly.  Not thread-safe: one call
 * at a time.
 */
#ifndef NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_NODE_H
#define NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/fetch/fetch.h"

/* The PromQL selector of instance's series (its value quoted and escaped). */
void prom_node_query(const char *instance, char *buf, size_t size);

/* Read instance's series from the Prometheus at base_url.  On success *text is a malloc'd,
 * NUL-terminated Prometheus text body of *len bytes (free()); empty when Prometheus has no series
 * of that target.  False with the reason in err. */
bool prom_node_read(const char *base_url, const struct fetch_options *options, const char *instance,
                    char **text, size_t *len, char *err, size_t errlen);

#endif /* NVITOP_SRC_CLUSTER_PROMETHEUS_PROM_NODE_H */
