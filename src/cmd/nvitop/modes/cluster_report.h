/*
 * nvitop -1 --hosts / --prometheus: the cluster summary table (one line per node, unreachable
 * nodes with their reason) and its JSON form (docs/cluster.md).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_REPORT_H
#define NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cluster/group.h"
#include "cluster/node.h"

/* The version of the cluster JSON document; bumped only when a key is removed, renamed or
 * changes meaning (adding keys keeps it). */
#define CLUSTER_JSON_SCHEMA_VERSION 1

/* What the nodes were read from, for the JSON document. */
struct cluster_source_info {
    const char *kind; /* "hosts" or "prometheus" */
    const char *url;  /* the Prometheus URL, or NULL */
};

/* The settings file's [cluster] choices (docs/cluster.md, "Settings"). */
struct cluster_table_options {
    unsigned columns;                     /* enum table_column bits */
    const struct node_grouping *grouping; /* NULL: no GROUP column */
    bool history_named;                   /* columns lists history (-1 shows it only then) */
    double history_step_s;                /* seconds per HISTORY cell */
    bool ascii;                           /* HISTORY in ASCII characters (--ascii) */
};

/* The table; now is the wall clock the ages are measured against. */
void cluster_print_table(FILE *out, const struct node *nodes, size_t count, double now,
                         const struct cluster_table_options *options);

/* The JSON document (each node's history over history_step_s slots); false when writing
 * failed. */
bool cluster_print_json(FILE *out, const struct node *nodes, size_t count, double now,
                        const struct cluster_source_info *source, double history_step_s);

#endif /* NVITOP_SRC_CMD_NVITOP_MODES_CLUSTER_REPORT_H */
