/*
 * Why a node could not be read, in plain words with what to do: libcurl's codes and messages
 * (OpenSSL's among them: "wrong version number", a bare "Empty reply from server") turned into a
 * node state and a sentence (docs/cluster.md, "Reasons").  Pure and thread-safe.
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_REASONS_H
#define NVITOP_SRC_CLUSTER_FETCH_REASONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"

/* What a finished transfer tells: the node state and, unless NODE_OK, a reason in reason (size
 * bytes).  curl_code is a CURLcode; http_status the answer's status (0 without one); url the URL
 * read (its scheme and host:port are quoted in the advice); curl_error libcurl's error buffer
 * ("" when empty), used for the codes the table does not explain; client_cert whether a client
 * certificate was given. */
enum node_state fetch_reason(int curl_code, long http_status, const char *url,
                             const char *curl_error, double timeout_s, bool client_cert,
                             char *reason, size_t size);

#endif /* NVITOP_SRC_CLUSTER_FETCH_REASONS_H */
