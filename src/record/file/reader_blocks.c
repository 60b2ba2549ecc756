/*
 * The reader's index (reader_index.h): a frame's entry from its block, rebuilt on demand into the
 * least recently used of the cached blocks, and the lookups over blocks (time, search, keyframe).
 */
#include <stdio.h>
#include <string.h>

#include "record/file/file_format.h"
#include "record/file/reader_index.h"
#include "util/xalloc.h"

/* The block holding frame i < count. */
static size_t block_of(const struct rec_index *x, size_t i) {
    size_t lo = 0;
    size_t hi = x->block_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->blocks[mid].first <= i) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static size_t block_frames(const struct rec_index *x, size_t b) {
    size_t next = b + 1 < x->block_count ? x->blocks[b + 1].first : x->count;
    return next - x->blocks[b].first;
}

/* Walk block b's record headers again into entries. */
static bool rebuild(const struct rec_index *x, size_t b, struct rec_entry *entries, char *error,
                    size_t error_size) {
    const struct rec_index_block *block = &x->blocks[b];
    int fd = rec_index_fd(x, block->file, error, error_size);
    if (fd < 0) {
        return false;
    }
    size_t n = block_frames(x, b);
    struct rec_walker w = {fd, x->files[block->file].end, x->cache->window, 0, 0};
    unsigned long long at = block->offset;
    uint32_t segment = block->segment;
    size_t got = 0;
    struct rec_record_header h;
    while (got < n && rec_walk_header(&w, at, &h)) {
        if (h.type == REC_SEGMENT) {
            segment++;
        } else if (rec_is_frame(h.type)) {
            entries[got++] = (struct rec_entry){.offset = at,
                                                .timestamp = h.timestamp,
                                                .file = block->file,
                                                .segment = segment,
                                                .payload_size = h.payload_size,
                                                .raw_size = h.raw_size,
                                                .type = (unsigned char)h.type,
                                                .flags = (unsigned char)h.flags};
        }
        at += REC_RECORD_HEADER + h.payload_size;
    }
    if (got < n || memcmp(&entries[0].timestamp, &block->first_time, sizeof(double)) != 0) {
        snprintf(error, error_size, "%s changed since it was opened (frame %zu is gone)",
                 x->files[block->file].path, block->first + got);
        return false;
    }
    return true;
}

/* Block b's entries, from the cache or rebuilt into its least recently used slot. */
static const struct rec_entry *block_entries(const struct rec_index *x, size_t b, char *error,
                                             size_t error_size) {
    struct rec_index_cache *c = x->cache;
    struct rec_loaded_block *slot = &c->blocks[0];
    for (size_t i = 0; i < REC_CACHED_BLOCKS; i++) {
        if (c->blocks[i].block == b) {
            c->blocks[i].used = ++c->tick;
            return c->blocks[i].entries;
        }
        if (c->blocks[i].used < slot->used) {
            slot = &c->blocks[i];
        }
    }
    if (slot->entries == NULL) {
        slot->entries = xcalloc(REC_BLOCK_FRAMES, sizeof(*slot->entries));
    }
    slot->block = SIZE_MAX;
    slot->used = 0;
    if (!rebuild(x, b, slot->entries, error, error_size)) {
        return NULL;
    }
    slot->block = b;
    slot->used = ++c->tick;
    return slot->entries;
}

bool rec_index_entry(const struct rec_index *x, size_t i, struct rec_entry *out, char *error,
                     size_t error_size) {
    size_t b = block_of(x, i);
    const struct rec_entry *entries = block_entries(x, b, error, error_size);
    if (entries == NULL) {
        return false;
    }
    *out = entries[i - x->blocks[b].first];
    return true;
}

double rec_index_time(const struct rec_index *x, size_t i) {
    size_t b = block_of(x, i);
    char error[8];
    const struct rec_entry *entries = block_entries(x, b, error, sizeof(error));
    return entries != NULL ? entries[i - x->blocks[b].first].timestamp : x->blocks[b].first_time;
}

/* Binary search for the partition point, over the first times of blocks [lo, hi) and then in the
 * block: with times that rise (as they do within an era) the last frame at or before t, or
 * SIZE_MAX when t is before the first of them. */
static size_t find_in(const struct rec_index *x, size_t lo, size_t hi, double t) {
    size_t first = lo;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->blocks[mid].first_time <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == first) {
        return SIZE_MAX;
    }
    size_t b = lo - 1;
    char error[8];
    const struct rec_entry *entries = block_entries(x, b, error, sizeof(error));
    if (entries == NULL) {
        return x->blocks[b].first;
    }
    lo = 1; /* entries[0] is at or before t */
    hi = block_frames(x, b);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entries[mid].timestamp <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return x->blocks[b].first + lo - 1;
}

size_t rec_index_find(const struct rec_index *x, double t, double slack, size_t *matches) {
    size_t chosen = SIZE_MAX;
    size_t fallback = SIZE_MAX;
    size_t held = 0;
    for (size_t e = x->era_count; e-- > 0;) {
        bool holds = t <= x->era_ends[e] + slack;
        if (x->blocks[x->eras[e]].first_time > t || (!holds && fallback != SIZE_MAX)) {
            continue; /* starts after t, or ends before it with a fallback already found */
        }
        size_t hi = e + 1 < x->era_count ? x->eras[e + 1] : x->block_count;
        size_t i = find_in(x, x->eras[e], hi, t);
        if (i == SIZE_MAX) {
            continue;
        }
        if (holds) {
            held++;
            chosen = chosen == SIZE_MAX ? i : chosen;
        } else {
            fallback = i;
        }
    }
    if (matches != NULL) {
        *matches = held;
    }
    return chosen != SIZE_MAX ? chosen : fallback;
}

/* The era holding block b. */
static size_t era_of_block(const struct rec_index *x, size_t b) {
    size_t lo = 0;
    size_t hi = x->era_count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->eras[mid] <= b) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The blocks of era e: [*lo, *hi). */
static void era_blocks(const struct rec_index *x, size_t e, size_t *lo, size_t *hi) {
    *lo = x->era_count > 0 ? x->eras[e] : 0;
    *hi = e + 1 < x->era_count ? x->eras[e + 1] : x->block_count;
}

void rec_index_era(const struct rec_index *x, size_t i, size_t *first, size_t *end) {
    size_t lo = 0;
    size_t hi = 0;
    era_blocks(x, era_of_block(x, block_of(x, i)), &lo, &hi);
    *first = x->blocks[lo].first;
    *end = hi < x->block_count ? x->blocks[hi].first : x->count;
}

size_t rec_index_find_in_era(const struct rec_index *x, size_t i, double t) {
    size_t lo = 0;
    size_t hi = 0;
    era_blocks(x, era_of_block(x, block_of(x, i)), &lo, &hi);
    return find_in(x, lo, hi, t);
}

size_t rec_index_keyframe(const struct rec_index *x, size_t i, char *error, size_t error_size) {
    size_t b = block_of(x, i);
    const struct rec_index_block *block = &x->blocks[b];
    const struct rec_entry *entries = block_entries(x, b, error, error_size);
    if (entries == NULL) {
        return SIZE_MAX;
    }
    size_t k = i - block->first;
    uint32_t segment = entries[k].segment;
    while (entries[k].type != REC_KEYFRAME) {
        if (k == 0) {
            if (block->key != SIZE_MAX) {
                return block->key; /* in an earlier block of the same segment */
            }
            break;
        }
        if (entries[k - 1].segment != segment) {
            break;
        }
        k--;
    }
    if (entries[k].type == REC_KEYFRAME) {
        return block->first + k;
    }
    snprintf(error, error_size, "%s: a segment starts without a keyframe",
             x->files[block->file].path);
    return SIZE_MAX;
}
