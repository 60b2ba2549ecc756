/*
 * libzstd's entry points, looked up at run time.  nvitop is not linked with libzstd: only a
 * recording or a replay compresses or decompresses, and the library mapped into every monitor
 * costs it about 92 KiB of resident memory and its start-up relocations (docs/architecture.md,
 * "Libraries loaded on demand").  The writer and the reader each open a table of their own
 * (dlopen counts references, so a second open costs a look-up only).
 * Thread-safety: a table is opened, used and closed by its owner; libzstd's functions are
 * thread-safe on distinct contexts.
 */
#ifndef NVITOP_SRC_RECORD_FILE_ZSTD_API_H
#define NVITOP_SRC_RECORD_FILE_ZSTD_API_H

#include <stdbool.h>
#include <stddef.h>
#include <zstd.h>

/* The soname opened (ABI 1, every libzstd since 1.0); NVITOP_LIBZSTD_LIBRARY may name another
 * file (not for set-user-id programs), as NVITOP_LIBCURL_LIBRARY does for libcurl. */
#define ZSTD_API_SONAME      "libzstd.so.1"
#define ZSTD_API_ENV_LIBRARY "NVITOP_LIBZSTD_LIBRARY"

struct zstd_api {
    void *dl; /* the dlopen handle; NULL when closed */
    ZSTD_CCtx *(*create_cctx)(void);
    size_t (*free_cctx)(ZSTD_CCtx *cctx);
    size_t (*cctx_set_parameter)(ZSTD_CCtx *cctx, ZSTD_cParameter param, int value);
    size_t (*cctx_reset)(ZSTD_CCtx *cctx, ZSTD_ResetDirective reset);
    size_t (*cctx_ref_prefix)(ZSTD_CCtx *cctx, const void *prefix, size_t prefix_size);
    size_t (*compress2)(ZSTD_CCtx *cctx, void *dst, size_t dst_capacity, const void *src,
                        size_t src_size);
    size_t (*compress_bound)(size_t src_size);
    ZSTD_DCtx *(*create_dctx)(void);
    size_t (*free_dctx)(ZSTD_DCtx *dctx);
    size_t (*dctx_reset)(ZSTD_DCtx *dctx, ZSTD_ResetDirective reset);
    size_t (*dctx_ref_prefix)(ZSTD_DCtx *dctx, const void *prefix, size_t prefix_size);
    size_t (*decompress_dctx)(ZSTD_DCtx *dctx, void *dst, size_t dst_capacity, const void *src,
                              size_t src_size);
    unsigned (*is_error)(size_t code);
    const char *(*get_error_name)(size_t code);
};

/*
 * Open libzstd and look up every entry point.  On failure *api is left closed and error holds one
 * line for the user (what is missing and which package provides it); nothing stays loaded.
 */
bool zstd_api_open(struct zstd_api *api, char *error, size_t size);

/* Unload; a closed (or zeroed) table is left alone. */
void zstd_api_close(struct zstd_api *api);

#endif /* NVITOP_SRC_RECORD_FILE_ZSTD_API_H */
