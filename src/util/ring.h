/*
 * A fixed-capacity ring buffer of equally sized elements (history of a metric).  Pushing onto a
 * full ring drops the oldest element.  Not thread-safe: guard it with the owner's lock.
 */
#ifndef NVITOP_SRC_UTIL_RING_H
#define NVITOP_SRC_UTIL_RING_H

#include <stdbool.h>
#include <stddef.h>

struct ring {
    unsigned char *data;
    size_t elem_size;
    size_t capacity;
    size_t head;  /* slot of the oldest element */
    size_t count; /* elements stored, at most capacity */
};

/* Allocate room for capacity elements of elem_size bytes (both > 0).  Returns false when out of
 * memory or when the sizes are zero or overflow; the ring is then empty and safe to fini. */
bool ring_init(struct ring *ring, size_t elem_size, size_t capacity);

/* Release the storage.  Accepts a zero-initialised or failed ring. */
void ring_fini(struct ring *ring);

/* Copy one element in, dropping the oldest when full. */
void ring_push(struct ring *ring, const void *elem);

/* Element i counted from the oldest (0) or NULL when i >= count.  Valid until the next push. */
const void *ring_at(const struct ring *ring, size_t i);

/* The newest element, or NULL when empty. */
const void *ring_newest(const struct ring *ring);

/* Drop every element, keeping the storage. */
void ring_clear(struct ring *ring);

#endif /* NVITOP_SRC_UTIL_RING_H */
