/*
 * Finding whole records past damage (scan.h).
 */
#include "record/file/scan.h"

#include <string.h>

#include "record/file/file_format.h"
#include "record/file/reader_index.h"
#include "util/xalloc.h"

bool rec_scan_crc_ok(int fd, unsigned long long at, const struct rec_record_header *h,
                     unsigned char **buf, size_t *cap) {
    size_t total = REC_RECORD_HEADER + (size_t)h->payload_size;
    if (*cap < total) {
        *buf = xrealloc(*buf, total);
        *cap = total;
    }
    return rec_read_exact(fd, *buf, total, at) &&
           rec_record_crc_ok(*buf, *buf + REC_RECORD_HEADER, h->payload_size);
}

/* Candidates are found through a window read with pread; the marker may straddle two windows, so
 * consecutive windows overlap by a record header. */
#define SCAN_WINDOW (64U << 10)

unsigned long long rec_scan_next(int fd, unsigned long long from, unsigned long long size,
                                 size_t *frames, unsigned char **buf, size_t *cap) {
    unsigned char window[SCAN_WINDOW];
    unsigned long long base = from;
    while (base + REC_RECORD_HEADER <= size) {
        size_t want = size - base < SCAN_WINDOW ? (size_t)(size - base) : SCAN_WINDOW;
        if (!rec_read_exact(fd, window, want, base)) {
            return size;
        }
        for (size_t i = 0; i + REC_RECORD_HEADER <= want; i++) {
            if (window[i] != 'N' || memcmp(window + i, REC_RECORD_MAGIC, 4) != 0) {
                continue;
            }
            struct rec_record_header h;
            unsigned long long at = base + i;
            if (!rec_record_header_get(window + i, &h) ||
                at + REC_RECORD_HEADER + h.payload_size > size) {
                continue;
            }
            if (rec_scan_crc_ok(fd, at, &h, buf, cap)) {
                return at;
            }
            if (frames != NULL && rec_is_frame(h.type)) {
                (*frames)++;
            }
        }
        if (want < SCAN_WINDOW) {
            break;
        }
        base += SCAN_WINDOW - REC_RECORD_HEADER;
    }
    return size;
}

bool rec_scan_zeros(int fd, unsigned long long at, unsigned long long size) {
    unsigned char buf[4096];
    while (at < size) {
        size_t n = size - at < sizeof(buf) ? (size_t)(size - at) : sizeof(buf);
        if (!rec_read_exact(fd, buf, n, at)) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (buf[i] != 0) {
                return false;
            }
        }
        at += n;
    }
    return true;
}

/* The first non-zero byte in [at, size), or size. */
static unsigned long long first_nonzero(int fd, unsigned long long at, unsigned long long size) {
    unsigned char buf[4096];
    while (at < size) {
        size_t n = size - at < sizeof(buf) ? (size_t)(size - at) : sizeof(buf);
        if (!rec_read_exact(fd, buf, n, at)) {
            return size;
        }
        for (size_t i = 0; i < n; i++) {
            if (buf[i] != 0) {
                return at + i;
            }
        }
        at += n;
    }
    return size;
}

/* Is [at, size) one torn record (with its marker, or without: a writer stores the marker last),
 * followed by zeros? */
static bool torn_record(int fd, unsigned long long at, unsigned long long size) {
    unsigned char head[REC_RECORD_HEADER] = {0};
    size_t have = size - at < REC_RECORD_HEADER ? (size_t)(size - at) : REC_RECORD_HEADER;
    if (!rec_read_exact(fd, head, have, at)) {
        return false;
    }
    size_t marker = have < 4 ? have : 4;
    bool marked = memcmp(head, REC_RECORD_MAGIC, marker) == 0;
    bool unmarked = memcmp(head, "\0\0\0\0", marker) == 0;
    if (have < REC_RECORD_HEADER) {
        return marked; /* the start of a record's header, cut short */
    }
    if (!marked && !unmarked) {
        return false;
    }
    memcpy(head, REC_RECORD_MAGIC, 4);
    struct rec_record_header h;
    if (!rec_record_header_get(head, &h)) {
        return false;
    }
    /* A record with its marker that ends exactly at the end of the file is whole: damaged, not
     * torn, and kept. */
    unsigned long long end = at + REC_RECORD_HEADER + h.payload_size;
    if (end == size) {
        return !marked;
    }
    return end > size || rec_scan_zeros(fd, end, size);
}

bool rec_scan_torn_tail(int fd, unsigned long long at, unsigned long long size) {
    unsigned long long p = first_nonzero(fd, at, size);
    if (p >= size) {
        return true;
    }
    return torn_record(fd, p, size) || (p >= at + 4 && torn_record(fd, p - 4, size));
}
