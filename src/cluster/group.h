/*
 * Rows grouped by a pattern over the node name (the settings file's [cluster] group,
 * docs/cluster.md "Settings"): an extended regular expression matched against a node's address,
 * else its host name; the group is the text of its first parenthesised part (the whole match when
 * it has none).  Perl's \d, \w and \s are accepted (as [0-9], [[:alnum:]_] and [[:space:]]).
 * No I/O.
 */
#ifndef NVITOP_SRC_CLUSTER_GROUP_H
#define NVITOP_SRC_CLUSTER_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node.h"

struct node_grouping;

/* Compile pattern; NULL with the reason in err when it is no valid expression. */
struct node_grouping *node_grouping_new(const char *pattern, char *err, size_t size);

void node_grouping_free(struct node_grouping *g);

/* The group of a node into buf ("" when the pattern matches neither its address nor its host). */
void node_grouping_of(const struct node_grouping *g, const struct node *n, char *buf, size_t size);

/* Reorder order[0..count) (indices into nodes) by group, groups by name and nodes without a group
 * last, keeping the order within a group. */
void node_grouping_sort(const struct node_grouping *g, const struct node *nodes, size_t *order,
                        size_t count);

/* The GROUP column's width: its title's, or the longest group's (at most 24 cells). */
int node_grouping_width(const struct node_grouping *g, const struct node *nodes, size_t count);

/* The GROUP cell of a node, in width cells ("-" without a group), and two blanks: what goes
 * before its table line.  buf holds TABLE_CELL_MAX. */
void node_grouping_cell(const struct node_grouping *g, const struct node *n, int width, char *buf,
                        size_t size);

#endif /* NVITOP_SRC_CLUSTER_GROUP_H */
