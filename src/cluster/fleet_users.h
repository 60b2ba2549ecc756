/*
 * The fleet's users (the cluster screen's 'u' view): each user's GPU memory, GPUs and nodes summed
 * over the nodes that have data, from the users each node's summary keeps (node.h: a process's
 * username or container, a dcgm-exporter pod).  No I/O; pure.
 */
#ifndef NVITOP_SRC_CLUSTER_FLEET_USERS_H
#define NVITOP_SRC_CLUSTER_FLEET_USERS_H

#include <stddef.h>

#include "cluster/node.h"

struct fleet_user {
    char name[sizeof(((struct node_user *)0)->name)];
    double gpu_memory_mib;
    unsigned long gpu_count; /* GPUs it runs on, over all nodes */
    size_t node_count;       /* nodes it runs on */
};

/* The users of the nodes with data, largest GPU memory first, then most GPUs, then by name.
 * Returns their number; *out is allocated (free() it; NULL when there is none). */
size_t fleet_users(const struct node *nodes, size_t count, struct fleet_user **out);

/* The header line ("USER  GPU MEMORY  GPUS  NODES") and a user's line, the name in name_width
 * cells (a longer name is cut, ending with '~'). */
void fleet_users_header(char *buf, size_t size, int name_width);
void fleet_user_line(char *buf, size_t size, const struct fleet_user *u, int name_width);

/* The width that fits every user's name (at least 4, at most 40). */
int fleet_users_name_width(const struct fleet_user *users, size_t count);

#endif /* NVITOP_SRC_CLUSTER_FLEET_USERS_H */
