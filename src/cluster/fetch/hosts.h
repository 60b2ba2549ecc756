/*
 * The --hosts list: "h1:8000,h2:8000" or "@FILE" (one host a line, '#' comments, blank lines
 * ignored), each a host:port or a full http(s):// URL, turned into nodes with their /metrics URL.
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_HOSTS_H
#define NVITOP_SRC_CLUSTER_FETCH_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"

/* Parse spec into *nodes (calloc'd, *count entries; free()).  A bare host:port is read as
 * http://host:port/metrics, host:port/path as http://host:port/path; TLS nodes are written
 * https://.  Returns false with a message in err. */
bool hosts_parse(const char *spec, struct node **nodes, size_t *count, char *err, size_t errlen);

#endif /* NVITOP_SRC_CLUSTER_FETCH_HOSTS_H */
