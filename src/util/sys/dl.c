/*
 * dlsym into a function pointer (see dl.h).
 */
#include "util/sys/dl.h"

#include <dlfcn.h>
#include <string.h>

int dl_function(void *dl, const char *name, void *slot, size_t size) {
    void *symbol = dl != NULL ? dlsym(dl, name) : NULL;
    memset(slot, 0, size);
    if (symbol == NULL || size != sizeof(symbol)) {
        return 0;
    }
    memcpy(slot, &symbol, size);
    return 1;
}
