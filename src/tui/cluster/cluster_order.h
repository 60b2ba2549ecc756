/*
 * The cluster screen's node order and filter: which nodes are listed, and in what order.  The
 * sort keys are nvitop's (',' '.' step through the orders, '/' reverses, 'o' + a letter picks
 * one: lower case in its default direction, upper case the other way); the filter is a text
 * matched, without regard to case, against each node's address, host name and top users.
 * Pure; UI thread only.
 */
#ifndef NVITOP_SRC_TUI_CLUSTER_CLUSTER_ORDER_H
#define NVITOP_SRC_TUI_CLUSTER_CLUSTER_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"

enum cluster_order {
    CLUSTER_ORDER_NATURAL, /* as given (--hosts) or by instance (--prometheus) */
    CLUSTER_ORDER_HOST,
    CLUSTER_ORDER_UTIL,
    CLUSTER_ORDER_MEMORY,
    CLUSTER_ORDER_POWER,
    CLUSTER_ORDER_TEMP,
    CLUSTER_ORDER_PROCS,
    CLUSTER_ORDER_STATE,
    CLUSTER_ORDER_COUNT
};

#define CLUSTER_FILTER_MAX 64

struct cluster_arrangement {
    enum cluster_order order;
    bool reverse;                    /* against the order's default direction */
    char filter[CLUSTER_FILTER_MAX]; /* "" : every node */
};

/* "natural", "host", "utilization", ... */
const char *cluster_order_name(enum cluster_order order);

/* The order of letter (the key after 'o'): n h u g w t p s; upper case sets *reverse.  False for
 * any other key. */
bool cluster_order_of_letter(int letter, enum cluster_order *order, bool *reverse);

/* Whether node n passes filter ("" passes every node). */
bool cluster_node_matches(const struct node *n, const char *filter);

/* A key typed into filter (size bytes) while *editing: printable characters are added,
 * Backspace removes the last, Ctrl-U empties it, Enter ends the editing, Esc (or Ctrl-C) ends it
 * and empties the filter.  Returns whether the filter changed or the editing ended. */
bool cluster_filter_key(char *filter, size_t size, int key, bool *editing);

/* Fill shown with the indices of the nodes that pass a's filter, in a's order (ties keep the
 * nodes' order); returns how many.  shown has room for count entries. */
size_t cluster_arrange(const struct node *nodes, size_t count, const struct cluster_arrangement *a,
                       size_t *shown);

#endif /* NVITOP_SRC_TUI_CLUSTER_CLUSTER_ORDER_H */
