/*
 * The nodes of one Prometheus reading found by their instance label: an open-addressing hash of
 * the addresses, built once the GPU-count answer has listed the nodes, so that each series of the
 * other answers (some 35,000 a refresh at 1,000 nodes: 16 users a node in one of them) costs a
 * hash and one string comparison instead of a binary search's ten.  Program code (xalloc).
 */
#ifndef NVITOP_SRC_CLUSTER_PROMETHEUS_NODE_INDEX_H
#define NVITOP_SRC_CLUSTER_PROMETHEUS_NODE_INDEX_H

#include <stddef.h>

#include "cluster/node.h"

struct node_index {
    size_t *slots;   /* index + 1 into the nodes; 0: empty */
    size_t capacity; /* a power of two, at least twice the nodes */
};

/* Index count nodes (their address; the array must not move while the index is used).  Of nodes
 * with the same address, the first is found. */
void node_index_build(struct node_index *index, const struct node *nodes, size_t count);

/* The node whose address is address, or NULL. */
struct node *node_index_find(const struct node_index *index, struct node *nodes,
                             const char *address);

void node_index_fini(struct node_index *index);

#endif /* NVITOP_SRC_CLUSTER_PROMETHEUS_NODE_INDEX_H */
