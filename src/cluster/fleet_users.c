/* The fleet's users (fleet_users.h). */
#include "cluster/fleet_users.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/str.h"
#include "util/xalloc.h"

static int by_memory(const void *a, const void *b) {
    const struct fleet_user *x = a, *y = b;
    if (x->gpu_memory_mib != y->gpu_memory_mib) {
        return x->gpu_memory_mib < y->gpu_memory_mib ? 1 : -1;
    }
    if (x->gpu_count != y->gpu_count) {
        return x->gpu_count < y->gpu_count ? 1 : -1;
    }
    return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const struct fleet_user *)a)->name, ((const struct fleet_user *)b)->name);
}

/* Every node's users, sorted by name and merged (linear after the sort, whatever the fleet). */
size_t fleet_users(const struct node *nodes, size_t count, struct fleet_user **out) {
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        n += nodes[i].has_data ? nodes[i].summary.user_count : 0;
    }
    *out = NULL;
    if (n == 0) {
        return 0;
    }
    struct fleet_user *all = xcalloc(n, sizeof *all);
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        const struct node_summary *s = &nodes[i].summary;
        for (size_t u = 0; nodes[i].has_data && u < s->user_count; u++) {
            str_copy(all[k].name, sizeof all[k].name, s->users[u].name);
            all[k].gpu_memory_mib = s->users[u].gpu_memory_mib;
            all[k].gpu_count = s->users[u].gpu_count;
            all[k++].node_count = 1; /* a node lists a user once */
        }
    }
    qsort(all, n, sizeof *all, by_name);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        if (merged > 0 && strcmp(all[merged - 1].name, all[i].name) == 0) {
            all[merged - 1].gpu_memory_mib += all[i].gpu_memory_mib;
            all[merged - 1].gpu_count += all[i].gpu_count;
            all[merged - 1].node_count++;
        } else {
            if (merged != i) {
                all[merged] = all[i];
            }
            merged++;
        }
    }
    qsort(all, merged, sizeof *all, by_memory);
    *out = all;
    return merged;
}

#define NAME_MIN 4
#define NAME_MAX 40

int fleet_users_name_width(const struct fleet_user *users, size_t count) {
    size_t w = NAME_MIN;
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(users[i].name);
        w = len > w ? len : w;
    }
    return w > NAME_MAX ? NAME_MAX : (int)w;
}

void fleet_users_header(char *buf, size_t size, int name_width) {
    snprintf(buf, size, "%-*s  %10s  %5s  %5s", name_width, "USER", "GPU MEMORY", "GPUS", "NODES");
}

void fleet_user_line(char *buf, size_t size, const struct fleet_user *u, int name_width) {
    char name[NAME_MAX + 1];
    str_copy(name, sizeof name, u->name);
    if (name_width > 0 && name_width <= NAME_MAX && strlen(name) > (size_t)name_width) {
        name[name_width - 1] = '~';
        name[name_width] = '\0';
    }
    char memory[32];
    snprintf(memory, sizeof memory, "%.1fGiB", u->gpu_memory_mib / 1024.0);
    snprintf(buf, size, "%-*s  %10s  %5lu  %5zu", name_width, name, memory, u->gpu_count,
             u->node_count);
}
