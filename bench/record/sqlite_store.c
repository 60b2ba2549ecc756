/*
 * Recorded frames in SQLite (sqlite_store.h): the connection, its settings, and the layouts that
 * store a frame as one blob.  Durability as our writer's: WAL with synchronous=NORMAL survives a
 * killed process with every committed frame and a power loss with a consistent database (the
 * last frames may be lost), without an fsync per frame.
 */
#include "sqlite_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "record/codec/frame.h"
#include "record/codec/patch.h"
#include "sqlite_rows.h"
#include "util/text/strbuf.h"

#define KEYFRAME_EVERY 300 /* as our writer's default */
#define ZSTD_LEVEL     3

struct sq_store {
    sqlite3 *db;
    enum sq_layout layout;
    sqlite3_stmt *stmts[ROWS_STMTS]; /* SQ_ROWS's inserts; [0] the blob insert otherwise */
    ZSTD_CCtx *cctx;
    ZSTD_DCtx *dctx;
    struct strbuf encoded;
    void *packed; /* zstd output */
    size_t packed_cap;
    struct frame *previous; /* SQ_PATCHES: the frame the next patch starts from */
    long long keyframe;     /* SQ_PATCHES: id of the last keyframe */
    unsigned since_keyframe;
    unsigned long long payload; /* bytes of the blobs stored */
};

const char *sq_layout_name(enum sq_layout layout) {
    static const char *const names[SQ_LAYOUTS] = {"rows", "blob", "blob-zstd", "patches"};
    return layout < SQ_LAYOUTS ? names[layout] : "?";
}

static bool failed(const struct sq_store *s, int rc, const char *what, char *error, size_t size) {
    if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) {
        return false;
    }
    snprintf(error, size, "%s: %s", what,
             s->db != NULL ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    return true;
}

struct sq_store *sq_open(const char *path, enum sq_layout layout, unsigned page_size, char *error,
                         size_t error_size) {
    struct sq_store *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    s->layout = layout;
    s->encoded = (struct strbuf)STRBUF_INIT;
    s->cctx = ZSTD_createCCtx();
    s->dctx = ZSTD_createDCtx();
    int rc = s->cctx != NULL && s->dctx != NULL ? SQLITE_OK : SQLITE_NOMEM;
    if (rc == SQLITE_OK) {
        rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    }
    if (rc == SQLITE_OK && page_size != 0) {
        char sql[64];
        snprintf(sql, sizeof(sql), "PRAGMA page_size=%u", page_size); /* before the first table */
        rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
                          NULL);
    }
    if (rc == SQLITE_OK && layout == SQ_ROWS) {
        rc = rows_create(s->db, s->stmts);
    } else if (rc == SQLITE_OK) {
        /* key: the id of the keyframe a patch starts from (its own id for a keyframe). */
        rc = sqlite3_exec(s->db,
                          "CREATE TABLE frames (id INTEGER PRIMARY KEY, time REAL NOT NULL, "
                          "key INTEGER, data BLOB NOT NULL);"
                          "CREATE INDEX frames_time ON frames(time);",
                          NULL, NULL, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_prepare_v3(s->db, "INSERT INTO frames VALUES (?,?,?,?)", -1,
                                    SQLITE_PREPARE_PERSISTENT, &s->stmts[0], NULL);
        }
    }
    if (failed(s, rc, path, error, error_size)) {
        sq_close(s);
        return NULL;
    }
    return s;
}

/* zstd of s->encoded into s->packed; its size, 0 when it failed. */
static size_t compress(struct sq_store *s) {
    size_t bound = ZSTD_compressBound(s->encoded.len);
    if (bound > s->packed_cap) {
        void *p = realloc(s->packed, bound);
        if (p == NULL) {
            return 0;
        }
        s->packed = p;
        s->packed_cap = bound;
    }
    size_t n = ZSTD_compressCCtx(s->cctx, s->packed, s->packed_cap, s->encoded.data, s->encoded.len,
                                 ZSTD_LEVEL);
    return ZSTD_isError(n) ? 0 : n;
}

static int insert_blob(struct sq_store *s, const struct nvt_snapshot *snap,
                       const struct nvt_host_process *related, size_t related_count) {
    bool key = true;
    strbuf_clear(&s->encoded);
    if (s->layout == SQ_PATCHES && s->previous != NULL && s->since_keyframe < KEYFRAME_EVERY &&
        patch_encode(&s->encoded, s->previous, snap, related, related_count)) {
        key = false;
        s->since_keyframe++;
    } else if (!frame_encode(&s->encoded, snap, related, related_count)) {
        return SQLITE_NOMEM;
    }
    const void *data = s->encoded.data;
    size_t size = s->encoded.len;
    if (key && s->layout != SQ_BLOB) {
        size = compress(s);
        data = s->packed;
        if (size == 0) {
            return SQLITE_NOMEM;
        }
    }
    sqlite3_stmt *st = s->stmts[0];
    sqlite3_bind_double(st, 2, snap->timestamp);
    if (!key) {
        sqlite3_bind_int64(st, 3, s->keyframe);
    }
    sqlite3_bind_blob(st, 4, data, (int)size, SQLITE_STATIC);
    s->payload += size;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_DONE && key && s->layout == SQ_PATCHES) {
        s->keyframe = sqlite3_last_insert_rowid(s->db);
        s->since_keyframe = 0;
        frame_free(s->previous);
        s->previous = frame_copy(snap, related, related_count);
    }
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

bool sq_append(struct sq_store *s, const struct nvt_snapshot *snap,
               const struct nvt_host_process *related, size_t related_count, char *error,
               size_t error_size) {
    int rc = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        rc = s->layout == SQ_ROWS ? rows_insert(s->db, s->stmts, snap, related, related_count)
                                  : insert_blob(s, snap, related, related_count);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    } else {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    }
    return !failed(s, rc, "insert", error, error_size);
}

bool sq_compact(struct sq_store *s, bool vacuum, char *error, size_t error_size) {
    int rc = sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
    if (rc == SQLITE_OK && vacuum) {
        rc = sqlite3_exec(s->db, "VACUUM", NULL, NULL, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
        }
    }
    return !failed(s, rc, vacuum ? "vacuum" : "checkpoint", error, error_size);
}

/* Decodes one stored blob: a keyframe into a new *frame, a patch onto it. */
static bool decode_blob(struct sq_store *s, sqlite3_stmt *st, struct frame **frame, char *error,
                        size_t error_size) {
    const void *data = sqlite3_column_blob(st, 3);
    size_t size = (size_t)sqlite3_column_bytes(st, 3);
    if (*frame != NULL) {
        return patch_apply(*frame, data, size, sqlite3_column_double(st, 1), error, error_size);
    }
    if (s->layout != SQ_BLOB) {
        unsigned long long n = ZSTD_getFrameContentSize(data, size);
        strbuf_clear(&s->encoded);
        if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN ||
            !strbuf_reserve(&s->encoded, (size_t)n) ||
            ZSTD_isError(ZSTD_decompressDCtx(s->dctx, s->encoded.data, (size_t)n, data, size))) {
            snprintf(error, error_size, "bad zstd frame");
            return false;
        }
        data = s->encoded.data;
        size = (size_t)n;
    }
    return frame_decode(data, size, frame, error, error_size);
}

bool sq_seek(struct sq_store *s, double t, char *error, size_t error_size) {
    if (s->layout == SQ_ROWS) {
        size_t values = 0;
        return !failed(s, rows_seek(s->db, t, &values), "seek", error, error_size);
    }
    /* The frame at t, then the rows from its keyframe to it. */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT f.* FROM frames f, (SELECT id, coalesce(key, id) AS k FROM "
                                "frames WHERE time <= ?1 ORDER BY time DESC LIMIT 1) AS at "
                                "WHERE f.id BETWEEN at.k AND at.id ORDER BY f.id",
                                -1, &st, NULL);
    struct frame *frame = NULL;
    bool ok = !failed(s, rc, "seek", error, error_size);
    if (ok) {
        sqlite3_bind_double(st, 1, t);
        while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            ok = decode_blob(s, st, &frame, error, error_size);
        }
        ok = ok && !failed(s, rc, "seek", error, error_size);
    }
    if (ok && frame == NULL) {
        snprintf(error, error_size, "no frame at %.0f", t);
        ok = false;
    }
    frame_free(frame);
    sqlite3_finalize(st);
    return ok;
}

unsigned long long sq_payload(const struct sq_store *s) {
    return s->payload;
}

void sq_close(struct sq_store *s) {
    if (s == NULL) {
        return;
    }
    for (size_t i = 0; i < ROWS_STMTS; i++) {
        sqlite3_finalize(s->stmts[i]);
    }
    sqlite3_close(s->db);
    ZSTD_freeCCtx(s->cctx);
    ZSTD_freeDCtx(s->dctx);
    strbuf_fini(&s->encoded);
    free(s->packed);
    frame_free(s->previous);
    free(s);
}
