/*
 * Times typed by users for replays (`--at`, `--from`, `--to`): "HH:MM[:SS]" (local time: the
 * latest such moment within [first, last] of the recording, else the latest one before last),
 * "YYYY-MM-DD" (local midnight), "YYYY-MM-DD[T ]HH:MM[:SS]" (local; a trailing "Z" means UTC) and
 * "@SECONDS" since the epoch.  Uses the process's time zone (TZ); thread-safe otherwise.
 */
#ifndef NVITOP_SRC_RECORD_WHEN_H
#define NVITOP_SRC_RECORD_WHEN_H

#include <stdbool.h>
#include <stddef.h>

/* Parse text into *out (seconds since the epoch).  False with a message for malformed text. */
bool when_parse(const char *text, double first, double last, double *out, char *error,
                size_t error_size);

/* As when_parse, but a time of day (HH:MM[:SS]) is the first such moment at or after after (on
 * its local day or the next: --to after --from, over midnight and on days of 23 or 25 hours). */
bool when_parse_after(const char *text, double after, double first, double last, double *out,
                      char *error, size_t error_size);

/* Does the local time of t occur twice (the hour when DST ends)?  True with *other set to the
 * other moment with the same local time. */
bool when_twice(double t, double *other);

/* "YYYY-MM-DD HH:MM:SS" in local time. */
void when_format(double t, char *out, size_t size);

#endif /* NVITOP_SRC_RECORD_WHEN_H */
