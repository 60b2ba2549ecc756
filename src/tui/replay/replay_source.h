/*
 * The recorded source (source.h): the monitor on a recording (`nvitop --replay FILE|DIR`).  It
 * decodes the frame shown through the reader (record/file/reader.h) on the UI thread, plays the
 * recording on at a chosen speed, and moves through it with the time line's keys (a frame back or
 * forward, a minute, an hour, a typed time, the previous or next event).  It has no signal
 * operation: a replay is read-only by construction.
 */
#ifndef NVITOP_SRC_TUI_REPLAY_REPLAY_SOURCE_H
#define NVITOP_SRC_TUI_REPLAY_REPLAY_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "record/file/reader.h"
#include "tui/source.h"

/* A source on reader (lent: the caller closes it after the source stopped), showing frame start
 * first, paused.  When the source stops, *shown_at_stop (unless NULL) is set to the frame it
 * showed last, for the report printed after the monitor.  Never fails (out of memory aborts
 * through the program's allocator hook). */
void replay_source_open(struct tui_source *out, struct rec_reader *reader, size_t start,
                        size_t *shown_at_stop);

#endif /* NVITOP_SRC_TUI_REPLAY_REPLAY_SOURCE_H */
