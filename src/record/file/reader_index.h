/*
 * The reader's index of a recording (reader.h), in memory bounded whatever the recording's length:
 * at open one walk over the record headers (no payload is decompressed) keeps per file its path
 * and where its whole records end, and per block of REC_BLOCK_FRAMES frames of one file a summary
 * (its first frame's number, time, offset and segment, and the keyframe that frame depends on).
 * A frame's entry (offset, sizes, type, time) comes from its block, rebuilt on demand by walking
 * that block's record headers again; a few blocks and a few open files are cached (least recently
 * used first out), so stepping and searching near a frame read nothing twice.
 *
 * Reading an index changes its caches: the const functions below are logically const only, and
 * an index serves one thread at a time (as its reader).
 */
#ifndef NVITOP_SRC_RECORD_FILE_READER_INDEX_H
#define NVITOP_SRC_RECORD_FILE_READER_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/file/reader.h"
#include "util/text/strbuf.h"

#define REC_BLOCK_FRAMES 1024U
/* Lines of notes kept about damage and skipped files; the rest are counted in one more line. */
#define REC_MAX_NOTES 32U

/* One frame record. */
struct rec_entry {
    unsigned long long offset;
    double timestamp;
    uint32_t file;
    uint32_t segment; /* counts segments over the whole recording */
    uint32_t payload_size;
    uint32_t raw_size;
    unsigned char type;
    unsigned char flags;
};

/* From here to struct rec_index: what reader_index.c (the walk at open, the open files) and
 * reader_blocks.c (blocks and lookups) share; the reader uses the functions below only.
 *
 * Two blocks in use (a keyframe group across a block boundary) and a couple more for searches and
 * a step back: 4 x 40 KiB.  Four files open at most, whatever the number of daily files. */
#define REC_CACHED_BLOCKS 4
#define REC_OPEN_FILES    4
/* Headers are read through a window of this many bytes: frames of a few hundred bytes then cost
 * one read per window, not one per header. */
#define REC_WINDOW (64U << 10)

struct rec_index_file {
    char *path;
    unsigned long long end; /* where its whole records end, as the walk at open found */
};

struct rec_index_block {
    unsigned long long offset; /* its first frame's record */
    double first_time;
    size_t first; /* its first frame's number */
    size_t key;   /* the keyframe its first frame depends on, or SIZE_MAX (none in its segment) */
    uint32_t file;
    uint32_t segment; /* its first frame's */
};

struct rec_loaded_block {
    size_t block; /* SIZE_MAX: empty */
    unsigned long long used;
    struct rec_entry *entries; /* REC_BLOCK_FRAMES */
};

struct rec_open_file {
    uint32_t file;
    int fd; /* -1: empty */
    unsigned long long used;
};

struct rec_index_cache {
    struct rec_loaded_block blocks[REC_CACHED_BLOCKS];
    struct rec_open_file files[REC_OPEN_FILES];
    unsigned long long tick;
    unsigned char *window;
};

/* Record headers read in order through the window. */
struct rec_walker {
    int fd;
    unsigned long long end;
    unsigned char *buf;
    unsigned long long buf_at;
    size_t buf_len;
};

struct rec_index {
    struct rec_index_file *files;
    size_t file_count;
    struct rec_index_block *blocks;
    size_t block_count;
    size_t block_cap;
    size_t count;      /* frames */
    uint32_t segments; /* segment records seen, and damaged spans (a frame never depends on a
                        * frame before one) */
    bool split;        /* the next frame starts a block (after damage) */
    /* Eras: runs of frames whose times do not go back (a clock stepped back more than
     * REC_ERA_STEP_S starts one); each starts a block.  eras[k] is era k's first block. */
    size_t *eras;
    double *era_ends; /* the time of each era's last frame */
    size_t era_count;
    size_t era_cap;
    double last_time; /* of the last frame walked */
    double min_time;
    double max_time;
    struct strbuf notes; /* what the walk found, one line each (at most REC_MAX_NOTES) */
    size_t note_count;
    struct rec_index_cache *cache;
};

/* Index path (a recording file or a directory of *.nvtrec files, read in name order) into *x.
 * The walk reads past damage (scan.h): a damaged span ends its segment, the frames after it that
 * depend on frames before it are left out up to the next keyframe, and a note says where it is
 * and how many frames were lost; a record of a type this reader does not know is checked (CRC)
 * and skipped with a note.  In a directory, an entry that is not a regular file holding a
 * recording is skipped with a note.  False with a message in error when path (a file) is not a
 * readable recording; *x is then empty (rec_index_fini is still safe).  A recording without
 * frames is no error here. */
bool rec_index_open(struct rec_index *x, const char *path, char *error, size_t error_size);

void rec_index_fini(struct rec_index *x);

const char *rec_index_path(const struct rec_index *x, uint32_t file);

/* Frame i < x->count's entry, copied to *out.  False with a message when its file cannot be read
 * again as it was at open (removed, cut or rewritten since). */
bool rec_index_entry(const struct rec_index *x, size_t i, struct rec_entry *out, char *error,
                     size_t error_size);

/* Frame i < x->count's time (its block's first time when its file cannot be read again). */
double rec_index_time(const struct rec_index *x, size_t i);

/* The last frame at or before t in time order, in the latest era whose frames run from before t
 * to within slack seconds after it; else in the latest era that starts before t; else SIZE_MAX.
 * *matches (may be NULL) counts the eras that hold t (more than one: that time occurred twice,
 * the clock was set back). */
size_t rec_index_find(const struct rec_index *x, double t, double slack, size_t *matches);

/* The era of frame i < x->count: its frames are [*first, *end). */
void rec_index_era(const struct rec_index *x, size_t i, size_t *first, size_t *end);

/* The last frame at or before t in the era of frame i < x->count, or SIZE_MAX when that era starts
 * after t. */
size_t rec_index_find_in_era(const struct rec_index *x, size_t i, double t);

/* The keyframe frame i < x->count is decoded from (the last one at or before it in its segment),
 * or SIZE_MAX with a message. */
size_t rec_index_keyframe(const struct rec_index *x, size_t i, char *error, size_t error_size);

/* A descriptor open on file (from the cache of open files; the index closes it), or -1 with a
 * message. */
int rec_index_fd(const struct rec_index *x, uint32_t file, char *error, size_t error_size);

/* pread exactly size bytes at offset at. */
bool rec_read_exact(int fd, void *buf, size_t size, unsigned long long at);

/* The header of the record at at, when it is whole and its payload ends by w->end. */
struct rec_record_header;
bool rec_walk_header(struct rec_walker *w, unsigned long long at, struct rec_record_header *h);

/* A keyframe, a delta or a patch (other record types are no frames). */
bool rec_is_frame(unsigned type);

#endif /* NVITOP_SRC_RECORD_FILE_READER_INDEX_H */
