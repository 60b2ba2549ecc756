/*
 * SQ_ROWS: frames as normalized SQLite tables, a typed column per field of the
 * record/codec/fields.h tables (named by the table's letter and the field's tag, e.g. d12), N/A
 * values as NULL.
 */
#include "sqlite_rows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/codec/fields.h"
#include "util/text/strbuf.h"

static const char *column_type(enum field_kind kind) {
    switch (kind) {
    case FIELD_DOUBLE:
    case FIELD_ELAPSED:
        return "REAL";
    case FIELD_TEXT:
        return "TEXT";
    case FIELD_DOUBLES:
        return "BLOB";
    default:
        return "INTEGER";
    }
}

static void append_columns(struct strbuf *sql, const struct field_table *table, char prefix) {
    for (size_t i = 0; i < table->count; i++) {
        strbuf_appendf(sql, ", %c%u %s", prefix, (unsigned)table->fields[i].tag,
                       column_type((enum field_kind)table->fields[i].kind));
    }
}

static void append_marks(struct strbuf *sql, size_t count) {
    for (size_t i = 0; i < count; i++) {
        strbuf_append_str(sql, i == 0 ? "?" : ",?");
    }
}

/* Binds an integer, or NULL for the field's N/A value. */
static int bind_int(sqlite3_stmt *st, int col, long long value, bool na) {
    return na ? sqlite3_bind_null(st, col) : sqlite3_bind_int64(st, col, value);
}

/* Binds every field of the table from the struct at base to the columns from *col on. */
static int bind_fields(sqlite3_stmt *st, int *col, const struct field_table *table,
                       const void *base) {
    int rc = SQLITE_OK;
    for (size_t i = 0; i < table->count && rc == SQLITE_OK; i++) {
        const struct field *f = &table->fields[i];
        const char *p = (const char *)base + f->offset;
        int c = (*col)++;
        switch ((enum field_kind)f->kind) {
        case FIELD_U32: {
            uint32_t v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, v, v == NVT_NA_U32);
            break;
        }
        case FIELD_U64: {
            uint64_t v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, (long long)v, v == NVT_NA_U64);
            break;
        }
        case FIELD_I32: {
            int32_t v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, v, v == NVT_NA_I32);
            break;
        }
        case FIELD_INT:
        case FIELD_STATUS: {
            int v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, v, false);
            break;
        }
        case FIELD_BOOL: {
            bool v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, v, false);
            break;
        }
        case FIELD_CHAR:
            rc = bind_int(st, c, *p, false);
            break;
        case FIELD_SIZE: {
            size_t v;
            memcpy(&v, p, sizeof(v));
            rc = bind_int(st, c, (long long)v, v == NVT_NA_SIZE);
            break;
        }
        case FIELD_DOUBLE:
        case FIELD_ELAPSED: {
            double v;
            memcpy(&v, p, sizeof(v));
            rc = sqlite3_bind_double(st, c, v); /* SQLite stores a NaN as NULL */
            break;
        }
        case FIELD_TEXT:
            rc = sqlite3_bind_text(st, c, p, (int)strnlen(p, f->size), SQLITE_STATIC);
            break;
        case FIELD_DOUBLES:
            rc = sqlite3_bind_blob(st, c, p, (int)f->size, SQLITE_STATIC);
            break;
        }
    }
    return rc;
}

int rows_create(sqlite3 *db, sqlite3_stmt **stmts) {
    struct strbuf sql = STRBUF_INIT;
    strbuf_append_str(&sql, "CREATE TABLE frames (id INTEGER PRIMARY KEY, time REAL NOT NULL, "
                            "flags INTEGER);\nCREATE INDEX frames_time ON frames(time);\n");
    strbuf_append_str(&sql, "CREATE TABLE system (frame INTEGER PRIMARY KEY");
    append_columns(&sql, &fields_system, 's');
    strbuf_append_str(&sql, ");\nCREATE TABLE device_infos (frame INTEGER, slot INTEGER, parent "
                            "INTEGER, first_child INTEGER, child_count INTEGER");
    append_columns(&sql, &fields_device_info, 'i');
    strbuf_append_str(&sql, ", PRIMARY KEY (frame, slot)) WITHOUT ROWID;\n"
                            "CREATE TABLE device_states (frame INTEGER, slot INTEGER");
    append_columns(&sql, &fields_device_state, 'd');
    strbuf_append_str(&sql, ", PRIMARY KEY (frame, slot)) WITHOUT ROWID;\n"
                            "CREATE TABLE gpu_processes (frame INTEGER, slot INTEGER");
    append_columns(&sql, &fields_gpu_process, 'g');
    append_columns(&sql, &fields_host_process, 'h');
    strbuf_append_str(&sql, ", PRIMARY KEY (frame, slot)) WITHOUT ROWID;\n"
                            "CREATE TABLE related (frame INTEGER, slot INTEGER");
    append_columns(&sql, &fields_host_process, 'h');
    strbuf_append_str(&sql, ", PRIMARY KEY (frame, slot)) WITHOUT ROWID;\n"
                            "CREATE TABLE host_states (frame INTEGER PRIMARY KEY");
    append_columns(&sql, &fields_host_state, 'x');
    strbuf_append_str(&sql, ", per_cpu BLOB);\n"
                            "CREATE TABLE processes (pid INTEGER, create_time REAL, user TEXT, "
                            "name TEXT, command TEXT, argv BLOB, PRIMARY KEY (pid, create_time)) "
                            "WITHOUT ROWID;\n");
    int rc = sqlite3_exec(db, strbuf_cstr(&sql), NULL, NULL, NULL);
    /* The inserts: the table, then its column count beside frame (and slot). */
    static const struct {
        const char *table;
        const struct field_table *a, *b;
        int extra;
    } inserts[ROWS_STMTS] = {
        [ROWS_SYSTEM] = {"system", &fields_system, NULL, 1},
        [ROWS_DEVICE_INFO] = {"device_infos", &fields_device_info, NULL, 5},
        [ROWS_DEVICE_STATE] = {"device_states", &fields_device_state, NULL, 2},
        [ROWS_GPU_PROCESS] = {"gpu_processes", &fields_gpu_process, &fields_host_process, 2},
        [ROWS_RELATED] = {"related", &fields_host_process, NULL, 2},
        [ROWS_HOST_STATE] = {"host_states", &fields_host_state, NULL, 2},
    };
    for (int i = 0; i < ROWS_STMTS && rc == SQLITE_OK; i++) {
        strbuf_clear(&sql);
        if (i == ROWS_FRAME || i == ROWS_PROCESS) {
            strbuf_append_str(&sql, i == ROWS_FRAME ? "INSERT INTO frames VALUES (?,?,?)"
                                                    : "INSERT OR IGNORE INTO processes VALUES "
                                                      "(?,?,?,?,?,?)");
        } else {
            size_t n = (size_t)inserts[i].extra + inserts[i].a->count +
                       (inserts[i].b != NULL ? inserts[i].b->count : 0);
            strbuf_appendf(&sql, "INSERT INTO %s VALUES (", inserts[i].table);
            append_marks(&sql, n);
            strbuf_append_char(&sql, ')');
        }
        rc = sqlite3_prepare_v3(db, strbuf_cstr(&sql), -1, SQLITE_PREPARE_PERSISTENT, &stmts[i],
                                NULL);
    }
    strbuf_fini(&sql);
    return rc;
}

static int step(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The strings of a process, once per (pid, create time); argv NUL-separated. */
static int insert_process(sqlite3_stmt *st, const struct nvt_host_process *h) {
    struct strbuf argv = STRBUF_INIT;
    for (size_t i = 0; h->cmdline != NULL && i < h->cmdline_count; i++) {
        strbuf_append(&argv, h->cmdline[i], strlen(h->cmdline[i]) + 1);
    }
    sqlite3_bind_int64(st, 1, h->pid);
    sqlite3_bind_double(st, 2, isnan(h->create_time) ? -1.0 : h->create_time);
    sqlite3_bind_text(st, 3, h->user, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, h->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, h->command, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 6, argv.len > 0 ? argv.data : "", (int)argv.len, SQLITE_TRANSIENT);
    strbuf_fini(&argv);
    return step(st);
}

static int insert_host_process(sqlite3_stmt *const *stmts, int which, long long frame, size_t slot,
                               const struct nvt_gpu_process *gp, const struct nvt_host_process *h) {
    sqlite3_stmt *st = stmts[which];
    int col = 3;
    sqlite3_bind_int64(st, 1, frame);
    sqlite3_bind_int64(st, 2, (long long)slot);
    int rc = gp != NULL ? bind_fields(st, &col, &fields_gpu_process, gp) : SQLITE_OK;
    if (rc == SQLITE_OK) {
        rc = bind_fields(st, &col, &fields_host_process, h);
    }
    if (rc == SQLITE_OK) {
        rc = step(st);
    }
    return rc == SQLITE_OK ? insert_process(stmts[ROWS_PROCESS], h) : rc;
}

int rows_insert(sqlite3 *db, sqlite3_stmt *const *stmts, const struct nvt_snapshot *snap,
                const struct nvt_host_process *related, size_t related_count) {
    sqlite3_stmt *st = stmts[ROWS_FRAME];
    sqlite3_bind_double(st, 2, snap->timestamp);
    sqlite3_bind_int64(st, 3, snap->flags);
    int rc = step(st);
    long long frame = sqlite3_last_insert_rowid(db);
    int col = 2;
    if (rc == SQLITE_OK && frame == 1) {
        st = stmts[ROWS_SYSTEM];
        sqlite3_bind_int64(st, 1, frame);
        rc = bind_fields(st, &col, &fields_system, &snap->system);
        rc = rc == SQLITE_OK ? step(st) : rc;
        for (size_t i = 0; i < snap->device_count && rc == SQLITE_OK; i++) {
            const struct nvt_device_snapshot *d = nvt_snapshot_device(snap, i);
            st = stmts[ROWS_DEVICE_INFO];
            sqlite3_bind_int64(st, 1, frame);
            sqlite3_bind_int64(st, 2, (long long)i);
            bind_int(st, 3, (long long)d->parent, d->parent == NVT_NA_SIZE);
            sqlite3_bind_int64(st, 4, (long long)d->first_child);
            sqlite3_bind_int64(st, 5, (long long)d->child_count);
            col = 6;
            rc = bind_fields(st, &col, &fields_device_info, &d->info);
            rc = rc == SQLITE_OK ? step(st) : rc;
        }
    }
    for (size_t i = 0; i < snap->device_count && rc == SQLITE_OK; i++) {
        st = stmts[ROWS_DEVICE_STATE];
        sqlite3_bind_int64(st, 1, frame);
        sqlite3_bind_int64(st, 2, (long long)i);
        col = 3;
        rc = bind_fields(st, &col, &fields_device_state, &nvt_snapshot_device(snap, i)->state);
        rc = rc == SQLITE_OK ? step(st) : rc;
    }
    for (size_t i = 0; i < snap->process_count && rc == SQLITE_OK; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        rc = insert_host_process(stmts, ROWS_GPU_PROCESS, frame, i, p, &p->host);
    }
    for (size_t i = 0; i < related_count && rc == SQLITE_OK; i++) {
        rc = insert_host_process(stmts, ROWS_RELATED, frame, i, NULL, &related[i]);
    }
    if (rc == SQLITE_OK && (snap->flags & NVT_SAMPLE_HOST) != 0) {
        st = stmts[ROWS_HOST_STATE];
        sqlite3_bind_int64(st, 1, frame);
        col = 2;
        rc = bind_fields(st, &col, &fields_host_state, &snap->host);
        sqlite3_bind_blob(st, col, snap->host.cpu_percent_per_cpu,
                          (int)(snap->host.cpu_count * sizeof(double)), SQLITE_STATIC);
        rc = rc == SQLITE_OK ? step(st) : rc;
    }
    return rc;
}

/* Steps through a query's rows reading every column, as code rebuilding a frame would. */
static int read_all(sqlite3_stmt *st, long long frame, size_t *values) {
    sqlite3_bind_int64(st, 1, frame);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            switch (sqlite3_column_type(st, c)) {
            case SQLITE_INTEGER:
                *values += sqlite3_column_int64(st, c) != 0;
                break;
            case SQLITE_FLOAT:
                *values += sqlite3_column_double(st, c) != 0;
                break;
            case SQLITE_TEXT:
                *values += sqlite3_column_text(st, c) != NULL;
                break;
            case SQLITE_BLOB:
                *values += sqlite3_column_blob(st, c) != NULL;
                break;
            default:
                break;
            }
        }
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int rows_seek(sqlite3 *db, double t, size_t *values) {
    static const char *const queries[] = {
        "SELECT * FROM frames WHERE id = ?",
        "SELECT * FROM system WHERE frame = (SELECT min(id) FROM frames WHERE id <= ?)",
        "SELECT * FROM device_infos WHERE frame = (SELECT min(id) FROM frames WHERE id <= ?)",
        "SELECT * FROM device_states WHERE frame = ?",
        "SELECT * FROM gpu_processes g JOIN processes p ON p.pid = g.h1 AND p.create_time = g.h12 "
        "WHERE g.frame = ?",
        "SELECT * FROM related r JOIN processes p ON p.pid = r.h1 AND p.create_time = r.h12 "
        "WHERE r.frame = ?",
        "SELECT * FROM host_states WHERE frame = ?",
    };
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(
        db, "SELECT id FROM frames WHERE time <= ? ORDER BY time DESC LIMIT 1", -1, &st, NULL);
    long long frame = 0;
    if (rc == SQLITE_OK) {
        sqlite3_bind_double(st, 1, t);
        rc = sqlite3_step(st);
        frame = sqlite3_column_int64(st, 0);
        rc = rc == SQLITE_ROW ? SQLITE_OK : SQLITE_NOTFOUND;
    }
    sqlite3_finalize(st);
    for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]) && rc == SQLITE_OK; i++) {
        rc = sqlite3_prepare_v2(db, queries[i], -1, &st, NULL);
        if (rc == SQLITE_OK) {
            rc = read_all(st, frame, values);
        }
        sqlite3_finalize(st);
    }
    return rc;
}
