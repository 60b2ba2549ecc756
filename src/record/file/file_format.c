/*
 * Byte layout of the recording's file and record headers (format.h).  Integers are little-endian
 * whatever the host.
 */
#include "record/file/file_format.h"

#include <stdio.h>
#include <string.h>

#include "record/file/crc32.h"

void rec_put_u16(unsigned char *at, uint16_t v) {
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
}

void rec_put_u32(unsigned char *at, uint32_t v) {
    for (size_t i = 0; i < 4; i++) {
        at[i] = (unsigned char)(v >> (8 * i));
    }
}

void rec_put_f64(unsigned char *at, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    for (size_t i = 0; i < 8; i++) {
        at[i] = (unsigned char)(bits >> (8 * i));
    }
}

uint16_t rec_get_u16(const unsigned char *at) {
    return (uint16_t)(at[0] | at[1] << 8);
}

uint32_t rec_get_u32(const unsigned char *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

double rec_get_f64(const unsigned char *at) {
    uint64_t bits = 0;
    for (size_t i = 0; i < 8; i++) {
        bits |= (uint64_t)at[i] << (8 * i);
    }
    double v;
    memcpy(&v, &bits, sizeof(v));
    return v;
}

/* Layout: magic (8), major (2), minor (2), header size (4), 12 reserved zero bytes, CRC-32 of the
 * first 28 bytes (4). */
void rec_file_header(unsigned char out[REC_FILE_HEADER]) {
    memset(out, 0, REC_FILE_HEADER);
    memcpy(out, REC_MAGIC, 8);
    rec_put_u16(out + 8, REC_VERSION_MAJOR);
    rec_put_u16(out + 10, REC_VERSION_MINOR);
    rec_put_u32(out + 12, REC_FILE_HEADER);
    rec_put_u32(out + 28, crc32_update(0, out, 28));
}

bool rec_check_file_header(const unsigned char *in, size_t size, char *error, size_t error_size) {
    if (size < 8 || memcmp(in, REC_MAGIC, 8) != 0) {
        snprintf(error, error_size, "not an nvitop recording");
        return false;
    }
    if (size < REC_FILE_HEADER || rec_get_u32(in + 28) != crc32_update(0, in, 28)) {
        snprintf(error, error_size, "the recording's header is damaged");
        return false;
    }
    unsigned major = rec_get_u16(in + 8);
    if (major > REC_VERSION_MAJOR) {
        snprintf(error, error_size,
                 "recorded by a newer nvitop (format %u.%u); this nvitop reads format %d and older",
                 major, rec_get_u16(in + 10), REC_VERSION_MAJOR);
        return false;
    }
    if (major == 0 || rec_get_u32(in + 12) != REC_FILE_HEADER) {
        snprintf(error, error_size, "the recording's header is damaged");
        return false;
    }
    return true;
}

/* Layout: magic "NVRF" (4), type (1), flags (1), reserved (2), payload size (4), raw size (4),
 * timestamp (8, a double), CRC-32 of the first 24 bytes and the payload (4). */
void rec_record_header_put(unsigned char out[REC_RECORD_HEADER], const struct rec_record_header *h,
                           const void *payload) {
    memset(out, 0, REC_RECORD_HEADER);
    memcpy(out, REC_RECORD_MAGIC, 4);
    out[4] = (unsigned char)h->type;
    out[5] = (unsigned char)h->flags;
    rec_put_u32(out + 8, h->payload_size);
    rec_put_u32(out + 12, h->raw_size);
    rec_put_f64(out + 16, h->timestamp);
    uint32_t crc = crc32_update(0, out, 24);
    rec_put_u32(out + 24, crc32_update(crc, payload, h->payload_size));
}

bool rec_record_header_get(const unsigned char in[REC_RECORD_HEADER], struct rec_record_header *h) {
    if (memcmp(in, REC_RECORD_MAGIC, 4) != 0) {
        return false;
    }
    h->type = in[4];
    h->flags = in[5];
    h->payload_size = rec_get_u32(in + 8);
    h->raw_size = rec_get_u32(in + 12);
    h->timestamp = rec_get_f64(in + 16);
    h->crc = rec_get_u32(in + 24);
    return h->type != 0 && h->payload_size <= REC_MAX_PAYLOAD && h->raw_size <= REC_MAX_RAW &&
           h->timestamp == h->timestamp; /* not NaN */
}

bool rec_record_crc_ok(const unsigned char in[REC_RECORD_HEADER], const void *payload,
                       size_t size) {
    uint32_t crc = crc32_update(crc32_update(0, in, 24), payload, size);
    return crc == rec_get_u32(in + 24);
}
