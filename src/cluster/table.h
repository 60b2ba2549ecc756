/*
 * The cluster table's text (one line per node), shared by the once report and the cluster
 * screen of the monitor.  No I/O; pure.
 */
#ifndef NVITOP_CLUSTER_TABLE_H
#define NVITOP_CLUSTER_TABLE_H

#include <stddef.h>

#include "cluster/node.h"

struct table_widths {
    int node;
    int host;
};

/* Column widths that fit every node's address and host name. */
void table_widths(const struct node *nodes, size_t count, struct table_widths *out);

/* The header line ("NODE  HOST  GPUS MIG  UTIL ..."). */
void table_header(char *buf, size_t size, const struct table_widths *w);

/* A node's line: its figures when it has data, else "<state>: <reason>" after its address.
 * now: the wall clock its age is measured against. */
void table_row(char *buf, size_t size, const struct node *n, const struct table_widths *w,
               double now);

/* "<state>: <reason>" of a node that is not ok ("" when ok). */
void table_problem(char *buf, size_t size, const struct node *n);

#endif /* NVITOP_CLUSTER_TABLE_H */
