/* A library opened into a table of function pointers (dl_table.h). */
#include "util/sys/dl_table.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "util/sys/dl.h"

const char *dl_library_path(const char *env, const char *soname) {
    const char *value = secure_getenv(env);
    return value != NULL && value[0] != '\0' ? value : soname;
}

void *dl_open_table(const char *path, const struct dl_entry *entries, size_t count, void *table,
                    const char **missing) {
    *missing = NULL;
    /* RTLD_LOCAL: its symbols (and those of what it loads) stay out of the global namespace. */
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        if (!dl_function(dl, entries[i].name, (char *)table + entries[i].offset, entries[i].size)) {
            *missing = entries[i].name;
            dlclose(dl);
            return NULL;
        }
    }
    return dl;
}
