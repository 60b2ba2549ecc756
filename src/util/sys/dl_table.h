/*
 * A library opened at run time into a table of function pointers (libcurl for the cluster view,
 * libzstd for recordings: docs/architecture.md, "Loaded at run time").  POSIX only.
 */
#ifndef NVITOP_SRC_UTIL_SYS_DL_TABLE_H
#define NVITOP_SRC_UTIL_SYS_DL_TABLE_H

#include <stddef.h>

/* One entry point: its name, and the offset and size of the function pointer in the table. */
struct dl_entry {
    const char *name;
    size_t offset;
    size_t size;
};

/* The file to open: the one environment variable env names when it is set and not empty (never
 * for set-user-id programs: secure_getenv), else soname. */
const char *dl_library_path(const char *env, const char *soname);

/*
 * dlopen(path) with its symbols kept local, and the address of every entry stored in table.
 * Returns the handle, or NULL when the library cannot be opened (*missing NULL) or lacks an entry
 * (*missing its name); nothing stays loaded then, and the table's pointers may be partly set.
 */
void *dl_open_table(const char *path, const struct dl_entry *entries, size_t count, void *table,
                    const char **missing);

#endif /* NVITOP_SRC_UTIL_SYS_DL_TABLE_H */
