/*
 * The replay's time line (replay_state.h): its keys, which nvitop does not use
 * (docs/nvitop-behaviour.md §3.12), and its line at the top of the monitor.
 *
 *   p        play / pause              ( )   one frame back / forward
 *   j l      one minute back / forward J L   one hour back / forward
 *   n N      next / previous event     x X   play faster / slower
 *   @        jump to a typed time (record/when.h: 02:14, 2026-11-23 02:14, @SECONDS)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "record/when.h"
#include "tui/canvas.h"
#include "tui/event.h"
#include "tui/replay/replay_frames.h"
#include "tui/replay/replay_state.h"
#include "util/array.h"
#include "util/text/str.h"

/* A typed time this far after the last frame still shows the last frame, as `--at` does. */
#define END_SLACK_S 60.0
#define MIN_BAR     5
#define HELP_HINT   "(Press h for help or q to quit)"
/* Frames an event key searches at most (an hour at nvitop-record's 1 s: about 0.2 s on the
 * benchmark's 8-GPU recording); the next press goes on from there. */
#define EVENT_SEARCH_FRAMES 3600

static const double speeds[] = {1, 2, 5, 10, 30, 60, 300, 600, 3600};
#define SPEED_COUNT (ARRAY_SIZE(speeds))

double replay_speed(const struct replay *r) {
    return speeds[r->speed < SPEED_COUNT ? r->speed : 0];
}

static double time_of(const struct replay *r, size_t i) {
    return rec_reader_time(r->reader, i);
}

static void note(struct replay *r, const char *text) {
    str_copy(r->note, sizeof(r->note), text);
}

static void step(struct replay *r, int delta, double now_s) {
    if (delta < 0 && r->index == 0) {
        note(r, "Start of the recording.");
    } else if (delta > 0 && r->index + 1 >= r->count) {
        note(r, "End of the recording.");
    } else {
        replay_move(r, delta < 0 ? r->index - 1 : r->index + 1, now_s);
    }
}

/* Move by seconds of recorded time within the era shown (reader.h: the clock set back while
 * recording starts one); across a longer gap, or the era's edge, to the frame after it (or, back,
 * to the era's first frame, then to the frame before it). */
static void jump_by(struct replay *r, double seconds, double now_s) {
    double t = time_of(r, r->index) + seconds;
    size_t first = 0;
    size_t end = 0;
    rec_reader_era(r->reader, r->index, &first, &end);
    size_t i = rec_reader_find_in_era(r->reader, r->index, t);
    if (i == SIZE_MAX) {
        i = r->index > first ? first : r->index > 0 ? r->index - 1 : 0;
    }
    if (seconds > 0 && i <= r->index) {
        i = r->index + 1;
    }
    if (i == r->index || i >= r->count) {
        note(r, seconds < 0 ? "Start of the recording." : "End of the recording.");
        return;
    }
    replay_move(r, i, now_s);
}

static void jump_to_typed(struct replay *r, double now_s) {
    /* As --at: the earliest and latest times recorded (not the first and the last frame's where
     * the clock was set back while recording), the first frame's second holds it. */
    double first = rec_reader_first_time(r->reader);
    double last = rec_reader_last_time(r->reader);
    double t = 0.0;
    char error[128];
    if (!when_parse(r->prompt, first, last, &t, error, sizeof(error))) {
        note(r, error);
        return;
    }
    char text[sizeof(r->note)];
    size_t matches = 0;
    size_t i = rec_reader_find_at(r->reader, t, &matches);
    if (i == SIZE_MAX && floor(t) == floor(first)) {
        i = rec_reader_find_at(r->reader, first, &matches);
    }
    char when[64];
    if (i == SIZE_MAX || (matches == 0 && t > last + END_SLACK_S)) {
        when_format(i == SIZE_MAX ? first : last, when, sizeof(when));
        snprintf(text, sizeof(text), "%s is outside the recording (it %s %s).", r->prompt,
                 i == SIZE_MAX ? "starts" : "ends", when);
        note(r, text);
        return;
    }
    if (matches > 1) {
        snprintf(text, sizeof(text),
                 "%s was recorded %zu times (the clock was set back): the latest, frame %zu.",
                 r->prompt, matches, i + 1);
        note(r, text);
    }
    replay_move(r, i, now_s);
}

static void jump_event(struct replay *r, int direction, double now_s) {
    char what[96];
    char error[256];
    size_t searched = r->index;
    size_t i = replay_find_event(r->reader, r->index, direction, EVENT_SEARCH_FRAMES, &searched,
                                 what, sizeof(what), error, sizeof(error));
    char text[sizeof(r->note)];
    if (i != SIZE_MAX) {
        snprintf(text, sizeof(text), "Event: %s.", what);
        note(r, text);
        replay_move(r, i, now_s);
    } else if (error[0] != '\0') {
        note(r, error);
    } else if (searched != r->index && (direction > 0 ? searched + 1 < r->count : searched > 1)) {
        /* Not there yet: show how far the search went, so that the next press goes on. */
        char when[64];
        when_format(time_of(r, searched), when, sizeof(when));
        snprintf(text, sizeof(text), "No event %s %s: %c searches on.",
                 direction > 0 ? "until" : "since", when, direction > 0 ? 'n' : 'N');
        note(r, text);
        replay_move(r, searched, now_s);
    } else {
        note(r, direction > 0 ? "No further event in the recording."
                              : "No earlier event in the recording.");
    }
}

static void toggle_play(struct replay *r, double now_s) {
    if (!r->playing && r->index + 1 >= r->count) {
        note(r, "End of the recording.");
        return;
    }
    r->playing = !r->playing;
    r->anchor_s = now_s;
    r->anchor_rec = time_of(r, r->index);
}

static void set_speed(struct replay *r, int delta, double now_s) {
    size_t speed = r->speed;
    if (delta > 0 && speed + 1 < SPEED_COUNT) {
        speed++;
    } else if (delta < 0 && speed > 0) {
        speed--;
    }
    /* Re-anchored at the frame shown: the recorded time goes on from there at the new speed. */
    r->speed = speed;
    r->anchor_s = now_s;
    r->anchor_rec = time_of(r, r->index);
}

static bool prompt_key(struct replay *r, int key, double now_s) {
    if (key == TUI_KEY_ENTER) {
        r->prompt_open = false;
        if (r->prompt_len > 0) {
            jump_to_typed(r, now_s);
        }
    } else if (key == TUI_KEY_ESC) {
        r->prompt_open = false;
    } else if (key == 127 || key == 8 || key == TUI_KEY_BACKSPACE) {
        if (r->prompt_len > 0) {
            r->prompt[--r->prompt_len] = '\0';
        }
    } else if (key >= 0x20 && key < 0x7F && r->prompt_len + 1 < sizeof(r->prompt)) {
        r->prompt[r->prompt_len++] = (char)key;
        r->prompt[r->prompt_len] = '\0';
    }
    return true; /* while typing, every key is the prompt's */
}

bool replay_key(void *impl, int key, double now_s) {
    struct replay *r = impl;
    if (r->prompt_open) {
        return prompt_key(r, key, now_s);
    }
    switch (key) {
    case 'p':
        toggle_play(r, now_s);
        return true;
    case '(':
    case ')':
        step(r, key == '(' ? -1 : 1, now_s);
        return true;
    case 'j':
    case 'l':
        jump_by(r, key == 'j' ? -60.0 : 60.0, now_s);
        return true;
    case 'J':
    case 'L':
        jump_by(r, key == 'J' ? -3600.0 : 3600.0, now_s);
        return true;
    case 'n':
    case 'N':
        jump_event(r, key == 'n' ? 1 : -1, now_s);
        return true;
    case 'x':
    case 'X':
        set_speed(r, key == 'x' ? 1 : -1, now_s);
        return true;
    case '@':
        r->prompt_open = true;
        r->prompt_len = 0;
        r->prompt[0] = '\0';
        return true;
    default:
        return false;
    }
}

static void draw_prompt(const struct replay *r, struct canvas *canvas, int y, int cols) {
    const struct view_style style = {VIEW_COLOR_CYAN, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE,
                                     VIEW_COLOR_DEFAULT};
    char text[256];
    snprintf(text, sizeof(text),
             "Jump to (HH:MM[:SS], YYYY-MM-DD HH:MM, @SECONDS): %s_   Enter: jump  Esc: cancel",
             r->prompt);
    canvas_fill(canvas, y, 0, cols, " ", style);
    canvas_text(canvas, y, 0, text, style);
}

/* "[=====|-----]": where the shown time is between the first and the last frame. */
static void draw_bar(const struct replay *r, struct canvas *canvas, int y, int x, int width) {
    const struct view_style plain = {0};
    const struct view_style mark = {VIEW_COLOR_CYAN, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    double first = rec_reader_first_time(r->reader);
    double span = rec_reader_last_time(r->reader) - first;
    size_t shown = replay_shown_frame(r);
    double fraction = span > 0.0 ? (time_of(r, shown) - first) / span : 1.0;
    fraction = fraction < 0.0 ? 0.0 : fraction > 1.0 ? 1.0 : fraction;
    int inner = width - 2;
    int at = (int)lround(fraction * (inner - 1));
    canvas_text(canvas, y, x, "[", plain);
    canvas_fill(canvas, y, x + 1, at, "=", plain);
    canvas_text(canvas, y, x + 1 + at, "|", mark);
    canvas_fill(canvas, y, x + 2 + at, inner - at - 1, "-", plain);
    canvas_text(canvas, y, x + width - 1, "]", plain);
}

void replay_draw_timeline(void *impl, struct canvas *canvas, int y, int cols) {
    const struct replay *r = impl;
    if (r->prompt_open) {
        draw_prompt(r, canvas, y, cols);
        return;
    }
    const struct view_style plain = {0};
    const struct view_style label = {VIEW_COLOR_CYAN, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE,
                                     VIEW_COLOR_DEFAULT};
    const struct view_style state = {r->playing ? VIEW_COLOR_GREEN : VIEW_COLOR_YELLOW,
                                     VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    size_t shown = replay_shown_frame(r);
    char when[64];
    when_format(time_of(r, shown), when, sizeof(when));
    char speed[32];
    snprintf(speed, sizeof(speed), " x%g ", replay_speed(r));
    char position[64];
    snprintf(position, sizeof(position), " %zu/%zu", shown + 1, r->count);
    canvas_fill(canvas, y, 0, cols, " ", plain);
    int x = canvas_text(canvas, y, 0, "REPLAY", label);
    x = canvas_text(canvas, y, x, " ", plain);
    x = canvas_text(canvas, y, x, r->playing ? "PLAYING" : "PAUSED ", state);
    x = canvas_text(canvas, y, x, speed, plain);
    x = canvas_text(canvas, y, x, when, plain);
    x = canvas_text(canvas, y, x, " ", plain);
    int hint = (int)strlen(HELP_HINT) + 2;
    int rest = cols - x - (int)strlen(position);
    bool with_hint = rest - hint >= 20;
    int bar = with_hint ? rest - hint : rest;
    if (bar >= MIN_BAR) {
        draw_bar(r, canvas, y, x, bar);
        x += bar;
    }
    x = canvas_text(canvas, y, x, position, plain);
    if (with_hint) {
        canvas_text(canvas, y, x + 2, HELP_HINT, plain);
    }
}
