/*
 * The recording's container (docs/recording.md): a 32-byte file header, then records, each a
 * 28-byte header and a payload covered by a CRC-32.  A writer start appends a segment record; a
 * segment's first frame is a keyframe (its frame message compressed with zstd alone), the next
 * ones are patches (format 2: the fields that changed) or, in format-1 files, deltas (compressed
 * with the previous frame's message as zstd's prefix) until the next keyframe.  Constants and
 * byte-order helpers only; thread-safe.
 */
#ifndef NVITOP_SRC_RECORD_FILE_FILE_FORMAT_H
#define NVITOP_SRC_RECORD_FILE_FILE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_MAGIC         "NVTOPREC"
#define REC_VERSION_MAJOR 2 /* a reader refuses a larger major version, reads every older one */
#define REC_VERSION_MINOR 0 /* additions a version-2 reader may skip */
#define REC_FILE_HEADER   32
#define REC_RECORD_HEADER 28
#define REC_RECORD_MAGIC  "NVRF"
#define REC_MAX_PAYLOAD   (16U << 20) /* per record, compressed or not */
#define REC_MAX_RAW       (8U << 20)  /* a decompressed frame */

enum rec_type {
    REC_SEGMENT = 1,  /* payload: a message (1 program version, 2 hostname, 3 interval, 4 start) */
    REC_KEYFRAME = 2, /* payload: zstd frame of a frame message */
    REC_DELTA = 3,    /* format 1: zstd frame compressed against the previous frame's message */
    REC_PATCH = 4     /* format 2: the changes since the previous frame (patch.h); flags below */
};

/* A patch's payload is zstd-compressed with the previous patch of its keyframe group (or nothing
 * after the keyframe) as prefix; without this flag it is the patch itself. */
#define REC_FLAG_ZSTD 1U

struct rec_record_header {
    unsigned type;
    unsigned flags;
    uint32_t payload_size;
    uint32_t raw_size;
    double timestamp;
    uint32_t crc;
};

void rec_put_u16(unsigned char *at, uint16_t v);
void rec_put_u32(unsigned char *at, uint32_t v);
void rec_put_f64(unsigned char *at, double v);
uint16_t rec_get_u16(const unsigned char *at);
uint32_t rec_get_u32(const unsigned char *at);
double rec_get_f64(const unsigned char *at);

/* The file header of this version. */
void rec_file_header(unsigned char out[REC_FILE_HEADER]);

/* Check a file header: 0 when it is ours and readable, else an error message ("not an nvitop
 * recording", "recorded by a newer nvitop (format 2)…") written to error. */
bool rec_check_file_header(const unsigned char *in, size_t size, char *error, size_t error_size);

/* Encode a record header; crc covers the first 24 bytes and the payload. */
void rec_record_header_put(unsigned char out[REC_RECORD_HEADER], const struct rec_record_header *h,
                           const void *payload);

/* Parse a record header (magic, type range and sizes, not the CRC).  False when it is not one. */
bool rec_record_header_get(const unsigned char in[REC_RECORD_HEADER], struct rec_record_header *h);

/* Does the payload match the header's CRC? */
bool rec_record_crc_ok(const unsigned char in[REC_RECORD_HEADER], const void *payload, size_t size);

#endif /* NVITOP_SRC_RECORD_FILE_FILE_FORMAT_H */
