/*
 * Version of libnvitop and of the programs built with it.  The compile-time macros say which
 * headers a program was built with; nvt_version_num() says which library it runs with (see "ABI
 * and versioning" in docs/api.md: a program needs a library at least as new as the minor version
 * that introduced every call and struct field it uses).
 *
 * Manual: nvt_status(3); overview libnvitop(3).
 */
#ifndef NVITOP_VERSION_H
#define NVITOP_VERSION_H

#include <nvitop/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NVT_VERSION_MAJOR  0
#define NVT_VERSION_MINOR  2
#define NVT_VERSION_PATCH  0
#define NVT_VERSION_STRING "0.2.0"
/* One number that grows with every release, for #if and run-time comparisons: 0xMMmmpp, e.g.
 * 0x010203 for 1.2.3 (as curl's LIBCURL_VERSION_NUM). */
#define NVT_VERSION_NUM ((NVT_VERSION_MAJOR << 16) | (NVT_VERSION_MINOR << 8) | NVT_VERSION_PATCH)

/* The version of the library actually loaded, e.g. "0.2.0".  Static string; pure and
 * thread-safe. */
NVT_API const char *nvt_version_string(void);

/* The version of the library actually loaded, as NVT_VERSION_NUM encodes it.  Pure and
 * thread-safe. */
NVT_API unsigned nvt_version_num(void);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_VERSION_H */
