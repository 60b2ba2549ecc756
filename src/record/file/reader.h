/*
 * Reading a recording (a file, or a directory of daily files): at open, an index built from the
 * record headers alone (no payload is decompressed); a frame is decoded from the keyframe before
 * it, reusing the last decoded frame when stepping forward.  The open reads past damage (a note
 * for each damaged span, reader_index.h); a frame whose payload is damaged (its CRC), and the
 * frames after it up to the next keyframe, or a file removed or cut since the open, are reported
 * when they are read.  Memory, whatever the recording's
 * length: 40 bytes per 1,024 frames, four blocks of frame entries rebuilt on demand (160 KiB),
 * two frames, and at most four open files (reader_index.h).  The query functions taking a const
 * reader update those caches: one thread at a time per reader, for every function.
 */
#ifndef NVITOP_SRC_RECORD_FILE_READER_H
#define NVITOP_SRC_RECORD_FILE_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "record/codec/frame.h"

struct rec_reader;

/* Open path (a recording file or a directory of *.nvtrec files).  NULL with a message in error
 * when nothing can be read; a recording without any whole frame is an error too. */
struct rec_reader *rec_reader_open(const char *path, char *error, size_t error_size);

void rec_reader_close(struct rec_reader *r);

size_t rec_reader_count(const struct rec_reader *r);

/* Time (seconds since the epoch) of frame i < count. */
double rec_reader_time(const struct rec_reader *r, size_t i);

/* Frames are in recording order, and their times go back where the clock was set back: such a
 * step starts an era.  A time is looked up in the latest era that holds it (its frames run from
 * before it to at most REC_FIND_SLACK_S after it), else in the latest era that starts before it. */
#define REC_FIND_SLACK_S 60.0
/* A frame this many seconds older than the one before it starts an era: a clock stepped back.
 * Smaller steps (a clock slewed or stepped by NTP) are no era. */
#define REC_ERA_STEP_S 1.0

/* The last frame at or before t (as above), or (size_t)-1 when t is before every era. */
size_t rec_reader_find(const struct rec_reader *r, double t);

/* The same, with *matches set to the number of eras holding t: more than one when that time was
 * recorded more than once (the clock was set back). */
size_t rec_reader_find_at(const struct rec_reader *r, double t, size_t *matches);

/* The era of frame i < count (its run of frames whose times do not go back): [*first, *end). */
void rec_reader_era(const struct rec_reader *r, size_t i, size_t *first, size_t *end);

/* The last frame at or before t in the era of frame i < count, or (size_t)-1 when that era starts
 * after t. */
size_t rec_reader_find_in_era(const struct rec_reader *r, size_t i, double t);

/* The earliest and the latest time of any frame (not the first's and the last's when the clock was
 * set back). */
double rec_reader_first_time(const struct rec_reader *r);
double rec_reader_last_time(const struct rec_reader *r);

/* Notes for the user about what the open found (damaged spans with the frames lost, a torn last
 * record, records of unknown types, files of a directory skipped), one line each, or "". */
const char *rec_reader_warning(const struct rec_reader *r);

/* The first frame after i that does not depend on frame i (a keyframe, another segment or file),
 * or the count: when frame i is damaged, the frames before that one are lost with it. */
size_t rec_reader_next_key(struct rec_reader *r, size_t i);

/* Decode frame i into *out (free with frame_free()).  False with a message for a damaged frame. */
bool rec_reader_frame(struct rec_reader *r, size_t i, struct frame **out, char *error,
                      size_t error_size);

#endif /* NVITOP_SRC_RECORD_FILE_READER_H */
