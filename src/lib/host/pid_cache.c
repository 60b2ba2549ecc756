/* Two generations of per-process readings (CPU counters and the identity read from status and
 * cmdline), so that CPU percentages are measured between two reads of the same process, the slow
 * files are not read on every pass, and readings of exited processes are dropped after one pass.
 * The cache also counts the stat descriptors its identities keep open, so that their number is
 * bounded whatever order processes are read in. */
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

static struct pid_cache_entry *table_find(const struct pid_table *table, uint32_t pid) {
    if (table->capacity == 0) {
        return NULL;
    }
    for (size_t i = slot_of(pid, table->capacity);; i = (i + 1) & (table->capacity - 1)) {
        struct pid_cache_entry *slot = &table->slots[i];
        if (!slot->used) {
            return NULL;
        }
        if (slot->pid == pid) {
            return slot;
        }
    }
}

static void table_put(struct pid_cache *cache, struct pid_table *table,
                      const struct pid_cache_entry *entry) {
    size_t i = slot_of(entry->pid, table->capacity);
    while (table->slots[i].used && table->slots[i].pid != entry->pid) {
        i = (i + 1) & (table->capacity - 1);
    }
    if (!table->slots[i].used) {
        table->count++;
    } else if (table->slots[i].identity != entry->identity) {
        process_identity_free(cache, table->slots[i].identity);
    }
    table->slots[i] = *entry;
    table->slots[i].used = true;
}

static void table_free_identities(struct pid_cache *cache, struct pid_table *table) {
    for (size_t i = 0; i < table->capacity; i++) {
        process_identity_free(cache, table->slots[i].identity);
        table->slots[i].identity = NULL;
    }
}

/* Keep the load factor at or below one half so that probes stay short. */
static bool table_grow(struct pid_cache *cache, struct pid_table *table) {
    size_t capacity = table->capacity == 0 ? 64 : table->capacity * 2;
    if (capacity > SIZE_MAX / sizeof(struct pid_cache_entry)) {
        return false;
    }
    struct pid_table bigger = {calloc(capacity, sizeof(struct pid_cache_entry)), capacity, 0};
    if (bigger.slots == NULL) {
        return false;
    }
    for (size_t i = 0; i < table->capacity; i++) {
        if (table->slots[i].used) {
            table_put(cache, &bigger, &table->slots[i]);
        }
    }
    free(table->slots);
    *table = bigger;
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
    size_t count = cache->current.count;
    if (count >= cache->generation_max ||
        (count > 0 && !(now_s - cache->current_started_s < cache->generation_max_age_s))) {
        pid_cache_rotate(cache);
    }
}

struct pid_cache_entry *pid_cache_find_pid(struct pid_cache *cache, uint32_t pid) {
    struct pid_cache_entry *hit = table_find(&cache->current, pid);
    return hit != NULL ? hit : table_find(&cache->previous, pid);
}

struct pid_cache_entry *pid_cache_find(struct pid_cache *cache, uint32_t pid,
                                       uint64_t start_ticks) {
    struct pid_cache_entry *hit = table_find(&cache->current, pid);
    if (hit == NULL || hit->start_ticks != start_ticks) {
        hit = table_find(&cache->previous, pid);
    }
    return hit != NULL && hit->start_ticks == start_ticks ? hit : NULL;
}

struct pid_cache_entry *pid_cache_carry(struct pid_cache *cache, uint32_t pid) {
    struct pid_cache_entry *hit = table_find(&cache->current, pid);
    if (hit != NULL) {
        return hit;
    }
    hit = table_find(&cache->previous, pid);
    if (hit == NULL || hit->identity == NULL) {
        return NULL;
    }
    struct pid_cache_entry entry = *hit;
    hit->identity = NULL; /* the current generation's from now on */
    if (!pid_cache_store(cache, &entry)) {
        return NULL;
    }
    return table_find(&cache->current, pid);
}

bool pid_cache_store(struct pid_cache *cache, const struct pid_cache_entry *entry) {
    struct pid_table *table = &cache->current;
    if ((table->count + 1) * 2 > table->capacity && !table_grow(cache, table)) {
        process_identity_free(cache, entry->identity);
        return false;
    }
    if (table->count == 0) {
        cache->current_started_s = clock_monotonic_s();
    }
    table_put(cache, table, entry);
    return true;
}

void pid_cache_rotate(struct pid_cache *cache) {
    struct pid_table old = cache->previous;
    cache->previous = cache->current;
    /* Reuse the old storage for the new generation. */
    if (old.slots != NULL) {
        table_free_identities(cache, &old);
        memset(old.slots, 0, old.capacity * sizeof(struct pid_cache_entry));
    }
    old.count = 0;
    cache->current = old;
}

void pid_cache_fini(struct pid_cache *cache) {
    pass_stat_clear(cache);
    table_free_identities(cache, &cache->current);
    table_free_identities(cache, &cache->previous);
    free(cache->current.slots);
    free(cache->previous.slots);
    pid_cache_init(cache);
}
