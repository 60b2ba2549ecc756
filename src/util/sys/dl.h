/*
 * Looking up functions in a dlopen()ed library.  Thread-safe (dlsym is).
 */
#ifndef NVITOP_SRC_UTIL_SYS_DL_H
#define NVITOP_SRC_UTIL_SYS_DL_H

#include <stddef.h>

/*
 * Store the address of function `name` of library handle dl into the function-pointer variable at
 * slot (size bytes, sizeof the variable), or NULL when it is missing.  dlsym returns an object
 * pointer; POSIX guarantees it converts to a function pointer, and copying its bytes keeps the
 * conversion free of ISO C's warning about object-to-function casts.  Returns whether it was found.
 */
int dl_function(void *dl, const char *name, void *slot, size_t size);

#endif /* NVITOP_SRC_UTIL_SYS_DL_H */
