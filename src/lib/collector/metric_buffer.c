#include "collector/metric_buffer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/str.h"

#define RUNNING_TIME_SUFFIX "host/running_time (min)"

void metric_stat_init(struct metric_stat *stat, double start) {
    *stat = (struct metric_stat){.start = start,
                                 .last_time = start,
                                 .integral = 0.0,
                                 .last = NAN,
                                 .min = NAN,
                                 .max = NAN,
                                 .valid = false,
                                 .has_nan = false};
}

void metric_stat_add(struct metric_stat *stat, double value, double time) {
    if (isnan(value)) {
        stat->has_nan = true;
        return;
    }
    if (!stat->valid) {
        /* The first value is taken to have held since the key's window started. */
        stat->integral = value * (time - stat->start);
        stat->min = stat->max = value;
        stat->valid = true;
    } else {
        stat->integral += (value + stat->last) * (time - stat->last_time) / 2.0;
        stat->min = value < stat->min ? value : stat->min;
        stat->max = value > stat->max ? value : stat->max;
    }
    stat->last = value;
    stat->last_time = time;
}

double metric_stat_mean(const struct metric_stat *stat, double now) {
    if (!stat->valid) {
        return NAN;
    }
    double integral = stat->integral;
    double end = stat->last_time;
    if (!stat->has_nan) {
        /* Still present: the last value holds until now. */
        integral += stat->last * (now - stat->last_time);
        end = now;
    }
    double span = end - stat->start;
    /* No time has passed (a sample at the very start): the mean is the value itself. */
    return span > 0.0 ? integral / span : stat->last;
}

/* FNV-1a: short keys, no adversary (they are built by the collector itself). */
static uint64_t hash_key(const char *key) {
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++) {
        h = (h ^ *p) * UINT64_C(1099511628211);
    }
    return h;
}

nvt_status metric_buffer_init(struct metric_buffer *buffer, const char *parent_prefix,
                              const char *tag, double now) {
    memset(buffer, 0, sizeof(*buffer));
    buffer->start = buffer->last_time = now;
    size_t tag_len = strlen(tag);
    buffer->tag = str_dup_n(tag, tag_len);
    if (parent_prefix == NULL) {
        buffer->prefix = str_dup_n(tag, tag_len);
    } else {
        size_t parent_len = strlen(parent_prefix);
        buffer->prefix = malloc(parent_len + 1 + tag_len + 1);
        if (buffer->prefix != NULL) {
            memcpy(buffer->prefix, parent_prefix, parent_len);
            buffer->prefix[parent_len] = '/';
            memcpy(buffer->prefix + parent_len + 1, tag, tag_len + 1);
        }
    }
    return buffer->tag != NULL && buffer->prefix != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
}

static void free_entries(struct metric_buffer *buffer) {
    for (size_t i = 0; i < buffer->count; i++) {
        free(buffer->entries[i].key);
    }
    buffer->count = 0;
}

void metric_buffer_fini(struct metric_buffer *buffer) {
    free_entries(buffer);
    free(buffer->entries);
    free(buffer->table);
    free(buffer->tag);
    free(buffer->prefix);
    memset(buffer, 0, sizeof(*buffer));
}

void metric_buffer_clear(struct metric_buffer *buffer, double now) {
    free_entries(buffer);
    if (buffer->table != NULL) {
        memset(buffer->table, 0, buffer->table_size * sizeof(*buffer->table));
    }
    buffer->start = buffer->last_time = now;
}

/* Slot of key in the table: its entry's slot, or the empty slot where it would go. */
static size_t table_slot(const struct metric_buffer *buffer, const char *key, uint64_t hash) {
    size_t mask = buffer->table_size - 1;
    size_t slot = (size_t)hash & mask;
    while (buffer->table[slot] != 0) {
        const struct metric_entry *e = &buffer->entries[buffer->table[slot] - 1];
        if (e->hash == hash && strcmp(e->key, key) == 0) {
            break;
        }
        slot = (slot + 1) & mask;
    }
    return slot;
}

/* Keep the table at most half full (a power of two). */
static bool ensure_table(struct metric_buffer *buffer, size_t wanted) {
    if (buffer->table_size >= 2 * wanted && buffer->table_size > 0) {
        return true;
    }
    size_t size = buffer->table_size > 0 ? buffer->table_size : 64;
    while (size < 2 * wanted) {
        if (size > SIZE_MAX / 4 / sizeof(size_t)) {
            return false;
        }
        size *= 2;
    }
    size_t *table = calloc(size, sizeof(*table));
    if (table == NULL) {
        return false;
    }
    free(buffer->table);
    buffer->table = table;
    buffer->table_size = size;
    for (size_t i = 0; i < buffer->count; i++) {
        size_t slot = table_slot(buffer, buffer->entries[i].key, buffer->entries[i].hash);
        buffer->table[slot] = i + 1;
    }
    return true;
}

static struct metric_entry *find_or_add(struct metric_buffer *buffer, const char *key) {
    if (!ensure_table(buffer, buffer->count + 1)) {
        return NULL;
    }
    uint64_t hash = hash_key(key);
    size_t slot = table_slot(buffer, key, hash);
    if (buffer->table[slot] != 0) {
        return &buffer->entries[buffer->table[slot] - 1];
    }
    if (buffer->count == buffer->capacity) {
        size_t capacity = buffer->capacity > 0 ? buffer->capacity * 2 : 64;
        if (capacity > SIZE_MAX / sizeof(*buffer->entries)) {
            return NULL;
        }
        struct metric_entry *entries = realloc(buffer->entries, capacity * sizeof(*entries));
        if (entries == NULL) {
            return NULL;
        }
        buffer->entries = entries;
        buffer->capacity = capacity;
    }
    char *copy = str_dup_n(key, strlen(key));
    if (copy == NULL) {
        return NULL;
    }
    struct metric_entry *e = &buffer->entries[buffer->count];
    *e = (struct metric_entry){.key = copy, .hash = hash, .seen = 0};
    /* nvitop starts a new key's window at the buffer's previous sample. */
    metric_stat_init(&e->stat, buffer->last_time);
    buffer->table[slot] = ++buffer->count;
    return e;
}

nvt_status metric_buffer_add(struct metric_buffer *buffer, const struct metric_sample_view *sample,
                             double time) {
    nvt_status status = NVT_OK;
    uint64_t generation = ++buffer->generation;
    for (size_t i = 0; i < sample->count; i++) {
        struct metric_entry *e = find_or_add(buffer, sample->keys[i]);
        if (e == NULL) {
            status = NVT_ERR_NO_MEMORY;
            continue;
        }
        if (e->seen != generation) { /* a key given twice in one sample counts once */
            e->seen = generation;
            metric_stat_add(&e->stat, sample->values[i], time);
        }
    }
    for (size_t i = 0; i < buffer->count; i++) {
        if (buffer->entries[i].seen != generation) {
            metric_stat_add(&buffer->entries[i].stat, NAN, time);
        }
    }
    buffer->last_time = time;
    return status;
}

static bool is_running_time(const char *key) {
    return str_ends_with(key, RUNNING_TIME_SUFFIX);
}

/* Writing the results: a first pass only counts (out NULL), the second writes.  Keys are joined
 * with memcpy: a collect of a few hundred metrics with snprintf cost as much as a snapshot. */
struct emitter {
    struct nvt_metric *out;
    char *text;
    size_t used;
    size_t count;
};

/* One metric whose key is the parts joined by "/". */
static void put(struct emitter *em, double value, const char *const *parts, size_t part_count) {
    char *dst = em->out != NULL ? em->text + em->used : NULL;
    size_t len = 0;
    for (size_t i = 0; i < part_count; i++) {
        size_t n = strlen(parts[i]);
        if (dst != NULL) {
            if (i > 0) {
                dst[len] = '/';
            }
            memcpy(dst + len + (i > 0 ? 1 : 0), parts[i], n);
        }
        len += n + (i > 0 ? 1 : 0);
    }
    if (dst != NULL) {
        dst[len] = '\0';
        em->out[em->count].key = dst;
        em->out[em->count].value = value;
    }
    em->used += len + 1;
    em->count++;
}

static void emit(const struct metric_buffer *buffer, double now, double wall, struct emitter *em) {
    static const char *const stat_names[] = {"mean", "min", "max", "last"};
    for (size_t i = 0; i < buffer->count; i++) {
        const struct metric_entry *e = &buffer->entries[i];
        if (is_running_time(e->key)) {
            /* nvitop reports only the longest running time, without a statistic suffix. */
            const char *parts[] = {buffer->prefix, e->key};
            put(em, e->stat.max, parts, 2);
            continue;
        }
        double values[] = {metric_stat_mean(&e->stat, now), e->stat.min, e->stat.max, e->stat.last};
        for (size_t s = 0; s < 4; s++) {
            const char *parts[] = {buffer->prefix, e->key, stat_names[s]};
            put(em, values[s], parts, 3);
        }
    }
    const char *duration[] = {buffer->prefix, "duration (s)"};
    put(em, now - buffer->start, duration, 2);
    const char *timestamp[] = {buffer->prefix, "timestamp"};
    put(em, wall, timestamp, 2);
}

nvt_status metric_buffer_collect(const struct metric_buffer *buffer, double now, double wall,
                                 struct nvt_metric **out, size_t *count) {
    struct emitter sizing = {0};
    emit(buffer, now, wall, &sizing);
    size_t n = sizing.count;
    if (n > (SIZE_MAX - sizing.used) / sizeof(struct nvt_metric)) {
        return NVT_ERR_NO_MEMORY;
    }
    struct nvt_metric *metrics = malloc(n * sizeof(*metrics) + sizing.used);
    if (metrics == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    struct emitter writing = {.out = metrics, .text = (char *)(metrics + n)};
    emit(buffer, now, wall, &writing);
    *out = metrics;
    *count = n;
    return NVT_OK;
}
