/*
 * Recorded frames stored in SQLite, for bench-record-sqlite (docs/architecture.md, "Why our
 * format and not SQLite"): the ways a recorder would naturally use SQLite, each in its own
 * database file in WAL mode with one transaction per frame.  Single-threaded: one store per
 * thread.
 */
#ifndef NVITOP_BENCH_RECORD_SQLITE_STORE_H
#define NVITOP_BENCH_RECORD_SQLITE_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

enum sq_layout {
    /* Normalized tables: frames, device_states, gpu_processes, host_states, related (one row per
     * device / process per frame, a typed column per field of record/codec/fields.h); the strings
     * of a process (user, name, command, argv) once per process in processes; system and
     * device_infos once, with the first frame (they do not change in the scenario). */
    SQ_ROWS,
    SQ_BLOB,      /* one row per frame: the frame's keyframe encoding (record/codec/frame.h) */
    SQ_BLOB_ZSTD, /* the same, compressed by zstd at level 3 */
    SQ_PATCHES,   /* our format 2's records as rows: zstd keyframes every 300, patches between */
    SQ_LAYOUTS
};

/* A short name of the layout, e.g. "rows". */
const char *sq_layout_name(enum sq_layout layout);

struct sq_store;

/* Creates the database at path (which must not exist) with the layout's schema and an index on
 * the frames' time, in pages of page_size bytes (0: SQLite's default, 4096).  NULL with a reason
 * in error.  Close with sq_close(). */
struct sq_store *sq_open(const char *path, enum sq_layout layout, unsigned page_size, char *error,
                         size_t error_size);

/* Stores one frame (the snapshot and the ancestors of its GPU processes) in one transaction.
 * False with a reason in error. */
bool sq_append(struct sq_store *store, const struct nvt_snapshot *snap,
               const struct nvt_host_process *related, size_t related_count, char *error,
               size_t error_size);

/* Moves the WAL into the database (wal_checkpoint(TRUNCATE)), then VACUUMs when vacuum is set.
 * False with a reason in error. */
bool sq_compact(struct sq_store *store, bool vacuum, char *error, size_t error_size);

/* Reads the frame at time t (the last one at or before it) as a replay would: every column of
 * its rows, or its blob decoded into a frame (from the keyframe for SQ_PATCHES).  False with a
 * reason in error. */
bool sq_seek(struct sq_store *store, double t, char *error, size_t error_size);

/* Bytes of the blobs handed to SQLite so far (0 for SQ_ROWS): the payload its pages hold. */
unsigned long long sq_payload(const struct sq_store *store);

void sq_close(struct sq_store *store);

#endif /* NVITOP_BENCH_RECORD_SQLITE_STORE_H */
