/*
 * Finding whole records in a recording that may be damaged (docs/recording.md, "Damage"): every
 * record starts with the marker "NVRF" and carries its length and a CRC-32 over its header and
 * payload, so after damage the next record is the next marker whose header parses, whose payload
 * fits in the file and whose CRC matches.  Used by the writer at start-up (what may it cut?) and
 * by the reader's walk at open (where does reading resume?).  Reads with pread only; thread-safe
 * for distinct buffers.
 */
#ifndef NVITOP_SRC_RECORD_FILE_SCAN_H
#define NVITOP_SRC_RECORD_FILE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct rec_record_header;

/* Is the record at `at` (whose header h was parsed) whole and does its CRC match?  Reads its
 * payload (at most 16 MiB) into *buf, grown as needed (free it). */
bool rec_scan_crc_ok(int fd, unsigned long long at, const struct rec_record_header *h,
                     unsigned char **buf, size_t *cap);

/* The offset of the first record at or after `from` and before `size` that is whole and whose
 * CRC matches, or size when there is none.  *frames (may be NULL) counts the headers of frame
 * records in between that look whole but were not (damaged records, each a frame lost). */
unsigned long long rec_scan_next(int fd, unsigned long long from, unsigned long long size,
                                 size_t *frames, unsigned char **buf, size_t *cap);

/* Are the bytes [at, size) all zero?  The room a running or killed writer reserved past its last
 * record (writer.h) is zeros, and that is no damage. */
bool rec_scan_zeros(int fd, unsigned long long at, unsigned long long size);

/* Are the bytes [at, size) what a writer stopped in the middle of a record leaves: zeros, a
 * prefix of one record (a write() cut short), or one record without its marker or cut short,
 * followed by zeros (a mapping stored into when the writer was killed)?  Only such a tail may be
 * cut by a writer. */
bool rec_scan_torn_tail(int fd, unsigned long long at, unsigned long long size);

#endif /* NVITOP_SRC_RECORD_FILE_SCAN_H */
