#include "util/ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Elements allocated at first (and the storage grows by doubling). */
#define RING_FIRST 64

bool ring_init(struct ring *ring, size_t elem_size, size_t capacity) {
    memset(ring, 0, sizeof(*ring));
    if (elem_size == 0 || capacity == 0 || capacity > SIZE_MAX / elem_size) {
        return false;
    }
    size_t first = capacity < RING_FIRST ? capacity : RING_FIRST;
    ring->data = malloc(elem_size * first);
    if (ring->data == NULL) {
        return false;
    }
    ring->elem_size = elem_size;
    ring->capacity = capacity;
    ring->allocated = first;
    return true;
}

void ring_fini(struct ring *ring) {
    free(ring->data);
    memset(ring, 0, sizeof(*ring));
}

/* Room for one more element before the ring wraps: the storage doubles (up to the capacity) while
 * the elements still start at slot 0.  Out of memory, the capacity becomes what is allocated. */
static void grow(struct ring *ring) {
    if (ring->count < ring->allocated || ring->allocated == ring->capacity) {
        return;
    }
    size_t want = ring->allocated * 2 < ring->capacity ? ring->allocated * 2 : ring->capacity;
    unsigned char *data = realloc(ring->data, want * ring->elem_size);
    if (data == NULL) {
        ring->capacity = ring->allocated;
        return;
    }
    ring->data = data;
    ring->allocated = want;
}

void ring_push(struct ring *ring, const void *elem) {
    if (ring->capacity == 0) {
        return;
    }
    grow(ring);
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
