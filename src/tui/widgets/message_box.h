/*
 * The signal confirmation box (docs/nvitop-behaviour.md §3.7): message, four buttons (SIGTERM,
 * SIGKILL, SIGINT, Cancel), keys and mouse.  The box only decides; the caller sends the signal it
 * chose.  Not thread-safe (UI thread).
 */
#ifndef NVITOP_SRC_TUI_WIDGETS_MESSAGE_BOX_H
#define NVITOP_SRC_TUI_WIDGETS_MESSAGE_BOX_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/canvas.h"
#include "tui/event.h"
#include "tui/selection.h"

enum message_box_option {
    MESSAGE_BOX_TERM = 0,
    MESSAGE_BOX_KILL,
    MESSAGE_BOX_INT,
    MESSAGE_BOX_CANCEL,
    MESSAGE_BOX_OPTION_COUNT
};

struct message_box {
    bool open;
    int current;                      /* enum message_box_option */
    struct selection_target *targets; /* owned */
    size_t target_count;
    char **lines; /* the wrapped message, owned */
    size_t line_count;
    /* Set when the user chose: the option, until the caller takes it with
     * message_box_take_choice(). */
    bool decided;
    int choice;
    double confirm_at; /* a clicked button confirms at this time (0: none) */
};

/* Box width for four options: (8 + 6) * 4 + 6. */
#define MESSAGE_BOX_WIDTH 62

/* Open the box for these targets (ownership of the array passes to the box) with the option
 * `preselect` highlighted. */
void message_box_open(struct message_box *box, struct selection_target *targets, size_t count,
                      int preselect);

/* Close the box and free what it owns.  Safe on a closed box. */
void message_box_close(struct message_box *box);

/* Handle a key; always consumes it while the box is open. */
void message_box_key(struct message_box *box, int key);

/* Handle a mouse event at screen position; now_s is the monotonic time (a clicked button
 * confirms 0.25 s later, see message_box_tick()). */
void message_box_mouse(struct message_box *box, const struct tui_event *event, int rows, int cols,
                       double now_s);

/* Confirm a clicked button once its delay has passed.  Returns true when that happened. */
bool message_box_tick(struct message_box *box, double now_s);

/* When the user has decided: the signal number to send (0 for Cancel) and true, once. */
bool message_box_take_choice(struct message_box *box, int *signal_number);

/* Draw the box centred on a canvas of rows x cols, dimming everything else. */
void message_box_draw(const struct message_box *box, struct canvas *canvas);

#endif /* NVITOP_SRC_TUI_WIDGETS_MESSAGE_BOX_H */
