/*
 * nvisel's check of the UUIDs in a CUDA_VISIBLE_DEVICES value: a prefix too short to name a
 * device is reported, where CUDA's rules would silently end the list there (an empty selection).
 */
#ifndef NVITOP_SRC_CMD_NVISEL_UUID_PREFIX_H
#define NVITOP_SRC_CMD_NVISEL_UUID_PREFIX_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest hex digits of an abbreviated UUID: the shortest form nvitop documents
 * ("GPU-18ef14e9") and the library's own minimum (docs/api.md). */
#define NVISEL_UUID_PREFIX_MIN 8

/* Checks every comma-separated entry of value.  An entry "GPU-<hex>", "MIG-<hex>" or
 * "MIG-GPU-<hex>/..." whose hex part (dashes aside) has fewer than NVISEL_UUID_PREFIX_MIN
 * digits makes it return false with a one-line message (no newline) in message; where names the
 * value's source in it.  Pure; thread-safe. */
bool nvisel_check_uuid_prefixes(const char *value, const char *where, char *message, size_t size);

#endif /* NVITOP_SRC_CMD_NVISEL_UUID_PREFIX_H */
