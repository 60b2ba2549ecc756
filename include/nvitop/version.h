/* Version of libnvitop and of the programs built with it. */
#ifndef NVITOP_VERSION_H
#define NVITOP_VERSION_H

#include <nvitop/common.h>

#define NVT_VERSION_MAJOR  0
#define NVT_VERSION_MINOR  1
#define NVT_VERSION_PATCH  0
#define NVT_VERSION_STRING "0.1.0"

/* The version of the library actually loaded, e.g. "0.1.0".  Static string; thread-safe. */
NVT_API const char *nvt_version_string(void);

#endif /* NVITOP_VERSION_H */
