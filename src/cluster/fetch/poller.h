/*
 * The cluster monitor's background reader: a thread that keeps every node fresh and hands copies
 * of the nodes to the UI thread, which never waits for the network.  With --hosts each node is
 * scheduled on its own (read again interval_s after its last answer, all on one curl multi
 * handle), so a slow or dead node delays nobody; with --prometheus the whole fleet is read every
 * interval_s.  Thread-safety: start, take, fd and stop from one (the UI) thread.
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_POLLER_H
#define NVITOP_SRC_CLUSTER_FETCH_POLLER_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/fetch/fetch.h"
#include "cluster/node.h"

struct poller;

/* Start reading nodes (copied; --hosts) or the Prometheus at prometheus_url (when not NULL).
 * Each node's history (node_history.h, history_step_s per slot) gets its utilization at every
 * answer; with --prometheus, one range query fills it at the first read.  The options' strings must
 * outlive the poller; its cancel member is ignored (the poller has its own).  NULL when the thread
 * cannot be started. */
struct poller *poller_start(const struct node *nodes, size_t count, const char *prometheus_url,
                            const struct fetch_options *options, double interval_s,
                            double history_step_s);

/* Readable when new results are waiting (poll it with the terminal). */
int poller_fd(const struct poller *poller);

/* When something changed since the last take: true with a malloc'd copy of every node (free()),
 * in a stable order.  A Prometheus that cannot be read is reported in error (else ""). */
bool poller_take(struct poller *poller, struct node **nodes, size_t *count, char *error,
                 size_t error_size);

/* Keep the answers of the node at address (NULL: none) for poller_take_body(), from its next
 * read on.  With --prometheus that node's series are read from Prometheus (one more query per
 * refresh, the first at once) and handed over as Prometheus text.  Returns true. */
bool poller_watch(struct poller *poller, const char *address);

/* The watched node's newest answer since the last take: true with a malloc'd NUL-terminated copy
 * (free()). */
bool poller_take_body(struct poller *poller, char **body, size_t *len);

/* Stop the thread (transfers in progress are abandoned at once) and free everything. */
void poller_stop(struct poller *poller);

#endif /* NVITOP_SRC_CLUSTER_FETCH_POLLER_H */
