/* gzip for the exporter's responses (gzip_text.h). */
#include "gzip_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if NVT_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <libdeflate.h>
#endif

struct gzip_text {
#if NVT_HAVE_ISAL
    struct isal_zstream stream; /* some 80 KiB: why the compressor is kept */
    uint8_t *level_buf;         /* level 1's hash table, ISAL_DEF_LVL1_SMALL bytes */
#else
    struct libdeflate_compressor *compressor; /* some 300 KiB */
#endif
    char *scratch; /* output buffer, grown to the largest bound needed */
    size_t scratch_size;
};

#if NVT_HAVE_ISAL
/* The smaller of igzip's level-1 tables compresses the exposition as well as the default one (the
 * text repeats itself within a few KiB) with a third of the memory. */
#define LEVEL_BUF_SIZE ISAL_DEF_LVL1_SMALL
#endif

struct gzip_text *gzip_text_new(void) {
    struct gzip_text *gz = calloc(1, sizeof(*gz));
    if (gz == NULL) {
        return NULL;
    }
#if NVT_HAVE_ISAL
    gz->level_buf = malloc(LEVEL_BUF_SIZE);
    if (gz->level_buf == NULL) {
        free(gz);
        return NULL;
    }
#else
    gz->compressor = libdeflate_alloc_compressor(1);
    if (gz->compressor == NULL) {
        free(gz);
        return NULL;
    }
#endif
    return gz;
}

/* Room for the compressed text: deflate's stored blocks add 5 bytes per 64 KiB block, gzip 18
 * bytes of header and trailer; the margin covers either library's worst case. */
static bool reserve(struct gzip_text *gz, size_t len) {
#if NVT_HAVE_ISAL
    size_t bound = len + len / 8 + 1024;
#else
    size_t bound = libdeflate_gzip_compress_bound(gz->compressor, len);
#endif
    if (bound < len) {
        return false;
    }
    if (bound > gz->scratch_size) {
        char *grown = realloc(gz->scratch, bound);
        if (grown == NULL) {
            return false;
        }
        gz->scratch = grown;
        gz->scratch_size = bound;
    }
    return true;
}

/* Compress into the scratch buffer; the compressed length, 0 on failure. */
static size_t compress_scratch(struct gzip_text *gz, const char *text, size_t len) {
#if NVT_HAVE_ISAL
    if (len > UINT32_MAX || gz->scratch_size > UINT32_MAX) {
        return 0;
    }
    struct isal_zstream *s = &gz->stream;
    isal_deflate_stateless_init(s);
    s->level = 1;
    s->level_buf = gz->level_buf;
    s->level_buf_size = LEVEL_BUF_SIZE;
    s->gzip_flag = IGZIP_GZIP;
    s->end_of_stream = 1;
    s->flush = NO_FLUSH;
    s->next_in = (uint8_t *)(uintptr_t)text; /* igzip does not write to its input */
    s->avail_in = (uint32_t)len;
    s->next_out = (uint8_t *)gz->scratch;
    s->avail_out = (uint32_t)gz->scratch_size;
    return isal_deflate_stateless(s) == COMP_OK ? s->total_out : 0;
#else
    return libdeflate_gzip_compress(gz->compressor, text, len, gz->scratch, gz->scratch_size);
#endif
}

bool gzip_text_compress(struct gzip_text *gz, const char *text, size_t len, char **out,
                        size_t *out_len) {
    *out = NULL;
    *out_len = 0;
    if (!reserve(gz, len)) {
        return false;
    }
    size_t compressed = compress_scratch(gz, text, len);
    if (compressed == 0) {
        return false;
    }
    *out = malloc(compressed);
    if (*out == NULL) {
        return false;
    }
    memcpy(*out, gz->scratch, compressed);
    *out_len = compressed;
    return true;
}

void gzip_text_free(struct gzip_text *gz) {
    if (gz == NULL) {
        return;
    }
#if NVT_HAVE_ISAL
    free(gz->level_buf);
#else
    libdeflate_free_compressor(gz->compressor);
#endif
    free(gz->scratch);
    free(gz);
}
