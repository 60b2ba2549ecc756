/*
 * gzip for the exporter's responses: Intel ISA-L's igzip at level 1 when the build found it
 * (NVT_HAVE_ISAL), else libdeflate at level 1.  On the 8-GPU scenario's 124 KB text, igzip takes
 * 0.04 ms for 7.6 KB where libdeflate takes 0.14 to 0.20 ms for 7.5 KB (and zlib's level 1
 * 0.29 ms for 8.2 KB): compressing once per interval was the largest cost a scrape adds.  The
 * compressor's state and its output buffer are kept from one text to the next (allocating them
 * afresh cost more page faults than compressing).  One thread at a time per compressor.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_GZIP_TEXT_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_GZIP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct gzip_text;

/* A compressor; NULL when out of memory.  Free it with gzip_text_free(). */
struct gzip_text *gzip_text_new(void);

/* gzip text[0, len) as one gzip member into a fresh malloc'd allocation *out of *out_len bytes
 * (the caller frees it).  False, *out NULL, when out of memory or the compressor fails: the text
 * is then sent uncompressed. */
bool gzip_text_compress(struct gzip_text *gz, const char *text, size_t len, char **out,
                        size_t *out_len);

/* Accepts NULL. */
void gzip_text_free(struct gzip_text *gz);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_GZIP_TEXT_H */
