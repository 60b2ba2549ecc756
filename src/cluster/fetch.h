/*
 * Reading nodes' /metrics concurrently with libcurl's multi interface: every node is fetched at
 * once, each with its own timeout, so a slow or dead node costs only its own timeout and never
 * delays the others' results.  Not thread-safe: one call at a time per node array.
 */
#ifndef NVITOP_CLUSTER_FETCH_H
#define NVITOP_CLUSTER_FETCH_H

#include <stddef.h>

#include "cluster/node.h"

struct fetch_options {
    double timeout_s;   /* per node, connection included */
    const char *cacert; /* CA bundle for HTTPS (NULL: the system's) */
    const char *cert;   /* client certificate for mTLS (PEM), or NULL */
    const char *key;    /* its private key (PEM), or NULL */
};

/* Call once per program before any fetch (curl_global_init); fetch_global_cleanup() at exit. */
void fetch_global_init(void);
void fetch_global_cleanup(void);

/*
 * Fetch and summarise every node's url.  Each node's state, reason, http_status and (on success)
 * summary, has_data and data_time are updated; a failed node keeps its last good summary with
 * has_data, so its age keeps growing.  Returns when every node has finished or timed out.
 */
void fetch_nodes(struct node *nodes, size_t count, const struct fetch_options *options);

struct strbuf;

/* One blocking GET of url (the Prometheus source's queries).  On NODE_OK *body holds the answer
 * (the caller frees it with strbuf_fini()); otherwise reason says why and *body is untouched. */
enum node_state fetch_get(const char *url, const struct fetch_options *options, struct strbuf *body,
                          char *reason, size_t size);

/* Turn a failed transfer's curl code (and, for HTTP, status) into a node state.  Exposed for
 * the Prometheus source. */
enum node_state fetch_state_of(int curl_code, long http_status);

#endif /* NVITOP_CLUSTER_FETCH_H */
