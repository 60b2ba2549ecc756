/*
 * The recording reader (reader.h).
 */
#include "record/file/reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "record/codec/patch.h"
#include "record/file/format.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

struct rec_entry {
    unsigned long long offset;
    double timestamp;
    uint32_t file;
    uint32_t segment; /* counts segments over the whole recording */
    uint32_t payload_size;
    uint32_t raw_size;
    unsigned char type;
    unsigned char flags;
};

struct rec_reader {
    int *fds;
    char **paths;
    size_t file_count;
    struct rec_entry *entries;
    size_t count;
    size_t cap;
    uint32_t segments;
    ZSTD_DCtx *dctx;
    size_t cached;       /* entry whose frame is in cache (and state), or SIZE_MAX */
    struct strbuf cache; /* the cached frame's message (keyframe, format-1 delta or patch) */
    struct strbuf scratch;
    struct frame *state; /* the cached frame decoded; NULL until a patch needs it */
    void *payload;
    size_t payload_cap;
    char warning[512];
};

static bool read_exact(int fd, void *buf, size_t size, unsigned long long at) {
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

static void add_entry(struct rec_reader *r, const struct rec_entry *e) {
    if (r->count == r->cap) {
        r->cap = r->cap == 0 ? 1024 : r->cap * 2;
        r->entries = xrealloc(r->entries, r->cap * sizeof(*r->entries));
    }
    r->entries[r->count++] = *e;
}

/* Are bytes [at, size) all zero?  A recorder reserves room past its last record (writer.h) and
 * gives it back when it closes the file; a recorder that is running or was killed leaves it, and
 * that is no damage. */
static bool zeros_from(int fd, unsigned long long at, unsigned long long size) {
    unsigned char buf[4096];
    while (at < size) {
        size_t n = size - at < sizeof(buf) ? (size_t)(size - at) : sizeof(buf);
        if (!read_exact(fd, buf, n, at)) {
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

/* Index one file's records.  False with a message when it is not a readable recording. */
static bool index_file(struct rec_reader *r, uint32_t file, char *error, size_t error_size) {
    int fd = r->fds[file];
    const char *path = r->paths[file];
    struct stat st;
    unsigned char head[REC_FILE_HEADER];
    char why[200];
    if (fstat(fd, &st) != 0) {
        snprintf(error, error_size, "%s: %s", path, strerror(errno));
        return false;
    }
    size_t have = st.st_size < REC_FILE_HEADER ? (size_t)st.st_size : REC_FILE_HEADER;
    if (!read_exact(fd, head, have, 0) || !rec_check_file_header(head, have, why, sizeof(why))) {
        snprintf(error, error_size, "%s: %s", path,
                 have < 8 ? "not an nvitop recording (too short)" : why);
        return false;
    }
    unsigned long long size = (unsigned long long)st.st_size;
    unsigned long long at = REC_FILE_HEADER;
    bool segment_open = false;
    while (at + REC_RECORD_HEADER <= size) {
        unsigned char rh[REC_RECORD_HEADER];
        struct rec_record_header h;
        if (!read_exact(fd, rh, sizeof(rh), at) || !rec_record_header_get(rh, &h) ||
            at + REC_RECORD_HEADER + h.payload_size > size) {
            break;
        }
        if (h.type == REC_SEGMENT) {
            r->segments++;
            segment_open = true;
        } else if ((h.type == REC_KEYFRAME || h.type == REC_DELTA || h.type == REC_PATCH) &&
                   segment_open) {
            struct rec_entry e = {at,
                                  h.timestamp,
                                  file,
                                  r->segments,
                                  h.payload_size,
                                  h.raw_size,
                                  (unsigned char)h.type,
                                  (unsigned char)h.flags};
            add_entry(r, &e);
        } /* other types: added by a later minor version, skipped */
        at += REC_RECORD_HEADER + h.payload_size;
    }
    if (at < size && r->warning[0] == '\0' && !zeros_from(fd, at, size)) {
        snprintf(r->warning, sizeof(r->warning),
                 "%s ends with %llu bytes that are not a whole record (a recorder stopped "
                 "mid-write?): they are ignored",
                 path, size - at);
    }
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix) {
    size_t n = strlen(name);
    size_t s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* The files of a directory recording, sorted by name (daily names sort by date). */
static bool list_directory(struct rec_reader *r, const char *path, char *error, size_t error_size) {
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
        if (r->file_count == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            r->paths = xrealloc(r->paths, cap * sizeof(*r->paths));
        }
        struct strbuf full = STRBUF_INIT;
        strbuf_appendf(&full, "%s/%s", path, ent->d_name);
        r->paths[r->file_count++] = strbuf_detach(&full);
    }
    closedir(dir);
    if (r->file_count == 0) {
        snprintf(error, error_size, "%s holds no recording (*.nvtrec)", path);
        return false;
    }
    qsort(r->paths, r->file_count, sizeof(*r->paths), compare_names);
    return true;
}

struct rec_reader *rec_reader_open(const char *path, char *error, size_t error_size) {
    struct rec_reader *r = xcalloc(1, sizeof(*r));
    r->cached = SIZE_MAX;
    struct stat st;
    bool ok = true;
    if (stat(path, &st) != 0) {
        snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
        ok = false;
    } else if (S_ISDIR(st.st_mode)) {
        ok = list_directory(r, path, error, error_size);
    } else {
        r->paths = xcalloc(1, sizeof(*r->paths));
        r->paths[0] = xstrdup(path);
        r->file_count = 1;
    }
    if (ok) {
        r->fds = xcalloc(r->file_count, sizeof(*r->fds));
        for (size_t i = 0; i < r->file_count; i++) {
            r->fds[i] = -1;
        }
    }
    for (size_t i = 0; ok && i < r->file_count; i++) {
        r->fds[i] = open(r->paths[i], O_RDONLY | O_CLOEXEC);
        if (r->fds[i] < 0) {
            snprintf(error, error_size, "cannot open %s: %s", r->paths[i], strerror(errno));
            ok = false;
        } else {
            ok = index_file(r, (uint32_t)i, error, error_size);
        }
    }
    if (ok && r->count == 0) {
        snprintf(error, error_size, "%s: the recording holds no whole frame", path);
        ok = false;
    }
    if (ok && (r->dctx = ZSTD_createDCtx()) == NULL) {
        snprintf(error, error_size, "out of memory");
        ok = false;
    }
    if (!ok) {
        rec_reader_close(r);
        return NULL;
    }
    return r;
}

void rec_reader_close(struct rec_reader *r) {
    if (r == NULL) {
        return;
    }
    for (size_t i = 0; i < r->file_count; i++) {
        if (r->fds != NULL && r->fds[i] >= 0) {
            close(r->fds[i]);
        }
        free(r->paths[i]);
    }
    free(r->fds);
    free(r->paths);
    free(r->entries);
    ZSTD_freeDCtx(r->dctx);
    strbuf_fini(&r->cache);
    strbuf_fini(&r->scratch);
    frame_free(r->state);
    free(r->payload);
    free(r);
}

size_t rec_reader_count(const struct rec_reader *r) {
    return r->count;
}

double rec_reader_time(const struct rec_reader *r, size_t i) {
    return r->entries[i].timestamp;
}

const char *rec_reader_warning(const struct rec_reader *r) {
    return r->warning;
}

/* Frames are in recording order; a clock stepped back makes times go back, so the search takes the
 * last frame at or before t among frames in time order from the start (binary search on the
 * usual monotonic case). */
size_t rec_reader_find(const struct rec_reader *r, double t) {
    size_t lo = 0;
    size_t hi = r->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->entries[mid].timestamp <= t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo == 0 ? SIZE_MAX : lo - 1;
}

/* Read entry i's payload and turn it into its message in out: decompressed (a keyframe; a
 * format-1 delta with prefix, the previous frame's message, as dictionary; a compressed patch
 * with the previous patch), or as it is (a patch). */
static bool inflate_entry(struct rec_reader *r, size_t i, const struct strbuf *prefix,
                          struct strbuf *out, char *error, size_t error_size) {
    const struct rec_entry *e = &r->entries[i];
    size_t total = REC_RECORD_HEADER + e->payload_size;
    if (r->payload_cap < total) {
        r->payload = xrealloc(r->payload, total);
        r->payload_cap = total;
    }
    unsigned char *buf = r->payload;
    if (!read_exact(r->fds[e->file], buf, total, e->offset) ||
        !rec_record_crc_ok(buf, buf + REC_RECORD_HEADER, e->payload_size)) {
        snprintf(error, error_size, "%s: the frame at byte %llu is damaged (checksum mismatch)",
                 r->paths[e->file], e->offset);
        return false;
    }
    strbuf_clear(out);
    if (!strbuf_reserve(out, e->raw_size + 1U)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    bool compressed = e->type != REC_PATCH || (e->flags & REC_FLAG_ZSTD) != 0;
    if (!compressed) {
        if (e->raw_size != e->payload_size) {
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (wrong size)",
                     r->paths[e->file], e->offset);
            return false;
        }
        memcpy(out->data, buf + REC_RECORD_HEADER, e->payload_size);
        out->len = e->payload_size;
        out->data[out->len] = '\0';
        return true;
    }
    ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
    if (e->type != REC_KEYFRAME && prefix != NULL && prefix->len > 0) {
        ZSTD_DCtx_refPrefix(r->dctx, prefix->data, prefix->len);
    }
    size_t n = ZSTD_decompressDCtx(r->dctx, out->data, e->raw_size, buf + REC_RECORD_HEADER,
                                   e->payload_size);
    if (ZSTD_isError(n) || n != e->raw_size) {
        snprintf(error, error_size, "%s: the frame at byte %llu cannot be decompressed (%s)",
                 r->paths[e->file], e->offset,
                 ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size");
        return false;
    }
    out->len = n;
    out->data[n] = '\0';
    return true;
}

static void swap_buffers(struct rec_reader *r) {
    struct strbuf swap = r->cache;
    r->cache = r->scratch;
    r->scratch = swap;
}

/* Make entry j (the one after r->cached, or the keyframe) the cached frame.  A keyframe or a
 * format-1 delta leaves its message in cache (state is decoded from it when a patch or the
 * caller needs it); a patch is applied to state, and its message kept as the next one's prefix. */
static bool advance(struct rec_reader *r, size_t j, char *error, size_t error_size) {
    const struct rec_entry *e = &r->entries[j];
    if (e->type != REC_PATCH) {
        if (!inflate_entry(r, j, &r->cache, &r->scratch, error, error_size)) {
            return false;
        }
        swap_buffers(r);
        frame_free(r->state);
        r->state = NULL;
        return true;
    }
    if (r->state == NULL) {
        if (r->cached == SIZE_MAX || r->entries[r->cached].type == REC_PATCH) {
            snprintf(error, error_size, "%s: a patch follows no frame", r->paths[e->file]);
            return false;
        }
        char why[200];
        if (!frame_decode(r->cache.data, r->cache.len, &r->state, why, sizeof(why))) {
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)",
                     r->paths[e->file], r->entries[r->cached].offset, why);
            return false;
        }
        strbuf_clear(&r->cache); /* a keyframe's message is no patch's prefix */
    }
    if (!inflate_entry(r, j, &r->cache, &r->scratch, error, error_size)) {
        return false;
    }
    swap_buffers(r);
    char why[200];
    if (!patch_apply(r->state, r->cache.data, r->cache.len, e->timestamp, why, sizeof(why))) {
        snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)", r->paths[e->file],
                 e->offset, why);
        return false;
    }
    return true;
}

bool rec_reader_frame(struct rec_reader *r, size_t i, struct frame **out, char *error,
                      size_t error_size) {
    if (i >= r->count) {
        snprintf(error, error_size, "no such frame");
        return false;
    }
    /* Back to the keyframe this frame depends on, within its segment. */
    size_t k = i;
    while (r->entries[k].type != REC_KEYFRAME) {
        if (k == 0 || r->entries[k - 1].segment != r->entries[i].segment) {
            snprintf(error, error_size, "%s: a segment starts without a keyframe",
                     r->paths[r->entries[i].file]);
            return false;
        }
        k--;
    }
    size_t start = k;
    if (r->cached != SIZE_MAX && r->cached >= k && r->cached <= i) {
        start = r->cached + 1; /* step forward from the frame decoded last */
    } else {
        r->cached = SIZE_MAX;
        frame_free(r->state);
        r->state = NULL;
    }
    for (size_t j = start; j <= i; j++) {
        if (!advance(r, j, error, error_size)) {
            r->cached = SIZE_MAX;
            frame_free(r->state);
            r->state = NULL;
            return false;
        }
        r->cached = j;
    }
    if (r->state == NULL) {
        char why[200];
        if (!frame_decode(r->cache.data, r->cache.len, out, why, sizeof(why))) {
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)",
                     r->paths[r->entries[i].file], r->entries[i].offset, why);
            return false;
        }
        return true;
    }
    *out = frame_copy(&r->state->snap, r->state->related, r->state->related_count);
    return true;
}
