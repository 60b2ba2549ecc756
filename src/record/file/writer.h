/*
 * Appending frames to one recording file (docs/recording.md).  A writer holds an exclusive
 * flock(2) on its file, so a second writer of the same file is refused.  Opening an existing
 * recording checks it record by record and cuts nothing but a torn last record or the zeros a
 * killed writer leaves; damage in the middle, another recording appended to it or unknown data at
 * its end are kept (the note says what was found) and the new segment goes after them, where
 * readers find it again (scan.h).  A file that is not a recording is refused, never overwritten.
 * A kill leaves at most one torn record, which readers ignore.  One writer per file and per
 * thread.
 */
#ifndef NVITOP_SRC_RECORD_FILE_WRITER_H
#define NVITOP_SRC_RECORD_FILE_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

struct rec_writer;

/* Frames per keyframe unless told otherwise (nvitop-record --keyframe-every). */
#define REC_KEYFRAME_EVERY_DEFAULT 300

struct rec_writer_options {
    double interval_s;       /* written into the segment record, for readers' gap detection */
    unsigned keyframe_every; /* frames per keyframe (1: keyframes only); 0: the default below */
    int level;               /* zstd level; 0 means 3 */
    unsigned mode;           /* permission bits of a file it creates; 0 means 0600 */
    /* Told, as one line, what the writer found in an existing file that it did not expect
     * (damage it keeps, a torn record it cut); may be NULL. */
    void (*note)(void *arg, const char *text);
    void *note_arg;
};

/* Open (creating it when missing) path for appending.  NULL with a message in error; also for a
 * recording of an older major format, which this writer does not append to (its readers would
 * skip what it writes). */
struct rec_writer *rec_writer_open(const char *path, const struct rec_writer_options *options,
                                   char *error, size_t error_size);

/* Append a frame (the snapshot and the ancestors of its GPU processes).  False with a message on
 * a write error (the file then ends at the previous whole record; errno says why, see
 * rec_disk_full()).  After an error the writer may be asked again: it starts a new segment, whose
 * first frame is a keyframe. */
bool rec_writer_append(struct rec_writer *w, const struct nvt_snapshot *snap,
                       const struct nvt_host_process *related, size_t related_count, char *error,
                       size_t error_size);

/* Is err (errno after a failed rec_writer_open() or rec_writer_append()) a full disk or a
 * quota (ENOSPC, EDQUOT)?  Recorders then keep running and try again each interval. */
bool rec_disk_full(int err);

/* Does path hold a readable recording of an older major format?  False when it cannot be read. */
bool rec_writer_is_older(const char *path);

/* Is there something at path that a writer refuses to append to (not a regular file, or a
 * non-empty file that is not a readable recording)?  False when path is missing or empty. */
bool rec_writer_is_foreign(const char *path);

/* Bytes in the file so far (its records; a running writer reserves room past them). */
unsigned long long rec_writer_size(const struct rec_writer *w);

/* Close the file.  Accepts NULL. */
void rec_writer_close(struct rec_writer *w);

#endif /* NVITOP_SRC_RECORD_FILE_WRITER_H */
