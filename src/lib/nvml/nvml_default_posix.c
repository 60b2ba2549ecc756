/*
 * The default NVML library on Linux (see nvml_default.h).
 */
#include <dlfcn.h>
#include <stddef.h>

#include "nvml/nvml_default.h"

const char nvml_default_names[] = "libnvidia-ml.so.1 and libnvidia-ml.so";

void *nvml_default_open(void) {
    void *dl = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        dl = dlopen("libnvidia-ml.so", RTLD_NOW | RTLD_LOCAL);
    }
    return dl;
}
