/*
 * A directory of daily recording files for the headless recorder: nvitop-YYYY-MM-DD-NNN.nvtrec
 * (UTC dates, so names sort in time order and a DST change never reuses a name).  A new file starts
 * each day and when the current one reaches a quarter of the byte limit; the oldest files are
 * removed to keep at most retain_days days of files and at most retain_bytes bytes (the current
 * file is never removed; at most 1000 files a day).  With a byte limit, a full disk (ENOSPC,
 * EDQUOT) removes the oldest files first, one at a time, each told to options->note, before
 * rec_dir_append() fails.  A restart appends a segment to today's last file.  One thread.
 */
#ifndef NVITOP_SRC_RECORD_RECORD_DIR_H
#define NVITOP_SRC_RECORD_RECORD_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "record/file/writer.h"

struct rec_dir;

struct rec_dir_limits {
    unsigned retain_days;            /* 0: no limit */
    unsigned long long retain_bytes; /* 0: no limit */
};

/* Create dir (and its missing parents) when missing: mode 0700, or with the read and search bits
 * of options->mode for group and others (0640 files: a 0750 directory), whatever the umask; an
 * existing directory keeps its mode.  NULL with a message in error. */
struct rec_dir *rec_dir_open(const char *dir, const struct rec_writer_options *options,
                             const struct rec_dir_limits *limits, char *error, size_t error_size);

bool rec_dir_append(struct rec_dir *d, const struct nvt_snapshot *snap,
                    const struct nvt_host_process *related, size_t related_count, char *error,
                    size_t error_size);

void rec_dir_close(struct rec_dir *d);

#endif /* NVITOP_SRC_RECORD_RECORD_DIR_H */
