/*
 * The recording reader (reader.h).
 */
#include "record/file/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/codec/patch.h"
#include "record/file/file_format.h"
#include "record/file/reader_index.h"
#include "record/file/zstd_api.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

struct rec_reader {
    struct rec_index index;
    struct zstd_api zstd;
    ZSTD_DCtx *dctx;
    size_t cached;             /* frame whose message is in cache (and state), or SIZE_MAX */
    struct rec_entry cached_e; /* its entry */
    struct strbuf cache;       /* the cached frame's message (keyframe, format-1 delta or patch) */
    struct strbuf scratch;
    struct frame *state; /* the cached frame decoded; NULL until a patch needs it */
    void *payload;
    size_t payload_cap;
    /* The last damaged frame met (SIZE_MAX: none) and its keyframe: the frames after it up to
     * the next keyframe are refused without decoding them again. */
    size_t damaged;
    size_t damaged_key;
    char damaged_why[256];
};

struct rec_reader *rec_reader_open(const char *path, char *error, size_t error_size) {
    struct rec_reader *r = xcalloc(1, sizeof(*r));
    r->cached = SIZE_MAX;
    r->damaged = SIZE_MAX;
    if (!rec_index_open(&r->index, path, error, error_size)) {
        free(r);
        return NULL;
    }
    bool ok = true;
    if (r->index.count == 0) {
        snprintf(error, error_size, "%s: the recording holds no whole frame", path);
        ok = false;
    }
    if (ok && !zstd_api_open(&r->zstd, error, error_size)) {
        ok = false;
    }
    if (ok && (r->dctx = r->zstd.create_dctx()) == NULL) {
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
    rec_index_fini(&r->index);
    if (r->dctx != NULL) {
        r->zstd.free_dctx(r->dctx);
    }
    zstd_api_close(&r->zstd);
    strbuf_fini(&r->cache);
    strbuf_fini(&r->scratch);
    frame_free(r->state);
    free(r->payload);
    free(r);
}

size_t rec_reader_count(const struct rec_reader *r) {
    return r->index.count;
}

double rec_reader_time(const struct rec_reader *r, size_t i) {
    return rec_index_time(&r->index, i);
}

const char *rec_reader_warning(const struct rec_reader *r) {
    return strbuf_cstr(&r->index.notes);
}

size_t rec_reader_next_key(struct rec_reader *r, size_t i) {
    struct rec_entry e;
    struct rec_entry first;
    char error[8];
    if (i >= r->index.count || !rec_index_entry(&r->index, i, &first, error, sizeof(error))) {
        return r->index.count;
    }
    for (size_t j = i + 1; j < r->index.count; j++) {
        if (!rec_index_entry(&r->index, j, &e, error, sizeof(error)) || e.type == REC_KEYFRAME ||
            e.segment != first.segment || e.file != first.file) {
            return j;
        }
    }
    return r->index.count;
}

size_t rec_reader_find(const struct rec_reader *r, double t) {
    return rec_index_find(&r->index, t, REC_FIND_SLACK_S, NULL);
}

size_t rec_reader_find_at(const struct rec_reader *r, double t, size_t *matches) {
    return rec_index_find(&r->index, t, REC_FIND_SLACK_S, matches);
}

void rec_reader_era(const struct rec_reader *r, size_t i, size_t *first, size_t *end) {
    rec_index_era(&r->index, i, first, end);
}

size_t rec_reader_find_in_era(const struct rec_reader *r, size_t i, double t) {
    return rec_index_find_in_era(&r->index, i, t);
}

double rec_reader_first_time(const struct rec_reader *r) {
    return r->index.min_time;
}

double rec_reader_last_time(const struct rec_reader *r) {
    return r->index.max_time;
}

/* Read entry e's payload and turn it into its message in out: decompressed (a keyframe; a
 * format-1 delta with prefix, the previous frame's message, as dictionary; a compressed patch
 * with the previous patch), or as it is (a patch). */
static bool inflate_entry(struct rec_reader *r, const struct rec_entry *e,
                          const struct strbuf *prefix, struct strbuf *out, char *error,
                          size_t error_size) {
    const char *path = rec_index_path(&r->index, e->file);
    size_t total = REC_RECORD_HEADER + e->payload_size;
    if (r->payload_cap < total) {
        r->payload = xrealloc(r->payload, total);
        r->payload_cap = total;
    }
    unsigned char *buf = r->payload;
    int fd = rec_index_fd(&r->index, e->file, error, error_size);
    if (fd < 0) {
        return false;
    }
    if (!rec_read_exact(fd, buf, total, e->offset) ||
        !rec_record_crc_ok(buf, buf + REC_RECORD_HEADER, e->payload_size)) {
        snprintf(error, error_size, "%s: the frame at byte %llu is damaged (checksum mismatch)",
                 path, e->offset);
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
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (wrong size)", path,
                     e->offset);
            return false;
        }
        memcpy(out->data, buf + REC_RECORD_HEADER, e->payload_size);
        out->len = e->payload_size;
        out->data[out->len] = '\0';
        return true;
    }
    r->zstd.dctx_reset(r->dctx, ZSTD_reset_session_only);
    if (e->type != REC_KEYFRAME && prefix != NULL && prefix->len > 0) {
        r->zstd.dctx_ref_prefix(r->dctx, prefix->data, prefix->len);
    }
    size_t n = r->zstd.decompress_dctx(r->dctx, out->data, e->raw_size, buf + REC_RECORD_HEADER,
                                       e->payload_size);
    if (r->zstd.is_error(n) || n != e->raw_size) {
        snprintf(error, error_size, "%s: the frame at byte %llu cannot be decompressed (%s)", path,
                 e->offset, r->zstd.is_error(n) ? r->zstd.get_error_name(n) : "wrong size");
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

/* Make entry e (the frame after r->cached, or the keyframe) the cached frame.  A keyframe or a
 * format-1 delta leaves its message in cache (state is decoded from it when a patch or the
 * caller needs it); a patch is applied to state, and its message kept as the next one's prefix. */
static bool advance(struct rec_reader *r, const struct rec_entry *e, char *error,
                    size_t error_size) {
    const char *path = rec_index_path(&r->index, e->file);
    if (e->type != REC_PATCH) {
        if (!inflate_entry(r, e, &r->cache, &r->scratch, error, error_size)) {
            return false;
        }
        swap_buffers(r);
        frame_free(r->state);
        r->state = NULL;
        return true;
    }
    if (r->state == NULL) {
        if (r->cached == SIZE_MAX || r->cached_e.type == REC_PATCH) {
            snprintf(error, error_size, "%s: a patch follows no frame", path);
            return false;
        }
        char why[200];
        if (!frame_decode(r->cache.data, r->cache.len, &r->state, why, sizeof(why))) {
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)", path,
                     r->cached_e.offset, why);
            return false;
        }
        strbuf_clear(&r->cache); /* a keyframe's message is no patch's prefix */
    }
    if (!inflate_entry(r, e, &r->cache, &r->scratch, error, error_size)) {
        return false;
    }
    swap_buffers(r);
    char why[200];
    if (!patch_apply(r->state, r->cache.data, r->cache.len, e->timestamp, why, sizeof(why))) {
        snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)", path, e->offset,
                 why);
        return false;
    }
    return true;
}

static void forget(struct rec_reader *r) {
    r->cached = SIZE_MAX;
    frame_free(r->state);
    r->state = NULL;
}

bool rec_reader_frame(struct rec_reader *r, size_t i, struct frame **out, char *error,
                      size_t error_size) {
    if (i >= r->index.count) {
        snprintf(error, error_size, "no such frame");
        return false;
    }
    /* Back to the keyframe this frame depends on, within its segment. */
    size_t k = rec_index_keyframe(&r->index, i, error, error_size);
    if (k == SIZE_MAX) {
        return false;
    }
    if (r->damaged != SIZE_MAX && r->damaged_key == k && r->damaged <= i) {
        snprintf(error, error_size, "%s", r->damaged_why);
        return false;
    }
    size_t start = k;
    if (r->cached != SIZE_MAX && r->cached >= k && r->cached <= i) {
        start = r->cached + 1; /* step forward from the frame decoded last */
    } else {
        forget(r);
    }
    for (size_t j = start; j <= i; j++) {
        struct rec_entry e;
        if (!rec_index_entry(&r->index, j, &e, error, error_size)) {
            forget(r);
            return false;
        }
        if (!advance(r, &e, error, error_size)) {
            forget(r);
            r->damaged = j;
            r->damaged_key = k;
            snprintf(r->damaged_why, sizeof(r->damaged_why), "%s", error);
            return false;
        }
        r->cached = j;
        r->cached_e = e;
    }
    if (r->state == NULL) {
        char why[200];
        if (!frame_decode(r->cache.data, r->cache.len, out, why, sizeof(why))) {
            snprintf(error, error_size, "%s: the frame at byte %llu is damaged (%s)",
                     rec_index_path(&r->index, r->cached_e.file), r->cached_e.offset, why);
            return false;
        }
    } else {
        *out = frame_copy(&r->state->snap, r->state->related, r->state->related_count);
    }
    frame_show_lost(*out);
    return true;
}
