/*
 * The reader's index (reader_index.h): the walk over record headers, the block summaries and the
 * caches of rebuilt blocks and open files.
 */
#include "reader_index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/format.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Two blocks in use (a keyframe group across a block boundary) and a couple more for searches and
 * a step back: 4 x 40 KiB.  Four files open at most, whatever the number of daily files. */
#define CACHED_BLOCKS 4
#define OPEN_FILES    4
/* Headers are read through a window of this many bytes: frames of a few hundred bytes then cost
 * one read per window, not one per header. */
#define WINDOW (64U << 10)

struct rec_index_file {
    char *path;
    unsigned long long end; /* where its whole records end, as the walk at open found */
};

struct rec_index_block {
    unsigned long long offset; /* its first frame's record */
    double first_time;
    size_t first; /* its first frame's number */
    size_t key;   /* the keyframe its first frame depends on, or SIZE_MAX (none in its segment) */
    uint32_t file;
    uint32_t segment; /* its first frame's */
};

struct loaded_block {
    size_t block; /* SIZE_MAX: empty */
    unsigned long long used;
    struct rec_entry *entries; /* REC_BLOCK_FRAMES */
};

struct open_file {
    uint32_t file;
    int fd; /* -1: empty */
    unsigned long long used;
};

struct rec_index_cache {
    struct loaded_block blocks[CACHED_BLOCKS];
    struct open_file files[OPEN_FILES];
    unsigned long long tick;
    unsigned char *window;
};

/* Record headers read in order through the window. */
struct walker {
    int fd;
    unsigned long long end;
    unsigned char *buf;
    unsigned long long buf_at;
    size_t buf_len;
};

bool rec_read_exact(int fd, void *buf, size_t size, unsigned long long at) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(fd, (char *)buf + done, size - done, (off_t)(at + done));
        if (n <= 0) {
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

/* The header of the record at at, when it is whole and its payload ends by w->end. */
static bool walk_header(struct walker *w, unsigned long long at, struct rec_record_header *h) {
    if (at + REC_RECORD_HEADER > w->end) {
        return false;
    }
    if (at < w->buf_at || at + REC_RECORD_HEADER > w->buf_at + w->buf_len) {
        size_t want = w->end - at < WINDOW ? (size_t)(w->end - at) : WINDOW;
        ssize_t n = pread(w->fd, w->buf, want, (off_t)at);
        w->buf_at = at;
        w->buf_len = n > 0 ? (size_t)n : 0;
        if (w->buf_len < REC_RECORD_HEADER) {
            return false;
        }
    }
    return rec_record_header_get(w->buf + (at - w->buf_at), h) &&
           at + REC_RECORD_HEADER + h->payload_size <= w->end;
}

static bool is_frame(unsigned type) {
    return type == REC_KEYFRAME || type == REC_DELTA || type == REC_PATCH;
}

int rec_index_fd(const struct rec_index *x, uint32_t file, char *error, size_t error_size) {
    struct rec_index_cache *c = x->cache;
    struct open_file *slot = &c->files[0];
    for (size_t i = 0; i < OPEN_FILES; i++) {
        if (c->files[i].fd >= 0 && c->files[i].file == file) {
            c->files[i].used = ++c->tick;
            return c->files[i].fd;
        }
        if (c->files[i].used < slot->used) {
            slot = &c->files[i];
        }
    }
    if (slot->fd >= 0) {
        close(slot->fd);
    }
    slot->fd = open(x->files[file].path, O_RDONLY | O_CLOEXEC);
    if (slot->fd < 0) {
        snprintf(error, error_size, "cannot open %s: %s", x->files[file].path, strerror(errno));
        slot->used = 0;
        return -1;
    }
    slot->file = file;
    slot->used = ++c->tick;
    return slot->fd;
}

const char *rec_index_path(const struct rec_index *x, uint32_t file) {
    return x->files[file].path;
}

/* Are bytes [at, size) all zero?  A recorder reserves room past its last record (writer.h) and
 * gives it back when it closes the file; a recorder that is running or was killed leaves it, and
 * that is no damage. */
static bool zeros_from(int fd, unsigned long long at, unsigned long long size) {
    unsigned char buf[4096];
    while (at < size) {
        size_t n = size - at < sizeof(buf) ? (size_t)(size - at) : sizeof(buf);
        if (!rec_read_exact(fd, buf, n, at)) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (buf[i] != 0) {
                return false;
            }
        }
        at += n;
    }
    return true;
}

/* The walk's state across files: the last keyframe and its segment. */
struct last_key {
    size_t frame; /* SIZE_MAX: none yet */
    uint32_t segment;
};

static void add_frame(struct rec_index *x, uint32_t file, unsigned long long at,
                      const struct rec_record_header *h, struct last_key *key) {
    if (h->type == REC_KEYFRAME) {
        key->frame = x->count;
        key->segment = x->segments;
    }
    const struct rec_index_block *last = x->block_count > 0 ? &x->blocks[x->block_count - 1] : NULL;
    if (last == NULL || last->file != file || x->count - last->first == REC_BLOCK_FRAMES) {
        if (x->block_count == x->block_cap) {
            x->block_cap = x->block_cap == 0 ? 64 : x->block_cap * 2;
            x->blocks = xrealloc(x->blocks, x->block_cap * sizeof(*x->blocks));
        }
        bool keyed = key->frame != SIZE_MAX && key->segment == x->segments;
        x->blocks[x->block_count++] = (struct rec_index_block){
            at, h->timestamp, x->count, keyed ? key->frame : SIZE_MAX, file, x->segments};
    }
    x->count++;
}

/* Walk one file's records.  False with a message when it is not a readable recording. */
static bool index_file(struct rec_index *x, uint32_t file, struct last_key *key, char *error,
                       size_t error_size) {
    const char *path = x->files[file].path;
    int fd = rec_index_fd(x, file, error, error_size);
    struct stat st;
    unsigned char head[REC_FILE_HEADER];
    char why[200];
    if (fd < 0) {
        return false;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(error, error_size, "%s: %s", path, strerror(errno));
        return false;
    }
    size_t have = st.st_size < REC_FILE_HEADER ? (size_t)st.st_size : REC_FILE_HEADER;
    if (!rec_read_exact(fd, head, have, 0) ||
        !rec_check_file_header(head, have, why, sizeof(why))) {
        snprintf(error, error_size, "%s: %s", path,
                 have < 8 ? "not an nvitop recording (too short)" : why);
        return false;
    }
    unsigned long long size = (unsigned long long)st.st_size;
    struct walker w = {fd, size, x->cache->window, 0, 0};
    unsigned long long at = REC_FILE_HEADER;
    bool segment_open = false;
    struct rec_record_header h;
    while (walk_header(&w, at, &h)) {
        if (h.type == REC_SEGMENT) {
            x->segments++;
            segment_open = true;
        } else if (is_frame(h.type) && segment_open) {
            add_frame(x, file, at, &h, key);
        } /* other types: added by a later minor version, skipped */
        at += REC_RECORD_HEADER + h.payload_size;
    }
    x->files[file].end = at;
    if (at < size && x->warning[0] == '\0' && !zeros_from(fd, at, size)) {
        snprintf(x->warning, sizeof(x->warning),
                 "%s ends with %llu bytes that are not a whole record (a recorder stopped "
                 "mid-write?): they are ignored",
                 path, size - at);
    }
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(((const struct rec_index_file *)a)->path,
                  ((const struct rec_index_file *)b)->path);
}

static bool has_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name);
    size_t s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* The files of a directory recording, sorted by name (daily names sort by date). */
static bool list_directory(struct rec_index *x, const char *path, char *error, size_t error_size) {
    DIR *dir = opendir(path);
    if (dir == NULL) {
        snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 0;
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        if (!has_suffix(ent->d_name, ".nvtrec")) {
            continue;
        }
        if (x->file_count == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            x->files = xrealloc(x->files, cap * sizeof(*x->files));
        }
        struct strbuf full = STRBUF_INIT;
        strbuf_appendf(&full, "%s/%s", path, ent->d_name);
        x->files[x->file_count++] = (struct rec_index_file){strbuf_detach(&full), 0};
    }
    closedir(dir);
    if (x->file_count == 0) {
        snprintf(error, error_size, "%s holds no recording (*.nvtrec)", path);
        return false;
    }
    qsort(x->files, x->file_count, sizeof(*x->files), compare_names);
    return true;
}

bool rec_index_open(struct rec_index *x, const char *path, char *error, size_t error_size) {
    memset(x, 0, sizeof(*x));
    x->cache = xcalloc(1, sizeof(*x->cache));
    x->cache->window = xmalloc(WINDOW);
    for (size_t i = 0; i < CACHED_BLOCKS; i++) {
        x->cache->blocks[i].block = SIZE_MAX;
    }
    for (size_t i = 0; i < OPEN_FILES; i++) {
        x->cache->files[i].fd = -1;
    }
    struct stat st;
    bool ok = true;
    if (stat(path, &st) != 0) {
        snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
        ok = false;
    } else if (S_ISDIR(st.st_mode)) {
        ok = list_directory(x, path, error, error_size);
    } else {
        x->files = xcalloc(1, sizeof(*x->files));
        x->files[0].path = xstrdup(path);
        x->file_count = 1;
    }
    struct last_key key = {SIZE_MAX, 0};
    for (size_t i = 0; ok && i < x->file_count; i++) {
        ok = index_file(x, (uint32_t)i, &key, error, error_size);
    }
    if (!ok) {
        rec_index_fini(x);
        x->cache = NULL;
    }
    return ok;
}

void rec_index_fini(struct rec_index *x) {
    for (size_t i = 0; i < x->file_count; i++) {
        free(x->files[i].path);
    }
    free(x->files);
    free(x->blocks);
    if (x->cache != NULL) {
        for (size_t i = 0; i < CACHED_BLOCKS; i++) {
            free(x->cache->blocks[i].entries);
        }
        for (size_t i = 0; i < OPEN_FILES; i++) {
            if (x->cache->files[i].fd >= 0) {
                close(x->cache->files[i].fd);
            }
        }
        free(x->cache->window);
        free(x->cache);
    }
    memset(x, 0, sizeof(*x));
}

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
    struct walker w = {fd, x->files[block->file].end, x->cache->window, 0, 0};
    unsigned long long at = block->offset;
    uint32_t segment = block->segment;
    size_t got = 0;
    struct rec_record_header h;
    while (got < n && walk_header(&w, at, &h)) {
        if (h.type == REC_SEGMENT) {
            segment++;
        } else if (is_frame(h.type)) {
            entries[got++] = (struct rec_entry){at,
                                                h.timestamp,
                                                block->file,
                                                segment,
                                                h.payload_size,
                                                h.raw_size,
                                                (unsigned char)h.type,
                                                (unsigned char)h.flags};
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
    struct loaded_block *slot = &c->blocks[0];
    for (size_t i = 0; i < CACHED_BLOCKS; i++) {
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

/* Binary search for the partition point, over the blocks' first times and then in the block:
 * with times that rise (the usual case) the last frame at or before t. */
size_t rec_index_find(const struct rec_index *x, double t) {
    size_t lo = 0;
    size_t hi = x->block_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->blocks[mid].first_time <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0) {
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
