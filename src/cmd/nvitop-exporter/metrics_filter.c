/* A scrape's name[] filter (metrics_filter.h). */
#include "metrics_filter.h"

#include <stdlib.h>
#include <string.h>

struct metrics_filter {
    char **names; /* sorted by (length, bytes), distinct */
    size_t count;
    size_t capacity;
};

struct metrics_filter *metrics_filter_new(void) {
    return calloc(1, sizeof(struct metrics_filter));
}

void metrics_filter_free(struct metrics_filter *f) {
    if (f == NULL) {
        return;
    }
    for (size_t i = 0; i < f->count; i++) {
        free(f->names[i]);
    }
    free(f->names);
    free(f);
}

size_t metrics_filter_count(const struct metrics_filter *f) {
    return f->count;
}

/* Order by length first: a sample's name is compared without copying it out of its line. */
static int compare(const char *a, size_t a_len, const char *b, size_t b_len) {
    if (a_len != b_len) {
        return a_len < b_len ? -1 : 1;
    }
    return memcmp(a, b, a_len);
}

/* The position of name in the sorted names, or where it would go; *found when it is there. */
static size_t position(const struct metrics_filter *f, const char *name, size_t len, bool *found) {
    size_t low = 0, high = f->count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        int c = compare(f->names[mid], strlen(f->names[mid]), name, len);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    *found = false;
    return low;
}

bool metrics_filter_add(struct metrics_filter *f, const char *name) {
    size_t len = strlen(name);
    if (len == 0) {
        return true;
    }
    bool found;
    size_t at = position(f, name, len, &found);
    if (found) {
        return true;
    }
    if (f->count == METRICS_FILTER_MAX_NAMES) {
        return false;
    }
    if (f->count == f->capacity) {
        size_t capacity = f->capacity == 0 ? 16 : f->capacity * 2;
        char **names = realloc(f->names, capacity * sizeof *names);
        if (names == NULL) {
            return false;
        }
        f->names = names;
        f->capacity = capacity;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        return false;
    }
    memcpy(copy, name, len + 1);
    memmove(f->names + at + 1, f->names + at, (f->count - at) * sizeof *f->names);
    f->names[at] = copy;
    f->count++;
    return true;
}

static bool starts_with(const char *line, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return len >= n && memcmp(line, prefix, n) == 0;
}

/* A sample line's name: up to its labels or its value. */
static size_t sample_name_len(const char *line, size_t len) {
    size_t n = 0;
    while (n < len && line[n] != '{' && line[n] != ' ' && line[n] != '\t') {
        n++;
    }
    return n;
}

bool metrics_filter_apply(const struct metrics_filter *f, const char *text, size_t len, char **out,
                          size_t *out_len) {
    char *kept = malloc(len + 1);
    *out = NULL;
    if (kept == NULL) {
        return false;
    }
    size_t used = 0;
    /* The metadata lines of the family being read, written before its first kept sample. */
    const char *meta = NULL;
    size_t meta_len = 0;
    bool in_samples = false; /* a sample line came since the last metadata line */
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t line_len = (size_t)((newline != NULL ? newline : end) - line);
        size_t whole = line_len + (newline != NULL ? 1 : 0);
        if (starts_with(line, line_len, "# EOF")) {
            memcpy(kept + used, line, whole);
            used += whole;
        } else if (line_len > 0 && line[0] == '#') {
            if (in_samples || meta == NULL) { /* a new family's first metadata line */
                meta = line;
                meta_len = 0;
                in_samples = false;
            }
            meta_len = (size_t)(line + whole - meta);
        } else if (line_len > 0) {
            in_samples = true;
            bool found;
            position(f, line, sample_name_len(line, line_len), &found);
            if (found) {
                if (meta != NULL) {
                    memcpy(kept + used, meta, meta_len);
                    used += meta_len;
                    meta = NULL;
                }
                memcpy(kept + used, line, whole);
                used += whole;
            }
        }
        line += whole;
    }
    kept[used] = '\0';
    *out = kept;
    *out_len = used;
    return true;
}
