/*
 * One recorded frame: a snapshot plus the host processes the tree view needs beyond the GPU
 * processes (their ancestors), as one self-describing message (docs/recording.md, "Frames").
 * A decoded frame is a struct nvt_snapshot built by this module, not by the library: free it
 * with frame_free(), never with nvt_snapshot_free().  Pure functions; a frame may be read from
 * any thread.
 */
#ifndef NVITOP_SRC_RECORD_CODEC_FRAME_H
#define NVITOP_SRC_RECORD_CODEC_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/snapshot.h>

#include "util/text/strbuf.h"

struct frame {
    struct nvt_snapshot snap;               /* devices[], processes[] owned by the frame */
    const struct nvt_host_process *related; /* ancestors of the GPU processes, by pid */
    size_t related_count;
    void **blocks; /* every allocation the frame owns */
    size_t block_count;
    size_t block_cap;
    /* The arrays snap and related point to, writable by this module's codecs (patches). */
    struct nvt_device_snapshot *devices_rw;
    struct nvt_gpu_process *processes_rw;
    struct nvt_host_process *related_rw;
    double *per_cpu_rw;     /* NULL when the host has no per-CPU percentages */
    uint32_t per_cpu_count; /* entries of per_cpu_rw */
};

/* Append the encoding of snap and related[] (may be NULL with count 0) to out.  Returns false
 * when memory ran out (out then holds a partial message). */
bool frame_encode(struct strbuf *out, const struct nvt_snapshot *snap,
                  const struct nvt_host_process *related, size_t related_count);

/* Decode a message into a new frame (*out, freed with frame_free()).  Returns false, with a
 * reason in error, for a malformed message or one whose slots do not fit together. */
bool frame_decode(const void *data, size_t size, struct frame **out, char *error,
                  size_t error_size);

void frame_free(struct frame *frame);

/* Do the frame's slots fit together (MIG parents and children, process devices), and has it a
 * valid time?  False with the reason in error.  Every decoded or patched frame passes this before
 * view code sees it. */
bool frame_check(const struct frame *frame, char *error, size_t error_size);

/* A deep copy of a snapshot and its related processes as a new frame (free with frame_free()).
 * The writer keeps one as the previous frame of its patches, the reader hands copies of its
 * current frame to callers.  Aborts through xalloc when out of memory. */
struct frame *frame_copy(const struct nvt_snapshot *snap, const struct nvt_host_process *related,
                         size_t related_count);

/* Give the frame a block to free with it (returns block), or a copy of size bytes as a
 * NUL-terminated string.  For the codecs of this module. */
void *frame_own(struct frame *frame, void *block);
char *frame_own_text(struct frame *frame, const void *bytes, size_t size);

/* Show every device whose state says it was lost (NVT_ERR_GPU_IS_LOST) as a GPU lost before it
 * was opened: its facts N/A and its handle status lost, which is how a live `nvitop -1` shows it
 * ("ERROR: GPU is Lost"); a recorder that opened the GPU before it was lost still holds the
 * facts, and recorded them. */
void frame_show_lost(struct frame *frame);

/* The related process with this pid, or NULL. */
const struct nvt_host_process *frame_related(const struct frame *frame, uint32_t pid);

#endif /* NVITOP_SRC_RECORD_CODEC_FRAME_H */
