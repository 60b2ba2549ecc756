/*
 * A node's utilization over the last minutes, for the cluster table's HISTORY column: a small
 * fixed ring of time slots (NODE_HISTORY_CELLS of step_s seconds each, the newest on the right),
 * each the mean of the samples that fell in it.  A slot without a sample (the node down, not yet
 * read) is a gap, drawn as a blank, never as 0.  No I/O, no allocation; pure.
 */
#ifndef NVITOP_SRC_CLUSTER_NODE_HISTORY_H
#define NVITOP_SRC_CLUSTER_NODE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define NODE_HISTORY_CELLS 20 /* the sparkline's width in cells */

/* Zeroed: empty. */
struct node_history {
    double step_s;                      /* seconds per slot (0: empty) */
    long long slot[NODE_HISTORY_CELLS]; /* the slot (time / step_s) each entry holds */
    float sum[NODE_HISTORY_CELLS];
    unsigned short count[NODE_HISTORY_CELLS]; /* 0: no sample */
};

/* Add a sample (a percentage) taken at time t (seconds since the epoch) to the slot of t.  A NaN
 * value or time is no sample (the slot stays a gap).  A step other than the history's empties it
 * first. */
void node_history_add(struct node_history *h, double step_s, double t, double value);

/* The NODE_HISTORY_CELLS slots ending with the one of `now`, oldest first: each slot's mean, NaN
 * for a gap. */
void node_history_values(const struct node_history *h, double now, double out[NODE_HISTORY_CELLS]);

/* The sparkline of n values (percentages, NaN for gaps) in n cells: "▁▂▃▄▅▆▇█" from 0 to 100 %
 * (0 % is the lowest bar, so that an idle node shows), a blank for a gap; with ascii, "_.:-=+*#"
 * instead.  buf holds at least 3 * n + 1 bytes (it is cut otherwise). */
void node_sparkline(char *buf, size_t size, const double *values, size_t n, bool ascii);

#endif /* NVITOP_SRC_CLUSTER_NODE_HISTORY_H */
