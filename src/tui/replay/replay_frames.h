/*
 * What the replay monitor derives from recorded frames (record/codec/frame.h): copies of recorded
 * host processes in the library's one-allocation form, the metrics screen's readings, and the
 * events the time line jumps to.  Pure functions of frames, apart from the reader a search decodes
 * with. UI thread (one thread per reader).
 */
#ifndef NVITOP_SRC_TUI_REPLAY_REPLAY_FRAMES_H
#define NVITOP_SRC_TUI_REPLAY_REPLAY_FRAMES_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

#include "record/file/reader.h"
#include "tui/live/watch.h"

/* The frame a snapshot of rec_reader_frame() belongs to. */
struct frame *replay_frame_of(const struct nvt_snapshot *snap);

/* The reading of the watched process in snap, as the sampler would have taken it then.  False
 * when the process is not in snap (not yet started, or exited); *out is then zeroed.  Free with
 * watch_sample_fini(). */
bool replay_watch_sample(const struct nvt_snapshot *snap, const struct watch_target *target,
                         struct watch_sample *out);

/* What changed from prev to cur that the event keys stop at: a GPU process appeared or exited, a
 * GPU was lost, a GPU's memory went above 95 %.  Writes a description of the first such change to
 * what and returns true; false when nothing did. */
bool replay_event_between(const struct nvt_snapshot *prev, const struct nvt_snapshot *cur,
                          char *what, size_t what_size);

/* The frame of the next event after frame `from` (direction > 0) or the last one before it
 * (direction < 0), with its description in what, comparing about limit frames at most (a
 * search decodes every frame it passes: a bounded one keeps the monitor responsive).  SIZE_MAX
 * when there is none within the limit (*searched is then the farthest frame searched, `from`
 * when none), or when a frame could not be decoded (error then says why, else it is ""). */
size_t replay_find_event(struct rec_reader *reader, size_t from, int direction, size_t limit,
                         size_t *searched, char *what, size_t what_size, char *error,
                         size_t error_size);

#endif /* NVITOP_SRC_TUI_REPLAY_REPLAY_FRAMES_H */
