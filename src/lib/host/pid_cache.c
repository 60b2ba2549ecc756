/*
 * Per-process readings (CPU counters and the identity read from status and cmdline) of two
 * generations, so that CPU percentages are measured between two reads of the same process, the
 * slow files are not read on every pass, and readings of exited processes are dropped after one
 * pass.  Both generations share one open-addressing table (linear probing, at most half full),
 * each entry stamped with the low bit of the generation it was last stored in: a process read
 * again takes over its entry rather than holding one in each generation, so that the table holds
 * one entry a process.  Ending a generation sweeps out the entries of the one before (those the
 * ending one did not store), moving the entries after each back into the gap (backward-shift
 * deletion), so that the table never holds tombstones and a probe still ends at the first empty
 * slot.  The cache also counts the descriptors its identities keep open, so that their number is
 * bounded whatever order processes are read in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux_internal.h"
#include "util/sys/clock.h"
#include "util/sys/file.h"
#include "util/sys/nofile.h"

static size_t slot_of(uint32_t pid, size_t capacity) {
    /* Knuth's multiplicative hash spreads consecutive pids over the table. */
    return (size_t)((pid * UINT32_C(2654435761)) & (capacity - 1));
}

static bool is_current(const struct pid_cache *cache, const struct pid_cache_entry *slot) {
    return slot->generation == (cache->generation & 1u);
}

/* What a probe for one pid met before the empty slot that ends it: its entry of each generation
 * (NULL for none) and that slot (NULL for an empty table). */
struct probe {
    struct pid_cache_entry *current;
    struct pid_cache_entry *previous;
    struct pid_cache_entry *empty;
};

static struct probe table_probe(struct pid_cache *cache, uint32_t pid) {
    struct probe found = {NULL, NULL, NULL};
    if (cache->capacity == 0) {
        return found;
    }
    /* At most half full, the table has an empty slot to end the probe. */
    for (size_t i = slot_of(pid, cache->capacity);; i = (i + 1) & (cache->capacity - 1)) {
        struct pid_cache_entry *slot = &cache->slots[i];
        if (!slot->used) {
            found.empty = slot;
            return found;
        }
        if (slot->pid == pid && is_current(cache, slot)) {
            found.current = slot;
        } else if (slot->pid == pid) {
            found.previous = slot;
        }
    }
}

/* Count slot, of the previous generation or a new one, in the current generation. */
static void stamp_current(struct pid_cache *cache, struct pid_cache_entry *slot) {
    if (cache->current_count == 0) {
        cache->current_started_s = clock_monotonic_s();
    }
    cache->current_count++;
    slot->generation = cache->generation & 1u;
}

/* Store entry in the current generation: over the pid's entry there, else over the same
 * process's entry of the previous generation (whose reading this one supersedes), else in a new
 * slot (an entry of another process under the pid stays until its generation is swept). */
static void table_put(struct pid_cache *cache, const struct pid_cache_entry *entry) {
    struct probe found = table_probe(cache, entry->pid);
    struct pid_cache_entry *slot = found.current;
    if (slot == NULL && found.previous != NULL &&
        found.previous->start_ticks == entry->start_ticks) {
        slot = found.previous;
    } else if (slot == NULL) {
        slot = found.empty;
        cache->count++;
    }
    if (slot->used && slot->identity != entry->identity) {
        process_identity_free(cache, slot->identity);
    }
    bool was_current = slot == found.current;
    *slot = *entry;
    slot->used = 1;
    if (was_current) {
        slot->generation = cache->generation & 1u;
    } else {
        stamp_current(cache, slot);
    }
}

/* Forget the entry in slot i (its identity freed), then close the gap: each later entry of the
 * cluster whose home slot is not between the gap and it moves back into the gap, leaving a gap
 * where it was, until the cluster ends (Knuth's algorithm R). */
static void table_delete(struct pid_cache *cache, size_t i) {
    size_t mask = cache->capacity - 1;
    process_identity_free(cache, cache->slots[i].identity);
    for (size_t j = (i + 1) & mask; cache->slots[j].used; j = (j + 1) & mask) {
        size_t home = slot_of(cache->slots[j].pid, cache->capacity);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            cache->slots[i] = cache->slots[j];
            i = j;
        }
    }
    memset(&cache->slots[i], 0, sizeof(cache->slots[i]));
    cache->count--;
}

/* Forget the entries of the previous generation.  The scan starts after an empty slot, which
 * stays empty (deletion moves entries back only within their cluster), so that no cluster wraps
 * around the scan's start: an entry moved back into the slot under the scan comes from further
 * on, and is looked at in its turn. */
static void table_sweep(struct pid_cache *cache) {
    size_t stale = cache->count - cache->current_count;
    if (stale == 0) {
        return;
    }
    size_t mask = cache->capacity - 1;
    size_t start = 0;
    while (cache->slots[start].used) {
        start++;
    }
    for (size_t n = 1; n <= mask && stale > 0; n++) {
        size_t i = (start + n) & mask;
        while (cache->slots[i].used && !is_current(cache, &cache->slots[i])) {
            table_delete(cache, i);
            stale--;
        }
    }
}

static void table_free_identities(struct pid_cache *cache) {
    for (size_t i = 0; i < cache->capacity; i++) {
        process_identity_free(cache, cache->slots[i].identity);
        cache->slots[i].identity = NULL;
    }
}

/* Keep the load factor at or below one half so that probes stay short.  Entries keep their
 * stamps. */
static bool table_grow(struct pid_cache *cache) {
    size_t capacity = cache->capacity == 0 ? 64 : cache->capacity * 2;
    if (capacity > SIZE_MAX / sizeof(struct pid_cache_entry)) {
        return false;
    }
    struct pid_cache_entry *slots = calloc(capacity, sizeof(struct pid_cache_entry));
    if (slots == NULL) {
        return false;
    }
    for (size_t i = 0; i < cache->capacity; i++) {
        if (!cache->slots[i].used) {
            continue;
        }
        size_t j = slot_of(cache->slots[i].pid, capacity);
        while (slots[j].used) {
            j = (j + 1) & (capacity - 1);
        }
        slots[j] = cache->slots[i];
    }
    free(cache->slots);
    cache->slots = slots;
    cache->capacity = capacity;
    return true;
}

void process_identity_close_kept(struct pid_cache *cache, int *fd) {
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
        cache->kept_fds--;
    }
}

void process_identity_close_text(struct pid_cache *cache, int *fd) {
    if (*fd >= 0) {
        process_identity_close_kept(cache, fd);
        cache->kept_text_fds--;
    }
}

void process_identity_close_all(struct pid_cache *cache, struct process_identity *identity) {
    process_identity_close_kept(cache, &identity->stat_fd);
    process_identity_close_kept(cache, &identity->statm_fd);
    process_identity_close_kept(cache, &identity->schedstat_fd);
    process_identity_close_text(cache, &identity->status_fd);
    process_identity_close_text(cache, &identity->cmdline_fd);
}

void process_identity_free(struct pid_cache *cache, struct process_identity *identity) {
    if (identity != NULL) {
        process_identity_close_all(cache, identity);
        process_strings_unref(identity->strings);
    }
    free(identity);
}

static void move_fd(int *to, int *from) {
    if (*to < 0) {
        *to = *from;
        *from = -1;
    }
}

void process_identity_move_kept(struct process_identity *to, struct process_identity *from) {
    move_fd(&to->stat_fd, &from->stat_fd);
    move_fd(&to->statm_fd, &from->statm_fd);
    move_fd(&to->schedstat_fd, &from->schedstat_fd);
    move_fd(&to->status_fd, &from->status_fd);
    move_fd(&to->cmdline_fd, &from->cmdline_fd);
}

int pid_cache_read_kept_alloc(struct pid_cache *cache, int *fd, int dir_fd, const char *path,
                              size_t cap, bool keep, char *first, size_t first_size, char **out,
                              size_t *len) {
    if (*fd < 0) {
        int opened = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
        if (opened < 0) {
            return errno;
        }
        *fd = opened;
        cache->kept_fds++;
        cache->kept_text_fds++;
    }
    char *buf = first;
    int err = first_size > 0 && first_size - 1 <= cap
                  ? file_reread_into(*fd, first, first_size, len)
                  : EFBIG;
    if (err == EFBIG) {
        /* Longer than first: read again from the start into a buffer that grows. */
        size_t size = 0;
        buf = NULL;
        err = file_reread_grow(*fd, cap, &buf, &size, len);
    }
    if (err != 0) {
        if (buf != first) {
            free(buf);
        }
        process_identity_close_text(cache, fd);
        return err;
    }
    if (!keep || cache->kept_text_fds > cache->kept_max / 2 || cache->kept_fds > cache->kept_max) {
        process_identity_close_text(cache, fd);
    }
    *out = buf;
    return 0;
}

int pid_cache_open_kept(struct pid_cache *cache, int *fd, int dir_fd, const char *path, char *buf,
                        size_t size) {
    if (cache->kept_fds >= cache->kept_max) {
        return file_read_into(dir_fd, path, buf, size, NULL);
    }
    int err = file_open_read_into(dir_fd, path, buf, size, NULL, fd);
    if (*fd >= 0) {
        cache->kept_fds++;
    }
    return err;
}

void pid_cache_init(struct pid_cache *cache) {
    memset(cache, 0, sizeof(*cache));
    cache->generation_max = HOST_GENERATION_MAX_COUNT;
    cache->generation_max_age_s = HOST_GENERATION_MAX_AGE_S;
    cache->pass_stat_max_age_s = HOST_PASS_STAT_MAX_AGE_S;
    uint64_t limit = nofile_soft_limit();
    if (limit == 0) {
        cache->kept_max = HOST_KEPT_FDS_UNKNOWN;
    } else {
        cache->kept_max = limit / 2 < HOST_KEPT_FDS_MAX ? (size_t)(limit / 2) : HOST_KEPT_FDS_MAX;
    }
}

void pid_cache_age(struct pid_cache *cache, double now_s) {
    size_t count = cache->current_count;
    if (count >= cache->generation_max ||
        (count > 0 && !(now_s - cache->current_started_s < cache->generation_max_age_s))) {
        pid_cache_rotate(cache);
    }
}

struct pid_cache_entry *pid_cache_find_pid(struct pid_cache *cache, uint32_t pid) {
    struct probe found = table_probe(cache, pid);
    return found.current != NULL ? found.current : found.previous;
}

struct pid_cache_entry *pid_cache_find(struct pid_cache *cache, uint32_t pid,
                                       uint64_t start_ticks) {
    struct probe found = table_probe(cache, pid);
    if (found.current != NULL && found.current->start_ticks == start_ticks) {
        return found.current;
    }
    return found.previous != NULL && found.previous->start_ticks == start_ticks ? found.previous
                                                                                : NULL;
}

struct pid_cache_entry *pid_cache_carry(struct pid_cache *cache, uint32_t pid) {
    struct probe found = table_probe(cache, pid);
    if (found.current != NULL) {
        return found.current;
    }
    if (found.previous == NULL || found.previous->identity == NULL) {
        return NULL;
    }
    /* Restamped where it is: unlike a copy into another table, this needs no room and cannot
     * fail. */
    stamp_current(cache, found.previous);
    return found.previous;
}

bool pid_cache_store(struct pid_cache *cache, const struct pid_cache_entry *entry) {
    if ((cache->count + 1) * 2 > cache->capacity && !table_grow(cache)) {
        process_identity_free(cache, entry->identity);
        return false;
    }
    table_put(cache, entry);
    return true;
}

void pid_cache_rotate(struct pid_cache *cache) {
    table_sweep(cache);
    cache->generation++;
    cache->current_count = 0;
}

void pid_cache_fini(struct pid_cache *cache) {
    pass_stat_clear(cache);
    table_free_identities(cache);
    free(cache->slots);
    pid_cache_init(cache);
}
