/*
 * A fixed-capacity ring buffer of equally sized elements (history of a metric).  Pushing onto a
 * full ring drops the oldest element.  The storage grows as elements come, up to the capacity (a
 * graph's 2049 values fill in half an hour; most are never all used).  Not thread-safe: guard it
 * with the owner's lock.
 */
#ifndef NVITOP_SRC_UTIL_RING_H
#define NVITOP_SRC_UTIL_RING_H

#include <stdbool.h>
#include <stddef.h>

struct ring {
    unsigned char *data;
    size_t elem_size;
    size_t capacity;
    size_t allocated; /* elements the storage holds now, at most capacity */
    size_t head;      /* slot of the oldest element */
    size_t count;     /* elements stored, at most capacity */
};

/* Make a ring of up to capacity elements of elem_size bytes (both > 0), with room for a few to
 * start with.  Returns false when out of memory or when the sizes are zero or overflow; the ring
 * is then empty and safe to fini. */
bool ring_init(struct ring *ring, size_t elem_size, size_t capacity);

/* Release the storage.  Accepts a zero-initialised or failed ring. */
void ring_fini(struct ring *ring);

/* Copy one element in, dropping the oldest when full.  When the storage cannot grow (out of
 * memory), the ring keeps the capacity it has. */
void ring_push(struct ring *ring, const void *elem);

/* Element i counted from the oldest (0) or NULL when i >= count.  Valid until the next push. */
const void *ring_at(const struct ring *ring, size_t i);

/* The newest element, or NULL when empty. */
const void *ring_newest(const struct ring *ring);

/* Drop every element, keeping the storage. */
void ring_clear(struct ring *ring);

#endif /* NVITOP_SRC_UTIL_RING_H */
