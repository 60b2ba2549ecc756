/*
 * Selection and tags (see selection.h).
 */
#include "tui/selection.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Create times come from /proc in clock ticks: compare them to 10 ms, as the library does.  A
 * vanished process has none (NaN) and is then known by its pid alone. */
static bool same_time(double a, double b) {
    if (isnan(a) || isnan(b)) {
        return isnan(a) && isnan(b);
    }
    return fabs(a - b) < 0.01;
}

void selection_init(struct selection *selection) {
    memset(selection, 0, sizeof(*selection));
}

void selection_fini(struct selection *selection) {
    free(selection->tags);
    memset(selection, 0, sizeof(*selection));
}

static bool row_is(const struct view_process_row *row, uint32_t pid, double create_time) {
    return row->process->pid == pid && same_time(row->process->host.create_time, create_time);
}

void selection_sync(struct selection *selection, const struct view_process_table *table) {
    if (!selection->set) {
        return;
    }
    for (size_t i = 0; i < table->count; i++) {
        const struct view_process_row *row = &table->rows[i];
        if (row_is(row, selection->pid, selection->create_time) &&
            row->device_slot == selection->device_slot) {
            selection->index = i;
            selection->owned = row->owned;
            return;
        }
    }
    selection_reset(selection);
}

void selection_select(struct selection *selection, const struct view_process_table *table,
                      size_t index) {
    if (table->count == 0) {
        selection_reset(selection);
        return;
    }
    if (index >= table->count) {
        index = table->count - 1;
    }
    const struct view_process_row *row = &table->rows[index];
    selection->set = true;
    selection->index = index;
    selection->pid = row->process->pid;
    selection->create_time = row->process->host.create_time;
    selection->device_slot = row->device_slot;
    selection->owned = row->owned;
}

void selection_reset(struct selection *selection) {
    selection->set = false;
    selection->index = 0;
    selection->owned = false;
    selection->within_window = false;
}

void selection_clear(struct selection *selection) {
    selection_reset(selection);
    selection->tag_count = 0;
}

static size_t find_tag(const struct selection *selection, uint32_t pid) {
    for (size_t i = 0; i < selection->tag_count; i++) {
        if (selection->tags[i].pid == pid) {
            return i;
        }
    }
    return SIZE_MAX;
}

bool selection_is_tagged(const struct selection *selection, uint32_t pid) {
    return find_tag(selection, pid) != SIZE_MAX;
}

static void fill_target(struct selection_target *target, const struct view_process_row *row) {
    const struct nvt_gpu_process *process = row->process;
    target->pid = process->pid;
    target->create_time = process->host.create_time;
    const char *user =
        process->host.user != NULL && process->host.user[0] != '\0' ? process->host.user : "N/A";
    /* nvitop cuts user names to 24 cells with a '+' in the confirmation box. */
    if (strlen(user) > 24) {
        snprintf(target->user, sizeof(target->user), "%.23s+", user);
    } else {
        snprintf(target->user, sizeof(target->user), "%s", user);
    }
}

void selection_toggle_tag(struct selection *selection, const struct view_process_table *table) {
    if (!selection->set || selection->index >= table->count) {
        return;
    }
    size_t at = find_tag(selection, selection->pid);
    if (at != SIZE_MAX) {
        selection->tags[at] = selection->tags[selection->tag_count - 1];
        selection->tag_count--;
        return;
    }
    if (selection->tag_count == selection->tag_cap) {
        size_t cap = selection->tag_cap == 0 ? 8 : selection->tag_cap * 2;
        selection->tags = xrealloc(selection->tags, cap * sizeof(*selection->tags));
        selection->tag_cap = cap;
    }
    fill_target(&selection->tags[selection->tag_count++], &table->rows[selection->index]);
}

bool selection_is_same(const struct selection *selection, const struct view_process_row *row) {
    return selection->set && row_is(row, selection->pid, selection->create_time) &&
           row->device_slot == selection->device_slot;
}

bool selection_is_same_on_host(const struct selection *selection,
                               const struct view_process_row *row) {
    return selection->set && row_is(row, selection->pid, selection->create_time);
}

bool selection_has_targets(const struct selection *selection) {
    return selection->tag_count > 0 ||
           (selection->set && selection->owned && selection->within_window);
}

static int compare_targets(const void *a, const void *b) {
    uint32_t pa = ((const struct selection_target *)a)->pid;
    uint32_t pb = ((const struct selection_target *)b)->pid;
    return (pa > pb) - (pa < pb);
}

bool selection_targets(const struct selection *selection, const struct view_process_table *table,
                       struct selection_target **out, size_t *count) {
    *out = NULL;
    *count = 0;
    if (selection->tag_count > 0) {
        *out = xmalloc(selection->tag_count * sizeof(**out));
        memcpy(*out, selection->tags, selection->tag_count * sizeof(**out));
        *count = selection->tag_count;
        qsort(*out, *count, sizeof(**out), compare_targets);
        return true;
    }
    if (selection->set && selection->owned && selection->within_window &&
        selection->index < table->count) {
        *out = xmalloc(sizeof(**out));
        fill_target(*out, &table->rows[selection->index]);
        *count = 1;
        return true;
    }
    return false;
}
