/*
 * The selected process and the tagged ones (docs/nvitop-behaviour.md §3.6.1–§3.6.2).  A selection
 * is identified by (pid, create time, device slot) so that it follows its process across refreshes
 * and re-sorts; tags are keyed by pid, as nvitop keys them.  Not thread-safe (UI thread).
 */
#ifndef NVITOP_SRC_TUI_SELECTION_H
#define NVITOP_SRC_TUI_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/processes/process_table.h"

#define SELECTION_USER_LEN 32

/* A process signals are sent to, with the label the confirmation box shows. */
struct selection_target {
    uint32_t pid;
    double create_time;
    char user[SELECTION_USER_LEN];
};

struct selection {
    bool set;
    uint32_t pid;
    double create_time;
    size_t device_slot;
    size_t index;       /* row in the current table while set */
    bool owned;         /* the selected process is the user's (or we are superuser) */
    bool within_window; /* its row is on screen (set by the process panel when drawing) */
    struct selection_target *tags;
    size_t tag_count;
    size_t tag_cap;
};

void selection_init(struct selection *selection);
void selection_fini(struct selection *selection);

/* Find the selected process in a new table; the selection is dropped when it is gone. */
void selection_sync(struct selection *selection, const struct view_process_table *table);

/* Select row index of table (clamped; nothing when the table is empty). */
void selection_select(struct selection *selection, const struct view_process_table *table,
                      size_t index);

/* Forget the selected process (tags stay). */
void selection_reset(struct selection *selection);

/* Forget the selection and every tag. */
void selection_clear(struct selection *selection);

/* Toggle the tag of the selected process.  Aborts through the program's allocator hook when out
 * of memory. */
void selection_toggle_tag(struct selection *selection, const struct view_process_table *table);

bool selection_is_tagged(const struct selection *selection, uint32_t pid);

/* Is row the selected process, or the same host process on another device? */
bool selection_is_same(const struct selection *selection, const struct view_process_row *row);
bool selection_is_same_on_host(const struct selection *selection,
                               const struct view_process_row *row);

/* Whether signal keys have anything to act on: tags, or an owned selection on screen. */
bool selection_has_targets(const struct selection *selection);

/* The processes the signal keys act on: the tagged ones ordered by pid, else the selected one if
 * owned and on screen.  *out is allocated (free() it) and *count set; returns false when there
 * are none (*out is then NULL). */
bool selection_targets(const struct selection *selection, const struct view_process_table *table,
                       struct selection_target **out, size_t *count);

#endif /* NVITOP_SRC_TUI_SELECTION_H */
