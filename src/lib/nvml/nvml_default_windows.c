/*
 * The default NVML library on Windows (see nvml_default.h): the driver puts nvml.dll in System32
 * since R418 and in the NVSMI folder of Program Files before that; nvitop's Python bindings try
 * the same two places.  The current directory is never searched (DLL planting).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvml/nvml_default.h"

const char nvml_default_names[] =
    "%SystemRoot%\\System32\\nvml.dll and %ProgramFiles%\\NVIDIA Corporation\\NVSMI\\nvml.dll";

static void *open_under(const char *variable, const char *fallback, const char *rest) {
    const char *root = getenv(variable);
    char path[1024];
    int n = snprintf(path, sizeof(path), "%s\\%s",
                     root != NULL && root[0] != '\0' ? root : fallback, rest);
    if (n <= 0 || (size_t)n >= sizeof(path)) {
        return NULL;
    }
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

void *nvml_default_open(void) {
    void *dl = open_under("SystemRoot", "C:\\Windows", "System32\\nvml.dll");
    if (dl == NULL) {
        dl = open_under("ProgramFiles", "C:\\Program Files", "NVIDIA Corporation\\NVSMI\\nvml.dll");
    }
    return dl;
}
