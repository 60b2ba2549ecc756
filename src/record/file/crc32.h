/* CRC-32 (IEEE 802.3, as zlib and gzip), for the recording's per-record checksums.  Pure. */
#ifndef NVITOP_SRC_RECORD_FILE_CRC32_H
#define NVITOP_SRC_RECORD_FILE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC (start with 0). */
uint32_t crc32_update(uint32_t crc, const void *data, size_t size);

#endif /* NVITOP_SRC_RECORD_FILE_CRC32_H */
