/*
 * The recorded source's state, shared by its two files: replay_source.c (the source operations)
 * and replay_keys.c (the time line's keys and drawing).  Private to them; UI thread only.
 */
#ifndef NVITOP_SRC_TUI_REPLAY_REPLAY_STATE_H
#define NVITOP_SRC_TUI_REPLAY_REPLAY_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "record/file/reader.h"
#include "tui/live/watch.h"

#define REPLAY_PROMPT_SIZE 40

struct replay {
    struct rec_reader *reader;
    size_t count;
    size_t index; /* the frame shown (or about to be) */
    size_t taken; /* the frame take() handed out last; SIZE_MAX before the first */
    bool pending; /* index changed since: take() decodes it */
    bool playing;
    size_t speed;      /* index into the speeds table (replay_keys.c) */
    double anchor_s;   /* monotonic time playing (re)started */
    double anchor_rec; /* recorded time of the frame shown then */
    /* The metrics screen's process (source.h, watch): readings from watch_next up to index. */
    bool watching;
    struct watch_target target;
    unsigned generation;
    size_t watch_next;
    bool watch_seen; /* the process was in a frame read so far: its absence is its exit */
    /* The typed time (`@`): open while the user types. */
    bool prompt_open;
    char prompt[REPLAY_PROMPT_SIZE];
    size_t prompt_len;
    char note[160];        /* for the user, once (take_note) */
    size_t *shown_at_stop; /* the owner's, set by stop() */
};

/* The frame shown: the one take() handed out last, or before the first the one about to be. */
size_t replay_shown_frame(const struct replay *r);

/* The recorded time (on the clock of the frame shown) at which playing shows the next frame: its
 * time, or a second after the frame shown when the next one starts another era (the clock was set
 * back there). */
double replay_next_due(const struct replay *r);

/* Speed factor of r's current speed. */
double replay_speed(const struct replay *r);

/* Show frame i from now on (clamped to the recording); playing goes on from there. */
void replay_move(struct replay *r, size_t i, double now_s);

/* The time line's keys and drawing (source.h: key, draw_timeline). */
struct canvas;
bool replay_key(void *impl, int key, double now_s);
void replay_draw_timeline(void *impl, struct canvas *canvas, int y, int cols);

#endif /* NVITOP_SRC_TUI_REPLAY_REPLAY_STATE_H */
