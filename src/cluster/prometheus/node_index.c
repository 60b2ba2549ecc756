/* The nodes of one Prometheus reading by address (node_index.h). */
#include "cluster/prometheus/node_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* FNV-1a over the address. */
static uint64_t hash_of(const char *text) {
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        h = (h ^ *p) * UINT64_C(1099511628211);
    }
    return h;
}

void node_index_build(struct node_index *index, const struct node *nodes, size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count) {
        capacity *= 2;
    }
    index->slots = xcalloc(capacity, sizeof(*index->slots));
    index->capacity = capacity;
    for (size_t i = 0; i < count; i++) {
        size_t at = (size_t)hash_of(nodes[i].address) & (capacity - 1);
        while (index->slots[at] != 0) {
            if (strcmp(nodes[index->slots[at] - 1].address, nodes[i].address) == 0) {
                break; /* a duplicate: the first stays */
            }
            at = (at + 1) & (capacity - 1);
        }
        if (index->slots[at] == 0) {
            index->slots[at] = i + 1;
        }
    }
}

struct node *node_index_find(const struct node_index *index, struct node *nodes,
                             const char *address) {
    if (index->capacity == 0) {
        return NULL;
    }
    for (size_t at = (size_t)hash_of(address) & (index->capacity - 1); index->slots[at] != 0;
         at = (at + 1) & (index->capacity - 1)) {
        struct node *n = &nodes[index->slots[at] - 1];
        if (strcmp(n->address, address) == 0) {
            return n;
        }
    }
    return NULL;
}

void node_index_fini(struct node_index *index) {
    free(index->slots);
    index->slots = NULL;
    index->capacity = 0;
}
