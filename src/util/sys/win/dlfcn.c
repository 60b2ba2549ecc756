/*
 * dlopen and friends over the Windows loader (see dlfcn.h).
 */
#include "util/sys/win/dlfcn.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static _Thread_local char last_error[512];
static _Thread_local int have_error;

static void remember_error(const char *what, DWORD code) {
    char text[400] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code,
                             0, text, sizeof(text), NULL);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '.')) {
        text[--n] = '\0';
    }
    if (n == 0) {
        snprintf(text, sizeof(text), "error %lu", (unsigned long)code);
    }
    snprintf(last_error, sizeof(last_error), "%s: %s", what, text);
    have_error = 1;
}

/* UTF-8 to a malloc'ed UTF-16 string; NULL on bad input or without memory. */
static wchar_t *widen(const char *text) {
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, NULL, 0);
    if (n <= 0) {
        return NULL;
    }
    wchar_t *wide = malloc((size_t)n * sizeof(*wide));
    if (wide != NULL &&
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, wide, n) != n) {
        free(wide);
        wide = NULL;
    }
    return wide;
}

void *dlopen(const char *path, int mode) {
    (void)mode;
    if (path == NULL) {
        return GetModuleHandleW(NULL);
    }
    wchar_t *wide = widen(path);
    if (wide == NULL) {
        remember_error(path, ERROR_INVALID_NAME);
        return NULL;
    }
    bool has_dir = strchr(path, '\\') != NULL || strchr(path, '/') != NULL;
    DWORD flags = has_dir ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
                          : LOAD_LIBRARY_SEARCH_APPLICATION_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32;
    if (has_dir) {
        /* LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR wants an absolute path with backslashes. */
        for (wchar_t *c = wide; *c != L'\0'; c++) {
            *c = *c == L'/' ? L'\\' : *c;
        }
        wchar_t full[MAX_PATH];
        DWORD len = GetFullPathNameW(wide, MAX_PATH, full, NULL);
        if (len > 0 && len < MAX_PATH) {
            HMODULE module = LoadLibraryExW(full, NULL, flags);
            DWORD code = GetLastError();
            free(wide);
            if (module == NULL) {
                remember_error(path, code);
            }
            return (void *)module;
        }
    }
    HMODULE module = LoadLibraryExW(wide, NULL, flags);
    DWORD code = GetLastError();
    free(wide);
    if (module == NULL) {
        remember_error(path, code);
    }
    return (void *)module;
}

void *dlsym(void *handle, const char *name) {
    FARPROC proc = GetProcAddress((HMODULE)handle, name);
    if (proc == NULL) {
        remember_error(name, GetLastError());
        return NULL;
    }
    void *symbol = NULL;
    memcpy(&symbol, &proc, sizeof(symbol));
    return symbol;
}

int dlclose(void *handle) {
    if (handle == NULL || handle == (void *)GetModuleHandleW(NULL)) {
        return 0;
    }
    return FreeLibrary((HMODULE)handle) ? 0 : -1;
}

char *dlerror(void) {
    if (!have_error) {
        return NULL;
    }
    have_error = 0;
    return last_error;
}
