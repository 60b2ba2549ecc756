/*
 * The reader's index (reader_index.h): the walk over record headers at open that builds the block
 * summaries, and the cache of open files.
 */
#include "record/file/reader_index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/file/file_format.h"
#include "record/file/scan.h"
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
    /* O_NONBLOCK: a FIFO put in a file's place cannot make the reader wait (index_file refuses
     * what is no regular file). */
    slot->fd = open(x->files[file].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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

/* A line of the notes (reader_index.h); past REC_MAX_NOTES lines only counted. */
__attribute__((format(printf, 2, 3))) static void add_note(struct rec_index *x, const char *fmt,
                                                           ...) {
    if (x->note_count++ >= REC_MAX_NOTES) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    if (x->notes.len > 0) {
        strbuf_append_char(&x->notes, '\n');
    }
    strbuf_vappendf(&x->notes, fmt, ap);
    va_end(ap);
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
    bool era = x->count == 0 || h->timestamp < x->last_time - REC_ERA_STEP_S;
    x->last_time = h->timestamp;
    if (x->count == 0 || h->timestamp < x->min_time) {
        x->min_time = h->timestamp;
    }
    if (x->count == 0 || h->timestamp > x->max_time) {
        x->max_time = h->timestamp;
    }
    const struct rec_index_block *last = x->block_count > 0 ? &x->blocks[x->block_count - 1] : NULL;
    if (last == NULL || last->file != file || x->count - last->first == REC_BLOCK_FRAMES ||
        x->split || era) {
        if (era) {
            if (x->era_count == x->era_cap) {
                x->era_cap = x->era_cap == 0 ? 4 : x->era_cap * 2;
                x->eras = xrealloc(x->eras, x->era_cap * sizeof(*x->eras));
                x->era_ends = xrealloc(x->era_ends, x->era_cap * sizeof(*x->era_ends));
            }
            x->eras[x->era_count++] = x->block_count;
        }
        if (x->block_count == x->block_cap) {
            x->block_cap = x->block_cap == 0 ? 64 : x->block_cap * 2;
            x->blocks = xrealloc(x->blocks, x->block_cap * sizeof(*x->blocks));
        }
        bool keyed = key->frame != SIZE_MAX && key->segment == x->segments;
        x->blocks[x->block_count++] = (struct rec_index_block){
            at, h->timestamp, x->count, keyed ? key->frame : SIZE_MAX, file, x->segments};
        x->split = false;
    }
    x->era_ends[x->era_count - 1] = h->timestamp;
    x->count++;
}

/* Take back the frame added last (its record turned out damaged). */
static void drop_last_frame(struct rec_index *x) {
    x->count--;
    if (x->block_count > 0 && x->blocks[x->block_count - 1].first == x->count) {
        x->block_count--;
        if (x->era_count > 0 && x->eras[x->era_count - 1] >= x->block_count) {
            x->era_count--;
        }
    }
}

/* One file's walk: where it is, the damaged span said once the frames lost after it are known. */
struct walk {
    const char *path;
    int fd;
    unsigned long long size;
    bool segment_open;
    bool damaged; /* frames are left out until the next keyframe or segment */
    size_t lost;  /* frames lost in and after the damaged span */
    unsigned long long damage_from;
    unsigned long long damage_to;
    size_t unknown; /* records of unknown types skipped */
    unsigned unknown_type;
    unsigned long long unknown_at;
    unsigned char *buf; /* payloads read for CRC checks */
    size_t cap;
    /* Frames whose headers the damage destroyed are estimated from the time between the frames
     * around it, at the spacing of the two frames before it. */
    size_t recognised; /* frames of the span known by their headers */
    bool estimate;     /* the first frame after the span is still to come */
    double times[3];   /* the times of the last three frames, newest last */
    size_t time_count;
};

static void push_time(struct walk *k, double t) {
    k->times[0] = k->times[1];
    k->times[1] = k->times[2];
    k->times[2] = t;
    k->time_count++;
}

/* The first frame after a damaged span, at time t: the frames the span held. */
static void estimate_lost(struct walk *k, double t) {
    k->estimate = false;
    if (k->time_count < 2) {
        return;
    }
    double last = k->times[2];
    double gap = last - k->times[1];
    if (!(gap > 0) || !(t > last)) {
        return;
    }
    double missing = (t - last) / gap - 1.0;
    if (missing > (double)k->recognised && missing < 1e9) {
        k->lost += (size_t)(missing + 0.5) - k->recognised;
    }
}

static void say_damage(struct rec_index *x, struct walk *k) {
    if (!k->damaged) {
        return;
    }
    add_note(x, "%s: damaged from byte %llu to byte %llu: %zu frame%s lost", k->path,
             k->damage_from, k->damage_to, k->lost, k->lost == 1 ? "" : "s");
    k->damaged = false;
    k->lost = 0;
}

/* A damaged span [from, to): no frame after it depends on one before it (a new segment in the
 * index, a new block). */
static void start_damage(struct rec_index *x, struct walk *k, unsigned long long from,
                         unsigned long long to, size_t lost) {
    k->estimate = true;
    if (k->damaged && k->damage_to == from) {
        k->damage_to = to; /* one span, one note */
        k->lost += lost;
        k->recognised += lost;
        return;
    }
    say_damage(x, k);
    k->segment_open = true; /* the segment record may be what was lost: frames follow anyway */
    k->damaged = true;
    k->damage_from = from;
    k->damage_to = to;
    k->lost = lost;
    k->recognised = lost;
    x->segments++;
    x->split = true;
}

/* A whole record whose header the walk parsed. */
static void walk_record(struct rec_index *x, uint32_t file, struct walk *k, unsigned long long at,
                        const struct rec_record_header *h, struct last_key *key) {
    if (h->type == REC_SEGMENT) {
        /* A writer's start: its payload is not needed to read frames, but its damage is said
         * (one small record per writer run). */
        if (!rec_scan_crc_ok(k->fd, at, h, &k->buf, &k->cap)) {
            start_damage(x, k, at, at + REC_RECORD_HEADER + h->payload_size, 0);
            k->damaged = true;
        }
        say_damage(x, k);
        k->estimate = false; /* a new writer run: its spacing is its own */
        k->time_count = 0;
        x->segments++;
        k->segment_open = true;
        return;
    }
    if (!rec_is_frame(h->type)) {
        /* Added by a later minor version, or a frame whose type byte is damaged: the CRC says. */
        if (rec_scan_crc_ok(k->fd, at, h, &k->buf, &k->cap)) {
            if (k->unknown++ == 0) {
                k->unknown_type = h->type;
                k->unknown_at = at;
            }
        } else {
            start_damage(x, k, at, at + REC_RECORD_HEADER + h->payload_size, 1);
        }
        return;
    }
    if (!k->segment_open) {
        return;
    }
    if (k->estimate) {
        estimate_lost(k, h->timestamp);
    }
    push_time(k, h->timestamp);
    if (k->damaged && h->type != REC_KEYFRAME) {
        k->lost++; /* depends on a frame lost in the damage */
        return;
    }
    say_damage(x, k);
    add_frame(x, file, at, h, key);
}

/* The walk stopped at `at` (no whole record there), after the record at prev (or none).  True
 * with *next where reading resumes; false at the end of the file. */
static bool resync(struct rec_index *x, struct walk *k, unsigned long long prev, bool prev_frame,
                   unsigned long long *at) {
    unsigned long long from = *at;
    bool zeros = rec_scan_zeros(k->fd, from, k->size);
    size_t lost = 0;
    struct rec_record_header h;
    unsigned char head[REC_RECORD_HEADER];
    /* The previous record's length may be what is damaged: then its CRC fails too, and the
     * records it seemed to cover are searched again. */
    if (prev != 0 && rec_read_exact(k->fd, head, sizeof(head), prev) &&
        rec_record_header_get(head, &h) && !rec_scan_crc_ok(k->fd, prev, &h, &k->buf, &k->cap)) {
        from = prev;
        if (prev_frame && !k->damaged) {
            drop_last_frame(x);
            lost++;
            k->times[2] = k->times[1];
            k->times[1] = k->times[0];
            k->time_count = k->time_count > 0 ? k->time_count - 1 : 0;
        }
    }
    if (zeros && from == *at) {
        return false; /* a running or killed writer's reserved room */
    }
    unsigned long long next =
        zeros ? k->size : rec_scan_next(k->fd, from + 1, k->size, &lost, &k->buf, &k->cap);
    if (next >= k->size && from == *at) {
        say_damage(x, k);
        add_note(x,
                 "%s ends with %llu bytes that are not a whole record (a recorder stopped "
                 "mid-write?): they are ignored",
                 k->path, k->size - from);
        return false;
    }
    unsigned char magic[8];
    if (next == from + REC_FILE_HEADER && rec_read_exact(k->fd, magic, sizeof(magic), from) &&
        memcmp(magic, REC_MAGIC, sizeof(magic)) == 0) {
        /* Another recording's file header: two files joined (cat a b > c), no damage. */
        say_damage(x, k);
        add_note(x, "%s: another recording begins at byte %llu (files joined?)", k->path, from);
        x->segments++;
        x->split = true;
    } else {
        start_damage(x, k, from, next, lost);
    }
    *at = next;
    return next < k->size;
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
    if (!S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "%s: not a regular file", path);
        return false;
    }
    size_t have = st.st_size < REC_FILE_HEADER ? (size_t)st.st_size : REC_FILE_HEADER;
    if (!rec_read_exact(fd, head, have, 0) ||
        !rec_check_file_header(head, have, why, sizeof(why))) {
        snprintf(error, error_size, "%s: %s", path,
                 have == 0  ? "empty, not an nvitop recording"
                 : have < 8 ? "not an nvitop recording (too short)"
                            : why);
        return false;
    }
    struct walk k = {.path = path, .fd = fd, .size = (unsigned long long)st.st_size};
    struct rec_walker w = {fd, k.size, x->cache->window, 0, 0};
    unsigned long long at = REC_FILE_HEADER;
    unsigned long long prev = 0;
    bool prev_frame = false;
    for (;;) {
        struct rec_record_header h;
        if (rec_walk_header(&w, at, &h)) {
            size_t count = x->count;
            walk_record(x, file, &k, at, &h, key);
            prev = at;
            prev_frame = x->count > count;
            at += REC_RECORD_HEADER + h.payload_size;
            continue;
        }
        if (at >= k.size || !resync(x, &k, prev, prev_frame, &at)) {
            break;
        }
        prev = 0; /* the record found is whole, CRC checked */
        prev_frame = false;
    }
    say_damage(x, &k);
    if (k.unknown > 0) {
        add_note(x,
                 "%s: skipped %zu record%s of a type this nvitop does not know (the first, "
                 "type %u, at byte %llu; written by a newer nvitop?)",
                 path, k.unknown, k.unknown == 1 ? "" : "s", k.unknown_type, k.unknown_at);
    }
    free(k.buf);
    x->files[file].end = k.size;
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
        struct strbuf full = STRBUF_INIT;
        strbuf_appendf(&full, "%s/%s", path, ent->d_name);
        /* Nothing but regular files is opened: a FIFO, a socket or a device could block or
         * answer anything. */
        struct stat st;
        bool found = stat(strbuf_cstr(&full), &st) == 0;
        if (!found || !S_ISREG(st.st_mode)) {
            int err = errno;
            add_note(x, "skipped %s: %s", strbuf_cstr(&full),
                     found ? (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file")
                     : lstat(strbuf_cstr(&full), &st) == 0 ? "a dangling link"
                                                           : strerror(err));
            strbuf_fini(&full);
            continue;
        }
        if (x->file_count == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            x->files = xrealloc(x->files, cap * sizeof(*x->files));
        }
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
    bool directory = ok && S_ISDIR(st.st_mode);
    for (size_t i = 0; ok && i < x->file_count; i++) {
        char why[512];
        if (index_file(x, (uint32_t)i, &key, why, sizeof(why))) {
            continue;
        }
        if (!directory) {
            snprintf(error, error_size, "%s", why);
            ok = false;
        } else {
            /* Junk in a directory (an empty file, another program's file, a FIFO) is no reason
             * to show nothing of the days around it. */
            add_note(x, "skipped %s", why);
            x->segments++;
            x->split = true;
        }
    }
    if (ok && x->note_count > REC_MAX_NOTES) {
        size_t more = x->note_count - REC_MAX_NOTES;
        strbuf_appendf(&x->notes, "\n... and %zu more note%s like these", more,
                       more == 1 ? "" : "s");
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
    free(x->eras);
    free(x->era_ends);
    strbuf_fini(&x->notes);
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
