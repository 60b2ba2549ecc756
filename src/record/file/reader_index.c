/*
 * The reader's index (reader_index.h): the walk over record headers at open that builds the block
 * summaries, and the cache of open files.
 */
#include "record/file/reader_index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/file/format.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

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

bool rec_walk_header(struct rec_walker *w, unsigned long long at, struct rec_record_header *h) {
    if (at + REC_RECORD_HEADER > w->end) {
        return false;
    }
    if (at < w->buf_at || at + REC_RECORD_HEADER > w->buf_at + w->buf_len) {
        size_t want = w->end - at < REC_WINDOW ? (size_t)(w->end - at) : REC_WINDOW;
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

bool rec_is_frame(unsigned type) {
    return type == REC_KEYFRAME || type == REC_DELTA || type == REC_PATCH;
}

int rec_index_fd(const struct rec_index *x, uint32_t file, char *error, size_t error_size) {
    struct rec_index_cache *c = x->cache;
    struct rec_open_file *slot = &c->files[0];
    for (size_t i = 0; i < REC_OPEN_FILES; i++) {
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
    struct rec_walker w = {fd, size, x->cache->window, 0, 0};
    unsigned long long at = REC_FILE_HEADER;
    bool segment_open = false;
    struct rec_record_header h;
    while (rec_walk_header(&w, at, &h)) {
        if (h.type == REC_SEGMENT) {
            x->segments++;
            segment_open = true;
        } else if (rec_is_frame(h.type) && segment_open) {
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
    x->cache->window = xmalloc(REC_WINDOW);
    for (size_t i = 0; i < REC_CACHED_BLOCKS; i++) {
        x->cache->blocks[i].block = SIZE_MAX;
    }
    for (size_t i = 0; i < REC_OPEN_FILES; i++) {
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
        for (size_t i = 0; i < REC_CACHED_BLOCKS; i++) {
            free(x->cache->blocks[i].entries);
        }
        for (size_t i = 0; i < REC_OPEN_FILES; i++) {
            if (x->cache->files[i].fd >= 0) {
                close(x->cache->files[i].fd);
            }
        }
        free(x->cache->window);
        free(x->cache);
    }
    memset(x, 0, sizeof(*x));
}
