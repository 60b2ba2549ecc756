/* libzstd loaded at run time (zstd_api.h). */
#include "record/file/zstd_api.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/array.h"
#include "util/sys/dl_table.h"

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

#define ENTRY(field, name)                                                                         \
    {name, offsetof(struct zstd_api, field), sizeof(((struct zstd_api *)0)->field)},
static const struct dl_entry entries[] = {ZSTD_SYMBOLS(ENTRY)};
#undef ENTRY

bool zstd_api_open(struct zstd_api *api, char *error, size_t size) {
    memset(api, 0, sizeof *api);
    const char *path = dl_library_path(ZSTD_API_ENV_LIBRARY, ZSTD_API_SONAME);
    const char *missing = NULL;
    api->dl = dl_open_table(path, entries, ARRAY_SIZE(entries), api, &missing);
    if (api->dl == NULL) {
        snprintf(error, size, "recordings need libzstd (%s%s%s%s): install the libzstd1 package",
                 missing != NULL ? "no " : "", missing != NULL ? missing : "",
                 missing != NULL ? " in " : "", path);
        memset(api, 0, sizeof *api);
        return false;
    }
    return true;
}

void zstd_api_close(struct zstd_api *api) {
    if (api->dl == NULL) {
        return;
    }
    dlclose(api->dl);
    memset(api, 0, sizeof *api);
}
