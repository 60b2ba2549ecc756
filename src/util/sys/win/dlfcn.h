/*
 * <dlfcn.h> for the Windows build (cmake/NvtWindows.cmake puts this directory on the include
 * path): dlopen, dlsym, dlclose and dlerror over LoadLibraryExW, GetProcAddress and FreeLibrary,
 * so that the NVML loader and the CUDA runtime lookup keep one code path.  Paths are UTF-8.
 * dlerror()'s text is per thread, as POSIX allows.
 */
#ifndef NVITOP_SRC_UTIL_SYS_WIN_DLFCN_H
#define NVITOP_SRC_UTIL_SYS_WIN_DLFCN_H

#define RTLD_LAZY   0x1
#define RTLD_NOW    0x2
#define RTLD_LOCAL  0x0
#define RTLD_GLOBAL 0x100

/* A bare name ("nvml.dll") is searched in the application's directory and System32 only, never
 * the current directory; a path with a directory part is loaded from there (with its own
 * directory searched for its dependencies). */
void *dlopen(const char *path, int mode);
void *dlsym(void *handle, const char *name);
int dlclose(void *handle);
/* The last failure's text in this thread, once; NULL when there was none since. */
char *dlerror(void);

#endif /* NVITOP_SRC_UTIL_SYS_WIN_DLFCN_H */
