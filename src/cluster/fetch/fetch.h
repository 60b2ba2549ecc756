/*
 * Reading nodes' /metrics concurrently with libcurl's multi interface: every node is fetched at
 * once, each with its own timeout, so a slow or dead node costs only its own timeout and never
 * delays the others' results.  Not thread-safe: one call at a time per node array.
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_FETCH_H
#define NVITOP_SRC_CLUSTER_FETCH_FETCH_H

#include <stdatomic.h>
#include <stddef.h>

#include "cluster/node.h"

struct curl_api;
struct fetch_session;

struct fetch_options {
    double timeout_s;   /* per node, connection included */
    const char *cacert; /* CA bundle for HTTPS (NULL: the system's) */
    const char *cert;   /* client certificate for mTLS (PEM), or NULL */
    const char *key;    /* its private key (PEM), or NULL */
    /* When set and true, a fetch_get() in progress stops at once (a monitor quitting); NULL:
     * none.  Transfers on a multi handle are stopped by the loop that drives them. */
    atomic_bool *cancel;
    /* libcurl, opened by the caller (curl_api_open) for as long as any fetch may run. */
    const struct curl_api *curl;
    /* When set, fetch_get() calls made with these options, one at a time, share one curl handle
     * and so its kept-alive connection (fetch_session_new()); NULL: a new handle per call. */
    struct fetch_session *session;
};

/* A curl handle kept from one fetch_get() to the next (the Prometheus source's fifteen queries a
 * refresh on one connection, not fifteen).  Free with fetch_session_free() (NULL is ignored). */
struct fetch_session *fetch_session_new(void);
void fetch_session_free(const struct curl_api *curl, struct fetch_session *session);

/*
 * Fetch and summarise every node's url.  Each node's state, reason, http_status and (on success)
 * summary, has_data and data_time are updated; a failed node keeps its last good summary with
 * has_data, so its age keeps growing.  Returns when every node has finished or timed out.
 */
void fetch_nodes(struct node *nodes, size_t count, const struct fetch_options *options);

struct strbuf;

/*
 * One node's transfer on a caller's curl multi handle (CURLM *, as void * to keep curl out of
 * this header), for callers that schedule nodes one by one (the poller).  begin starts it (the
 * node's state becomes NODE_PENDING); after multi_loop_run() (multi_loop.h), fetch_transfer_done()
 * (given the same libcurl table as the options) returns each finished transfer, taken off the multi
 * handle, with its node updated as fetch_nodes() does, or NULL.  A finished transfer can be started
 * again with fetch_transfer_restart(): the same curl handle and body buffer, and the multi handle's
 * kept-alive connection, are reused, which is most of the cost of a small read.
 * fetch_transfer_abort() frees one, cancelling it when it is still running.
 */
struct fetch_transfer;
struct fetch_transfer *fetch_transfer_begin(void *multi, struct node *node,
                                            const struct fetch_options *options);
void fetch_transfer_restart(void *multi, struct fetch_transfer *t);
struct fetch_transfer *fetch_transfer_done(const struct curl_api *curl, void *multi);
void fetch_transfer_abort(void *multi, struct fetch_transfer *t);
/* Whether the body of the transfer's next reads is kept for fetch_transfer_body() (parsed from a
 * copy); otherwise it is parsed in its buffer, which the parse changes.  Off at the start.
 * A read whose body is not kept asks the exporter for only the series the summary reads
 * (node_summary_query(), a quarter of an answer); one whose body is kept asks for all of it.  A
 * node that answers the filtered read with bad data or an HTTP error is read again whole before
 * fetch_transfer_done() returns it, and whole from then on. */
void fetch_transfer_keep_body(struct fetch_transfer *t, bool keep);

/* The body a finished transfer received, valid until it is restarted or aborted; NULL when it was
 * not kept (fetch_transfer_keep_body()) or the read began before it was kept (a filtered one). */
const char *fetch_transfer_body(const struct fetch_transfer *t, size_t *len);

/* One blocking GET of url (the Prometheus source's queries).  On NODE_OK *body holds the answer
 * (the caller frees it with strbuf_fini()); otherwise reason says why and *body is untouched. */
enum node_state fetch_get(const char *url, const struct fetch_options *options, struct strbuf *body,
                          char *reason, size_t size);

/* Turn a failed transfer's curl code (and, for HTTP, status) into a node state.  Exposed for
 * the Prometheus source. */
enum node_state fetch_state_of(int curl_code, long http_status);

#endif /* NVITOP_SRC_CLUSTER_FETCH_FETCH_H */
