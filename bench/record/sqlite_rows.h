/*
 * The normalized layout of sqlite_store.h (SQ_ROWS): its schema, one frame's inserts and a seek.
 * Functions return an SQLite result code.  Single-threaded, as the store.
 */
#ifndef NVITOP_BENCH_RECORD_SQLITE_ROWS_H
#define NVITOP_BENCH_RECORD_SQLITE_ROWS_H

#include <sqlite3.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

/* The prepared inserts, in this order. */
enum {
    ROWS_FRAME,
    ROWS_SYSTEM,
    ROWS_DEVICE_INFO,
    ROWS_DEVICE_STATE,
    ROWS_GPU_PROCESS,
    ROWS_RELATED,
    ROWS_HOST_STATE,
    ROWS_PROCESS,
    ROWS_STMTS
};

/* Creates the tables and prepares stmts[ROWS_STMTS] (the caller finalizes them). */
int rows_create(sqlite3 *db, sqlite3_stmt **stmts);

/* Inserts one frame (the caller holds the transaction). */
int rows_insert(sqlite3 *db, sqlite3_stmt *const *stmts, const struct nvt_snapshot *snap,
                const struct nvt_host_process *related, size_t related_count);

/* Reads every column of the frame at or before t; counts the non-zero values in *values (so the
 * reads are not optimised away). */
int rows_seek(sqlite3 *db, double t, size_t *values);

#endif /* NVITOP_BENCH_RECORD_SQLITE_ROWS_H */
