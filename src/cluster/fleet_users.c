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

size_t fleet_users(const struct node *nodes, size_t count, struct fleet_user **out) {
    size_t n = 0, cap = 0;
    struct fleet_user *users = NULL;
    for (size_t i = 0; i < count; i++) {
        const struct node_summary *s = &nodes[i].summary;
        for (size_t k = 0; nodes[i].has_data && k < s->user_count; k++) {
            const struct node_user *u = &s->users[k];
            size_t j = 0;
            while (j < n && strcmp(users[j].name, u->name) != 0) {
                j++;
            }
            if (j == n) {
                if (n == cap) {
                    cap = cap != 0 ? cap * 2 : 16;
                    users = xrealloc(users, cap * sizeof *users);
                }
                memset(&users[n], 0, sizeof users[n]);
                str_copy(users[n].name, sizeof users[n].name, u->name);
                n++;
            }
            users[j].gpu_memory_mib += u->gpu_memory_mib;
            users[j].gpu_count += u->gpu_count;
            users[j].node_count++;
        }
    }
    if (n > 0) {
        qsort(users, n, sizeof *users, by_memory);
    }
    *out = users;
    return n;
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
