/*
 * Pure CUDA_VISIBLE_DEVICES resolution over a device table: the rules of docs/nvitop-behaviour.md
 * §5.5, which follow what the CUDA driver does (an invalid entry ends the list, a duplicate empties
 * it, at most one MIG device is visible).
 */
#include "cuda/cuda_visible.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/str.h"

#define UUID_TEXT_LEN 36 /* xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx */
#define ABBREV_MIN    8

/* One comma-separated item, trimmed and cut after its leading digits. */
struct item {
    const char *text;
    size_t len;
};

/* A resolved device: gpu position in the table and MIG position (SIZE_MAX for the GPU itself). */
struct pick {
    size_t gpu;
    size_t mig;
};

size_t cuda_visible_max(const struct cuda_table *table) {
    size_t max = table->gpu_count;
    for (size_t i = 0; i < table->gpu_count; i++) {
        max += table->gpus[i].mig_count;
    }
    return max;
}

static struct item strip_item(const char *text, size_t len) {
    while (len > 0 && isspace((unsigned char)text[0])) {
        text++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)text[len - 1])) {
        len--;
    }
    size_t start = 0;
    if (len > 1 && (text[0] == '+' || text[0] == '-') && isdigit((unsigned char)text[1])) {
        start = 1;
    }
    if (len > start && isdigit((unsigned char)text[start])) {
        size_t end = start;
        while (end < len && isdigit((unsigned char)text[end])) {
            end++;
        }
        len = end;
    }
    return (struct item){text, len};
}

static bool all_digits(struct item item) {
    if (item.len == 0) {
        return false;
    }
    for (size_t i = 0; i < item.len; i++) {
        if (!isdigit((unsigned char)item.text[i])) {
            return false;
        }
    }
    return true;
}

static bool is_uuid_char(char c, size_t position) {
    if (position == 8 || position == 13 || position == 18 || position == 23) {
        return c == '-';
    }
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Length of a lower-case UUID at text (36), of an abbreviation when allowed (at least 8 hex
 * digits, dashes where a UUID has them), or 0 for anything else. */
static size_t uuid_length(const char *text, size_t len, bool abbreviations) {
    size_t n = 0;
    while (n < len && n < UUID_TEXT_LEN && is_uuid_char(text[n], n)) {
        n++;
    }
    if (n == UUID_TEXT_LEN) {
        return n;
    }
    return abbreviations && n >= ABBREV_MIN ? n : 0;
}

/* Does the prefix (len bytes) name this full UUID text?  Full match, or a prefix when shorter. */
static bool uuid_is(const char *full, const char *prefix, size_t len) {
    return full != NULL && strlen(full) >= len && strncmp(full, prefix, len) == 0 &&
           (len == UUID_TEXT_LEN ? full[len] == '\0' : true);
}

static bool find_gpu(const struct cuda_table *table, const char *tail, size_t len, size_t *gpu) {
    size_t matches = 0;
    for (size_t i = 0; i < table->gpu_count; i++) {
        const char *uuid = table->gpus[i].uuid;
        if (uuid != NULL && strncmp(uuid, "GPU-", 4) == 0 && uuid_is(uuid + 4, tail, len)) {
            *gpu = i;
            matches++;
        }
    }
    return matches == 1;
}

static bool find_mig(const struct cuda_table *table, const char *tail, size_t len,
                     struct pick *pick) {
    size_t matches = 0;
    for (size_t i = 0; i < table->gpu_count; i++) {
        for (size_t k = 0; k < table->gpus[i].mig_count; k++) {
            const char *uuid = table->gpus[i].migs[k].uuid;
            if (uuid != NULL && strncmp(uuid, "MIG-", 4) == 0 && uuid_is(uuid + 4, tail, len)) {
                *pick = (struct pick){i, k};
                matches++;
            }
        }
    }
    return matches == 1;
}

static bool parse_u32(const char *text, size_t len, uint32_t *out) {
    if (len == 0 || len > 9) {
        return false;
    }
    uint32_t value = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)text[i])) {
            return false;
        }
        value = value * 10 + (uint32_t)(text[i] - '0');
    }
    *out = value;
    return true;
}

/* "MIG-GPU-<uuid>/<gi>/<ci>" (the "MIG-GPU-" already consumed). */
static bool find_mig_path(const struct cuda_table *table, const char *tail, size_t len,
                          bool abbreviations, struct pick *pick) {
    size_t n = uuid_length(tail, len, abbreviations);
    size_t gpu;
    if (n == 0 || n >= len || tail[n] != '/' || !find_gpu(table, tail, n, &gpu)) {
        return false;
    }
    const char *ids = tail + n + 1;
    size_t ids_len = len - n - 1;
    const char *slash = memchr(ids, '/', ids_len);
    uint32_t gi;
    uint32_t ci;
    if (slash == NULL || !parse_u32(ids, (size_t)(slash - ids), &gi) ||
        !parse_u32(slash + 1, ids_len - (size_t)(slash - ids) - 1, &ci)) {
        return false;
    }
    const struct cuda_gpu_entry *entry = &table->gpus[gpu];
    for (size_t k = 0; k < entry->mig_count; k++) {
        if (entry->migs[k].gpu_instance_id == gi && entry->migs[k].compute_instance_id == ci) {
            *pick = (struct pick){gpu, k};
            return true;
        }
    }
    return false;
}

/* Resolve a UUID-like item; false when malformed or unknown. */
static bool resolve_uuid(const struct cuda_table *table, struct item item, bool abbreviations,
                         struct pick *pick) {
    const char *text = item.text;
    size_t len = item.len;
    if (len > 8 && strncmp(text, "MIG-GPU-", 8) == 0) {
        return find_mig_path(table, text + 8, len - 8, abbreviations, pick);
    }
    bool mig = len > 4 && strncmp(text, "MIG-", 4) == 0;
    if (!mig && !(len > 4 && strncmp(text, "GPU-", 4) == 0)) {
        return false;
    }
    size_t n = uuid_length(text + 4, len - 4, abbreviations);
    if (n == 0 || n != len - 4) {
        return false;
    }
    if (mig) {
        return find_mig(table, text + 4, n, pick);
    }
    pick->mig = SIZE_MAX;
    return find_gpu(table, text + 4, n, &pick->gpu);
}

/* Step 5: walk the items.  Returns the number of picks, or SIZE_MAX when a duplicate empties the
 * list. */
static size_t walk_items(const char *value, const struct cuda_table *table, bool abbreviations,
                         struct pick *picks, struct item *seen, size_t max) {
    size_t count = 0;
    int kind = -1; /* 0 integers, 1 UUIDs, decided by the first item */
    const char *cursor = value;
    (void)max; /* distinct devices never exceed it: a further one is a duplicate */
    for (;;) {
        const char *comma = strchr(cursor, ',');
        size_t raw_len = comma != NULL ? (size_t)(comma - cursor) : strlen(cursor);
        struct item item = strip_item(cursor, raw_len);
        for (size_t i = 0; i < count; i++) {
            if (seen[i].len == item.len && memcmp(seen[i].text, item.text, item.len) == 0) {
                return SIZE_MAX;
            }
        }
        struct pick pick = {SIZE_MAX, SIZE_MAX};
        bool number = all_digits(item);
        if (kind == -1) {
            kind = number ? 0 : 1;
        }
        if (number != (kind == 0)) {
            break;
        }
        if (number) {
            uint32_t index;
            if (!parse_u32(item.text, item.len, &index) || index >= table->gpu_count) {
                break;
            }
            pick.gpu = index;
        } else if (!resolve_uuid(table, item, abbreviations, &pick)) {
            break;
        }
        for (size_t i = 0; i < count; i++) {
            if (picks[i].gpu == pick.gpu && picks[i].mig == pick.mig) {
                return SIZE_MAX; /* the same device twice, as CUDA treats it */
            }
        }
        picks[count] = pick;
        seen[count] = item;
        count++;
        if (comma == NULL) {
            break;
        }
        cursor = comma + 1;
    }
    return count;
}

static void emit(const struct cuda_table *table, struct pick pick, uint32_t cuda_index,
                 struct nvt_cuda_device *out) {
    const struct cuda_gpu_entry *gpu = &table->gpus[pick.gpu];
    out->cuda_index = cuda_index;
    out->index = gpu->index;
    if (pick.mig == SIZE_MAX) {
        out->mig_index = NVT_NA_U32;
        str_copy(out->uuid, sizeof(out->uuid), gpu->uuid != NULL ? gpu->uuid : "");
    } else {
        out->mig_index = gpu->migs[pick.mig].mig_index;
        str_copy(out->uuid, sizeof(out->uuid),
                 gpu->migs[pick.mig].uuid != NULL ? gpu->migs[pick.mig].uuid : "");
    }
}

/* Step 6: at most one MIG device; a MIG-enabled GPU stands for its first MIG device. */
static size_t resolve_mig(const struct cuda_table *table, struct pick *picks, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (picks[i].mig != SIZE_MAX) {
            picks[0] = picks[i];
            return 1;
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        const struct cuda_gpu_entry *gpu = &table->gpus[picks[i].gpu];
        if (!gpu->mig_enabled) {
            picks[kept++] = picks[i];
            continue;
        }
        if (gpu->mig_count > 0) {
            picks[0] = (struct pick){picks[i].gpu, 0};
            return 1;
        }
    }
    return kept;
}

size_t cuda_visible_resolve(const char *value, const struct cuda_table *table, bool abbreviations,
                            struct nvt_cuda_device *out) {
    size_t max = cuda_visible_max(table);
    if (max == 0) {
        return 0;
    }
    struct pick *picks = calloc(max, sizeof(*picks));
    struct item *seen = calloc(max, sizeof(*seen));
    size_t count = SIZE_MAX; /* out of memory */
    if (picks != NULL && seen != NULL) {
        count = 0;
        if (value == NULL) {
            for (size_t i = 0; i < table->gpu_count; i++) {
                picks[count++] = (struct pick){i, SIZE_MAX};
            }
        } else {
            count = walk_items(value, table, abbreviations, picks, seen, max);
            count = count == SIZE_MAX ? 0 : count;
        }
        count = resolve_mig(table, picks, count);
        for (size_t i = 0; i < count; i++) {
            emit(table, picks[i], (uint32_t)i, &out[i]);
        }
    }
    free(picks);
    free(seen);
    return count;
}

bool cuda_visible_from_uuids(const char *uuids, const struct cuda_table *table,
                             struct nvt_cuda_device *out, size_t *count, char *value, size_t size) {
    bool all_physical = true;
    size_t used = 0;
    size_t n = 0;
    const char *cursor = uuids;
    value[0] = '\0';
    while (*cursor != '\0') {
        const char *comma = strchr(cursor, ',');
        size_t len = comma != NULL ? (size_t)(comma - cursor) : strlen(cursor);
        size_t gpu = 0;
        bool physical = len == UUID_TEXT_LEN && find_gpu(table, cursor, len, &gpu);
        if (physical && !table->gpus[gpu].mig_supported && n < cuda_visible_max(table)) {
            out[n] = (struct nvt_cuda_device){(uint32_t)n, table->gpus[gpu].index, NVT_NA_U32, ""};
            str_copy(out[n].uuid, sizeof(out[n].uuid), table->gpus[gpu].uuid);
            n++;
        } else {
            all_physical = false;
        }
        if (used + len + 6 < size) {
            used += (size_t)snprintf(value + used, size - used, "%s%s%.*s", used > 0 ? "," : "",
                                     physical ? "GPU-" : "MIG-", (int)len, cursor);
        }
        if (comma == NULL) {
            break;
        }
        cursor = comma + 1;
    }
    *count = all_physical ? n : 0;
    return all_physical;
}
