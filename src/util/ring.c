#include "util/ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool ring_init(struct ring *ring, size_t elem_size, size_t capacity) {
    memset(ring, 0, sizeof(*ring));
    if (elem_size == 0 || capacity == 0 || capacity > SIZE_MAX / elem_size) {
        return false;
    }
    ring->data = malloc(elem_size * capacity);
    if (ring->data == NULL) {
        return false;
    }
    ring->elem_size = elem_size;
    ring->capacity = capacity;
    return true;
}

void ring_fini(struct ring *ring) {
    free(ring->data);
    memset(ring, 0, sizeof(*ring));
}

void ring_push(struct ring *ring, const void *elem) {
    if (ring->capacity == 0) {
        return;
    }
    size_t slot;
    if (ring->count < ring->capacity) {
        slot = (ring->head + ring->count) % ring->capacity;
        ring->count++;
    } else {
        slot = ring->head;
        ring->head = (ring->head + 1) % ring->capacity;
    }
    memcpy(ring->data + slot * ring->elem_size, elem, ring->elem_size);
}

const void *ring_at(const struct ring *ring, size_t i) {
    if (i >= ring->count) {
        return NULL;
    }
    size_t slot = (ring->head + i) % ring->capacity;
    return ring->data + slot * ring->elem_size;
}

const void *ring_newest(const struct ring *ring) {
    return ring->count == 0 ? NULL : ring_at(ring, ring->count - 1);
}

void ring_clear(struct ring *ring) {
    ring->head = 0;
    ring->count = 0;
}
