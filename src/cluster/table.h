/*
 * The cluster table's text (one line per node), shared by the once report and the cluster
 * screen of the monitor.  No I/O; pure.
 */
#ifndef NVITOP_SRC_CLUSTER_TABLE_H
#define NVITOP_SRC_CLUSTER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"

/* The columns after NODE, in their order (the settings file's [cluster] columns, docs/cluster.md).
 */
enum table_column {
    TABLE_COL_HOST,
    TABLE_COL_GPUS,
    TABLE_COL_MIG,
    TABLE_COL_UTIL,
    TABLE_COL_MAX,
    TABLE_COL_MEMORY,
    TABLE_COL_POWER,
    TABLE_COL_TEMP,
    TABLE_COL_PROCS,
    TABLE_COL_AGE,
    TABLE_COL_HEALTH,
    TABLE_COL_HISTORY, /* a sparkline of the node's history (node_history.h) */
    TABLE_COL_USERS,
    TABLE_COL_COUNT
};
#define TABLE_COLUMNS_ALL ((1u << TABLE_COL_COUNT) - 1)

struct table_widths {
    int node; /* cells */
    int host;
    int health;     /* HEALTH: "ok" or the flags (node_flags_text()), at least 6 */
    unsigned shown; /* the columns shown: bit (1u << enum table_column) */
    bool ascii;     /* HISTORY in ASCII characters (the caller sets it) */
};

/* Room for a NODE or HOST cell (an address is at most 255 bytes, a cut one ends with '~'). */
#define TABLE_CELL_MAX 1024

/* Column widths that fit every node's address and host name, or, with columns > 0, that make
 * every figure up to AGE fit in that many columns (HISTORY is left out first, when NODE and HOST
 * would not fit whole beside it; then NODE and HOST are cut, down to 8 cells each; a cut text
 * ends with '~').  columns 0: no limit. */
void table_widths(const struct node *nodes, size_t count, size_t columns, struct table_widths *out);

/* As table_widths(), for the columns in shown (TABLE_COLUMNS_ALL: every one). */
void table_widths_shown(const struct node *nodes, size_t count, size_t columns, unsigned shown,
                        struct table_widths *out);

/* text in exactly width cells (buf holds TABLE_CELL_MAX): cut with "~" when longer (never inside
 * a character), padded with spaces when shorter. */
void table_cell(char *buf, size_t size, const char *text, int width);

/* When two nodes with data report the same hostname (a machine listed twice, or a copied
 * --hostname): true, with a sentence naming them in buf. */
bool table_same_host(const struct node *nodes, size_t count, char *buf, size_t size);

/* The header line ("NODE  HOST  GPUS MIG  UTIL ..."). */
void table_header(char *buf, size_t size, const struct table_widths *w);

/* A node's line: its figures when it has data, else "<state>: <reason>" after its address.
 * now: the wall clock its age and its HISTORY's last slot are measured against. */
void table_row(char *buf, size_t size, const struct node *n, const struct table_widths *w,
               double now);

/* The fleet's totals: over the nodes that are up (state ok), their GPUs, idle GPUs
 * (node_summary.idle_count), free memory (total - used) and power; NaN when no node reported. */
struct table_totals {
    size_t nodes, nodes_up;
    unsigned long gpus, gpus_idle;
    double memory_free_mib;
    double power_w;
};
void table_totals(const struct node *nodes, size_t count, struct table_totals *out);

/* "TOTAL  3/4 nodes up  14 GPUs  6 idle  317.3GiB free  5678W". */
void table_total_line(char *buf, size_t size, const struct table_totals *t);

/* "<state>: <reason>" of a node that is not ok ("" when ok). */
void table_problem(char *buf, size_t size, const struct node *n);

#endif /* NVITOP_SRC_CLUSTER_TABLE_H */
