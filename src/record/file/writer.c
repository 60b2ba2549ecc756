/*
 * The recording writer (writer.h): file header, recovery of a torn tail, segment records, zstd
 * keyframes and patches (the fields that changed since the previous frame, patch.h).
 */
#include "record/file/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/version.h>

#include "record/codec/frame.h"
#include "record/codec/patch.h"
#include "record/codec/wire.h"
#include "record/file/file_format.h"
#include "record/file/scan.h"
#include "record/file/zstd_api.h"
#include "util/sys/clock.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

/* Room reserved (fallocate) and mapped past the end of the file at a time. */
#define MAP_CHUNK (256U << 10)

struct rec_writer {
    int fd;
    double interval_s;       /* for the segment records */
    bool need_segment;       /* a write failed: the next frame starts a new segment */
    unsigned last_type;      /* of the last record written */
    unsigned long long size; /* of the records; the file may have reserved room past it */
    unsigned char *map;      /* [map_start, reserved) of the file, or NULL: write() instead */
    unsigned long long map_start;
    unsigned long long reserved;
    long page;
    unsigned keyframe_every;
    unsigned since_keyframe; /* frames since the last keyframe; keyframe_every forces one */
    struct zstd_api zstd;
    ZSTD_CCtx *cctx;
    struct frame *previous; /* the last frame written, what the next patch is against */
    struct strbuf current;
    struct strbuf last_patch; /* the next patch's zstd prefix; empty after a keyframe */
    void *packed;
    size_t packed_cap;
    void *compressed;
    size_t compressed_cap;
};

static bool read_exact(int fd, void *buf, size_t size, off_t at) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = pread(fd, (char *)buf + done, size - done, at + (off_t)done);
        if (n <= 0) {
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

static bool write_all(int fd, const void *buf, size_t size) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, (const char *)buf + done, size - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

/* What a writer found in an existing file (inspect()). */
struct found {
    unsigned long long end;  /* where the new records go */
    unsigned long long torn; /* bytes of a torn tail cut (beyond zeros), or 0 */
    size_t damaged;          /* damaged spans kept */
    unsigned long long first_damage;
    size_t headers; /* another recording's file header inside this one (concatenated files) */
    unsigned long long trailing; /* bytes after the last whole record, kept */
};

/* Check an existing file record by record (CRC included), reading past damage as a reader does:
 * only a torn tail (scan.h) may be cut. */
static void inspect(int fd, unsigned long long size, struct found *f) {
    unsigned char *buf = NULL;
    size_t cap = 0;
    unsigned long long at = REC_FILE_HEADER;
    unsigned long long last = at; /* the end of the last whole record */
    memset(f, 0, sizeof(*f));
    while (at < size) {
        unsigned char head[REC_RECORD_HEADER];
        struct rec_record_header h;
        if (at + REC_RECORD_HEADER <= size && read_exact(fd, head, sizeof(head), (off_t)at) &&
            rec_record_header_get(head, &h) && at + REC_RECORD_HEADER + h.payload_size <= size &&
            rec_scan_crc_ok(fd, at, &h, &buf, &cap)) {
            at += REC_RECORD_HEADER + h.payload_size;
            last = at;
            continue;
        }
        unsigned long long next = rec_scan_next(fd, at + 1, size, NULL, &buf, &cap);
        if (next >= size) {
            break;
        }
        unsigned char magic[8];
        if (read_exact(fd, magic, sizeof(magic), (off_t)at) && memcmp(magic, REC_MAGIC, 8) == 0) {
            f->headers++;
        } else if (f->damaged++ == 0) {
            f->first_damage = at;
        }
        at = next;
    }
    free(buf);
    f->end = size;
    if (last < size && rec_scan_torn_tail(fd, last, size)) {
        f->end = last;
        f->torn = rec_scan_zeros(fd, last, size) ? 0 : size - last;
    } else {
        f->trailing = size - last;
    }
}

/* The one line a writer says about what it found, or nothing when all was as expected. */
static void say_found(const struct rec_writer_options *options, const char *path,
                      const struct found *f) {
    if (options->note == NULL ||
        (f->torn == 0 && f->damaged == 0 && f->headers == 0 && f->trailing == 0)) {
        return;
    }
    struct strbuf text = STRBUF_INIT;
    strbuf_appendf(&text, "%s:", path);
    const char *sep = " ";
    if (f->torn != 0) {
        strbuf_appendf(&text, "%scut a torn last record (%llu bytes)", sep, f->torn);
        sep = "; ";
    }
    if (f->damaged != 0) {
        strbuf_appendf(&text, "%skept %zu damaged span%s (the first at byte %llu)", sep, f->damaged,
                       f->damaged == 1 ? "" : "s", f->first_damage);
        sep = "; ";
    }
    if (f->headers != 0) {
        strbuf_appendf(&text, "%skept %zu other recording%s appended to it", sep, f->headers,
                       f->headers == 1 ? "" : "s");
        sep = "; ";
    }
    if (f->trailing != 0) {
        strbuf_appendf(&text, "%skept %llu bytes at its end that are no whole record", sep,
                       f->trailing);
    }
    strbuf_appendf(&text, "; appending a new segment after %s",
                   f->torn != 0 && f->damaged == 0 && f->headers == 0 ? "its last whole record"
                                                                      : "them");
    options->note(options->note_arg, strbuf_cstr(&text));
    strbuf_fini(&text);
}

/* Make the mapping cover total more bytes after the records: reserve the room with
 * posix_fallocate (so that a full disk is an error here, not a SIGBUS on a store) and map it. */
static bool map_room(struct rec_writer *w, size_t total) {
    if (w->map != NULL && w->size + total <= w->reserved) {
        return true;
    }
    if (w->map != NULL) {
        munmap(w->map, (size_t)(w->reserved - w->map_start));
        w->map = NULL;
    }
    unsigned long long start = w->size - w->size % (unsigned long long)w->page;
    unsigned long long end = w->size + total + MAP_CHUNK;
    end -= end % (unsigned long long)w->page;
    if (posix_fallocate(w->fd, (off_t)w->size, (off_t)(end - w->size)) != 0) {
        return false;
    }
    void *map =
        mmap(NULL, (size_t)(end - start), PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, (off_t)start);
    if (map == MAP_FAILED) {
        return false;
    }
    w->map = map;
    w->map_start = start;
    w->reserved = end;
    return true;
}

/* Append a record.  Into the mapping when there is one: the payload first, then the header with
 * its magic last, so that a writer killed at any point leaves either a whole record or bytes that
 * do not start with a record's magic (the reserved room is zeros); the page cache keeps what was
 * stored when the process dies.  Else with one write(), whose partial result is cut. */
static bool write_record(struct rec_writer *w, unsigned type, unsigned flags, double timestamp,
                         const void *payload, size_t size, size_t raw_size) {
    unsigned char head[REC_RECORD_HEADER];
    struct rec_record_header h = {type, flags, (uint32_t)size, (uint32_t)raw_size, timestamp, 0};
    rec_record_header_put(head, &h, payload);
    size_t total = sizeof(head) + size;
    if (map_room(w, total)) {
        unsigned char *at = w->map + (w->size - w->map_start);
        memcpy(at + sizeof(head), payload, size);
        memcpy(at + 4, head + 4, sizeof(head) - 4);
        /* The magic last, also for a reader on another CPU (a no-op on x86-64). */
        atomic_thread_fence(memory_order_release);
        memcpy(at, head, 4);
        w->size += total;
        w->last_type = type;
        return true;
    }
    /* One buffer, one write(): a kill leaves a prefix of this record, never a mix. */
    if (w->packed_cap < total) {
        w->packed = xrealloc(w->packed, total);
        w->packed_cap = total;
    }
    memcpy(w->packed, head, sizeof(head));
    memcpy((char *)w->packed + sizeof(head), payload, size);
    if (lseek(w->fd, (off_t)w->size, SEEK_SET) < 0 || !write_all(w->fd, w->packed, total)) {
        /* Cut what was written of this record, so that the next one follows a whole one. */
        int saved = errno;
        (void)!ftruncate(w->fd, (off_t)w->size);
        errno = saved;
        return false;
    }
    w->size += total;
    w->last_type = type;
    return true;
}

static bool write_segment(struct rec_writer *w) {
    struct strbuf msg = STRBUF_INIT;
    wire_put_string(&msg, 1, "nvitop " NVT_VERSION_STRING);
    char host[256] = "";
    (void)gethostname(host, sizeof(host) - 1);
    wire_put_string(&msg, 2, host);
    wire_put_double(&msg, 3, w->interval_s);
    double now = clock_wall_s();
    wire_put_double(&msg, 4, now);
    bool ok = write_record(w, REC_SEGMENT, 0, now, msg.data != NULL ? msg.data : "", msg.len, 0);
    strbuf_fini(&msg);
    return ok;
}

struct rec_writer *rec_writer_open(const char *path, const struct rec_writer_options *options,
                                   char *error, size_t error_size) {
    /* A recording holds user names and command lines: private unless asked otherwise, whatever
     * the umask (fchmod below).  O_NONBLOCK: a FIFO of that name is refused, not waited for. */
    unsigned mode = options->mode != 0 ? options->mode : 0600;
    bool created = false;
    bool unlink_on_fail = false; /* a file we created and could not start: no empty file left */
    struct rec_writer *w = NULL;
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK, mode);
    if (fd >= 0) {
        created = true;
    } else if (errno == EEXIST) {
        fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
    }
    if (fd < 0) {
        snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
        goto fail;
    }
    /* One writer per file: two appending at once would interleave their records. */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(error, error_size, "%s is being recorded by another process", path);
        goto fail;
    }
    struct stat st;
    off_t end = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(error, error_size, "%s is not a regular file", path);
        goto fail;
    }
    if (created && fchmod(fd, (mode_t)mode) != 0) {
        snprintf(error, error_size, "cannot set the permissions of %s: %s", path, strerror(errno));
        goto fail;
    }
    if (st.st_size > 0) {
        unsigned char head[REC_FILE_HEADER] = {0};
        size_t have = st.st_size < REC_FILE_HEADER ? (size_t)st.st_size : REC_FILE_HEADER;
        char why[160];
        if (!read_exact(fd, head, have, 0) ||
            !rec_check_file_header(head, have, why, sizeof(why))) {
            snprintf(error, error_size, "%s: %s; not appending to it", path,
                     have < REC_FILE_HEADER ? "not an nvitop recording" : why);
            goto fail;
        }
        /* Patches in a file whose header says format 1 would be skipped by format-1 readers. */
        if (rec_get_u16(head + 8) < REC_VERSION_MAJOR) {
            snprintf(error, error_size,
                     "%s: recorded by an older nvitop (format %u.%u); not appending to it", path,
                     rec_get_u16(head + 8), rec_get_u16(head + 10));
            goto fail;
        }
        struct found found;
        inspect(fd, (unsigned long long)st.st_size, &found);
        say_found(options, path, &found);
        end = (off_t)found.end;
    }
    unlink_on_fail = created;
    bool ok = true;
    if (end == 0) {
        unsigned char head[REC_FILE_HEADER];
        rec_file_header(head);
        ok = ftruncate(fd, 0) == 0 && write_all(fd, head, sizeof(head));
        end = REC_FILE_HEADER;
    } else if (end < st.st_size) {
        ok = ftruncate(fd, end) == 0; /* a torn record or zeros left by a killed writer */
    }
    if (!ok || lseek(fd, end, SEEK_SET) < 0) {
        int err = errno;
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(err));
        errno = err;
        goto fail;
    }
    w = xcalloc(1, sizeof(*w));
    w->fd = fd;
    fd = -1; /* the writer's now */
    w->interval_s = options->interval_s;
    w->size = (unsigned long long)end;
    w->page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    w->keyframe_every =
        options->keyframe_every != 0 ? options->keyframe_every : REC_KEYFRAME_EVERY_DEFAULT;
    w->since_keyframe = w->keyframe_every;
    if (!zstd_api_open(&w->zstd, error, error_size)) {
        errno = ENOENT;
        goto fail;
    }
    w->cctx = w->zstd.create_cctx();
    if (w->cctx == NULL) {
        snprintf(error, error_size, "out of memory");
        errno = ENOMEM;
        goto fail;
    }
    w->zstd.cctx_set_parameter(w->cctx, ZSTD_c_compressionLevel,
                               options->level != 0 ? options->level : 3);
    if (!write_segment(w)) {
        int err = errno;
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(err));
        errno = err;
        goto fail;
    }
    return w;

fail : {
    int saved = errno;
    rec_writer_close(w);
    if (fd >= 0) {
        close(fd);
    }
    if (unlink_on_fail) {
        unlink(path);
    }
    errno = saved;
    return NULL;
}
}

/* zstd-compress src into the writer's buffer, with prefix (may be empty) as dictionary. */
static size_t compress(struct rec_writer *w, const struct strbuf *src,
                       const struct strbuf *prefix) {
    size_t bound = w->zstd.compress_bound(src->len);
    if (w->compressed_cap < bound) {
        w->compressed = xrealloc(w->compressed, bound);
        w->compressed_cap = bound;
    }
    w->zstd.cctx_reset(w->cctx, ZSTD_reset_session_only);
    if (prefix != NULL && prefix->len > 0) {
        w->zstd.cctx_ref_prefix(w->cctx, prefix->data, prefix->len);
    }
    return w->zstd.compress2(w->cctx, w->compressed, bound, src->data, src->len);
}

/* A patch against the previous frame; false when the frame needs a keyframe instead. */
static bool append_patch(struct rec_writer *w, const struct nvt_snapshot *snap,
                         const struct nvt_host_process *related, size_t related_count, bool *ok) {
    strbuf_clear(&w->current);
    if (!patch_encode(&w->current, w->previous, snap, related, related_count)) {
        return false;
    }
    *ok = write_record(w, REC_PATCH, 0, snap->timestamp, w->current.data, w->current.len,
                       w->current.len);
    return true;
}

static bool append_keyframe(struct rec_writer *w, const struct nvt_snapshot *snap,
                            const struct nvt_host_process *related, size_t related_count,
                            char *error, size_t error_size) {
    strbuf_clear(&w->current);
    if (!frame_encode(&w->current, snap, related, related_count)) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    size_t n = compress(w, &w->current, NULL);
    if (w->zstd.is_error(n)) {
        snprintf(error, error_size, "cannot compress a frame: %s", w->zstd.get_error_name(n));
        return false;
    }
    if (!write_record(w, REC_KEYFRAME, 0, snap->timestamp, w->compressed, n, w->current.len)) {
        snprintf(error, error_size, "cannot write the recording: %s", strerror(errno));
        return false;
    }
    frame_free(w->previous);
    w->previous = frame_copy(snap, related, related_count);
    strbuf_clear(&w->last_patch);
    return true;
}

bool rec_writer_append(struct rec_writer *w, const struct nvt_snapshot *snap,
                       const struct nvt_host_process *related, size_t related_count, char *error,
                       size_t error_size) {
    bool ok = true;
    if (w->need_segment) {
        if (!write_segment(w)) {
            snprintf(error, error_size, "cannot write the recording: %s", strerror(errno));
            return false;
        }
        w->need_segment = false;
    }
    if (w->previous != NULL && w->since_keyframe < w->keyframe_every &&
        append_patch(w, snap, related, related_count, &ok)) {
        if (!ok) {
            snprintf(error, error_size, "cannot write the recording: %s", strerror(errno));
            /* The previous frame already holds this one: start again from a keyframe, in a new
             * segment (what a reader shows as the recording's gap). */
            int saved = errno;
            frame_free(w->previous);
            w->previous = NULL;
            w->need_segment = w->last_type != REC_SEGMENT; /* one segment for one gap */
            errno = saved;
            return false;
        }
        w->since_keyframe++;
        return true;
    }
    if (!append_keyframe(w, snap, related, related_count, error, error_size)) {
        int saved = errno;
        frame_free(w->previous);
        w->previous = NULL;
        w->need_segment = w->last_type != REC_SEGMENT;
        errno = saved;
        return false;
    }
    w->since_keyframe = 1;
    return true;
}

bool rec_disk_full(int err) {
    return err == ENOSPC || err == EDQUOT;
}

bool rec_writer_is_older(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    unsigned char head[REC_FILE_HEADER];
    char why[160];
    bool older = read_exact(fd, head, sizeof(head), 0) &&
                 rec_check_file_header(head, sizeof(head), why, sizeof(why)) &&
                 rec_get_u16(head + 8) < REC_VERSION_MAJOR;
    close(fd);
    return older;
}

bool rec_writer_is_foreign(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        return false; /* missing: created */
    }
    if (!S_ISREG(st.st_mode)) {
        return true;
    }
    if (st.st_size == 0) {
        return false;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        return true;
    }
    unsigned char head[REC_FILE_HEADER] = {0};
    size_t have = st.st_size < REC_FILE_HEADER ? (size_t)st.st_size : REC_FILE_HEADER;
    char why[160];
    bool foreign = !read_exact(fd, head, have, 0) || have < REC_FILE_HEADER ||
                   !rec_check_file_header(head, have, why, sizeof(why));
    close(fd);
    return foreign;
}

unsigned long long rec_writer_size(const struct rec_writer *w) {
    return w->size;
}

void rec_writer_close(struct rec_writer *w) {
    if (w == NULL) {
        return;
    }
    if (w->map != NULL) {
        munmap(w->map, (size_t)(w->reserved - w->map_start));
    }
    /* Give back the reserved room: a closed recording ends with its last record. */
    if (w->reserved > w->size) {
        (void)!ftruncate(w->fd, (off_t)w->size);
    }
    close(w->fd);
    if (w->cctx != NULL) {
        w->zstd.free_cctx(w->cctx);
    }
    zstd_api_close(&w->zstd);
    frame_free(w->previous);
    strbuf_fini(&w->current);
    strbuf_fini(&w->last_patch);
    free(w->packed);
    free(w->compressed);
    free(w);
}
