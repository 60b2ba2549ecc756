/* libzstd loaded at run time (zstd_api.h). */
#include "record/file/zstd_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sys/dl.h"

/* Every entry point the recorder and the reader call, with where its address goes.  The newest,
 * ZSTD_CCtx_refPrefix and ZSTD_compress2, came with libzstd 1.4.0 (2019); an older library is
 * refused as a whole rather than failing in the middle of a recording. */
#define ZSTD_SYMBOLS(X)                                                                            \
    X(create_cctx, "ZSTD_createCCtx")                                                              \
    X(free_cctx, "ZSTD_freeCCtx")                                                                  \
    X(cctx_set_parameter, "ZSTD_CCtx_setParameter")                                                \
    X(cctx_reset, "ZSTD_CCtx_reset")                                                               \
    X(cctx_ref_prefix, "ZSTD_CCtx_refPrefix")                                                      \
    X(compress2, "ZSTD_compress2")                                                                 \
    X(compress_bound, "ZSTD_compressBound")                                                        \
    X(create_dctx, "ZSTD_createDCtx")                                                              \
    X(free_dctx, "ZSTD_freeDCtx")                                                                  \
    X(dctx_reset, "ZSTD_DCtx_reset")                                                               \
    X(dctx_ref_prefix, "ZSTD_DCtx_refPrefix")                                                      \
    X(decompress_dctx, "ZSTD_decompressDCtx")                                                      \
    X(is_error, "ZSTD_isError")                                                                    \
    X(get_error_name, "ZSTD_getErrorName")

static const char *library_path(void) {
    const char *env = secure_getenv(ZSTD_API_ENV_LIBRARY);
    return env != NULL && env[0] != '\0' ? env : ZSTD_API_SONAME;
}

static bool fail(struct zstd_api *api, char *error, size_t size, const char *what) {
    snprintf(error, size, "recordings need libzstd (%s%s): install the libzstd1 package", what,
             library_path());
    if (api->dl != NULL) {
        dlclose(api->dl);
    }
    memset(api, 0, sizeof *api);
    return false;
}

bool zstd_api_open(struct zstd_api *api, char *error, size_t size) {
    memset(api, 0, sizeof *api);
    api->dl = dlopen(library_path(), RTLD_NOW | RTLD_LOCAL);
    if (api->dl == NULL) {
        return fail(api, error, size, "");
    }
#define LOOK_UP(field, name)                                                                       \
    if (!dl_function(api->dl, name, &api->field, sizeof api->field)) {                             \
        return fail(api, error, size, "no " name " in ");                                          \
    }
    ZSTD_SYMBOLS(LOOK_UP)
#undef LOOK_UP
    return true;
}

void zstd_api_close(struct zstd_api *api) {
    if (api->dl == NULL) {
        return;
    }
    dlclose(api->dl);
    memset(api, 0, sizeof *api);
}
