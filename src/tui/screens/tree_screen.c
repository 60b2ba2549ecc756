/*
 * The tree-view screen (docs/nvitop-behaviour.md §3.8, keys §3.12): the GPU processes of the main
 * screen's latest process snapshot with their ancestors and direct children
 * (view/processes/process_tree.h), from the source (live: read by the sampling thread with the
 * snapshot while the tree is shown, src/tui/live/tree_hosts.h).  It is rebuilt when a new process
 * snapshot arrives, and only while it is shown; keys only move the selection and the scroll.
 * Selection by (pid, create time), tags by pid, signals through the same confirmation box and
 * identity check as the main screen.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screens/screen.h"
#include "tui/term.h"
#include "tui/widgets/panels.h"
#include "util/xalloc.h"
#include "view/processes/process_tree.h"

#define TREE_SCROLL_STEP  5
#define SHIFT_WHEEL_STEP  2
#define CTRL_WHEEL_FACTOR 5

struct tree_state {
    struct view_process_tree tree;
    bool built;
    uint64_t generation;        /* app->proc_generation the tree was built from */
    uint64_t signal_generation; /* app->signal_generation when the selection was last cleared */
    bool selected;
    uint32_t pid;
    double create_time;
    size_t index;
    bool within_window;
    struct selection_target *tags; /* keyed by pid, as on the main screen */
    size_t tag_count;
    int x_offset;
    int y_offset; /* rows scrolled off the top of the list */
};

static struct tree_state *state_of(struct tui_app *app) {
    return app->screen_state[APP_SCREEN_TREE];
}

static struct nvt_host_process *read_process(void *arg, uint32_t pid) {
    return app_host_process(arg, pid);
}

static void resync_selection(struct tree_state *st) {
    if (!st->selected) {
        return;
    }
    long row = view_process_tree_find(&st->tree, st->pid, st->create_time);
    if (row < 0) {
        st->selected = false;
        return;
    }
    st->index = (size_t)row;
}

static void rebuild(struct tui_app *app, struct tree_state *st) {
    if (st->built) {
        view_process_tree_fini(&st->tree);
        st->built = false;
    }
    st->generation = app->proc_generation;
    if (!app->table_built) {
        return;
    }
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    if (!app_parent_map(app, &pids, &ppids, &count)) {
        count = 0;
    }
    view_process_tree_build(&app->table, pids, ppids, count, read_process, app, &app->view,
                            &st->tree);
    free(pids);
    app_host_pass_end(app);
    st->built = true;
    resync_selection(st);
}

static void select_row(struct tree_state *st, size_t index) {
    if (st->tree.count == 0) {
        return;
    }
    if (index >= st->tree.count) {
        index = st->tree.count - 1;
    }
    st->selected = true;
    st->index = index;
    st->pid = st->tree.rows[index].pid;
    st->create_time = st->tree.rows[index].create_time;
}

static void move_selection(struct tree_state *st, int delta) {
    if (st->tree.count == 0) {
        return;
    }
    if (!st->selected) {
        select_row(st, delta > 0 ? 0 : st->tree.count - 1);
        return;
    }
    long index = (long)st->index + delta;
    select_row(st, index < 0 ? 0 : (size_t)index);
}

static bool is_tagged(const struct tree_state *st, uint32_t pid) {
    for (size_t i = 0; i < st->tag_count; i++) {
        if (st->tags[i].pid == pid) {
            return true;
        }
    }
    return false;
}

static void toggle_tag(struct tree_state *st) {
    if (!st->selected) {
        return;
    }
    for (size_t i = 0; i < st->tag_count; i++) {
        if (st->tags[i].pid == st->pid) {
            st->tags[i] = st->tags[--st->tag_count];
            return;
        }
    }
    const struct nvt_host_process *host = st->tree.rows[st->index].host;
    st->tags = xrealloc(st->tags, (st->tag_count + 1) * sizeof(*st->tags));
    struct selection_target *tag = &st->tags[st->tag_count++];
    memset(tag, 0, sizeof(*tag));
    tag->pid = st->pid;
    tag->create_time = st->create_time;
    snprintf(tag->user, sizeof(tag->user), "%s",
             host->user != NULL && host->user[0] != '\0' ? host->user : "N/A");
}

static void clear_selection(struct tree_state *st) {
    st->selected = false;
    st->tag_count = 0;
}

static int compare_targets(const void *a, const void *b) {
    uint32_t pa = ((const struct selection_target *)a)->pid;
    uint32_t pb = ((const struct selection_target *)b)->pid;
    return (pa > pb) - (pa < pb);
}

/* Tagged processes ordered by pid, else the selected one if owned and on screen
 * (docs/nvitop-behaviour.md §3.7). */
static size_t signal_targets(const struct tree_state *st, struct selection_target **out) {
    *out = NULL;
    if (st->tag_count > 0) {
        *out = xmalloc(st->tag_count * sizeof(**out));
        memcpy(*out, st->tags, st->tag_count * sizeof(**out));
        qsort(*out, st->tag_count, sizeof(**out), compare_targets);
        return st->tag_count;
    }
    if (!st->selected || !st->within_window || !st->tree.rows[st->index].owned ||
        isnan(st->create_time)) {
        return 0;
    }
    const struct nvt_host_process *host = st->tree.rows[st->index].host;
    *out = xcalloc(1, sizeof(**out));
    (*out)->pid = st->pid;
    (*out)->create_time = st->create_time;
    snprintf((*out)->user, sizeof((*out)->user), "%s", host->user);
    return 1;
}

static void open_signal_box(struct tui_app *app, struct tree_state *st, int option) {
    if (!app_can_signal(app)) {
        app_note(app, "Read-only mode: sending signals is disabled.");
        return;
    }
    struct selection_target *targets;
    size_t count = signal_targets(st, &targets);
    if (count > 0) {
        message_box_open(&app->box, targets, count, option);
    }
}

static void tree_enter(struct tui_app *app) {
    struct tree_state *st = xcalloc(1, sizeof(*st));
    app->screen_state[APP_SCREEN_TREE] = st;
    st->signal_generation = app->signal_generation;
    rebuild(app, st);
    /* The main screen's selection moves to the tree (docs/nvitop-behaviour.md §3.2). */
    const struct app_process_ref *process = app_screen_process(app);
    if (process->set) {
        st->selected = true;
        st->pid = process->pid;
        st->create_time = process->create_time;
        resync_selection(st);
    }
}

static void tree_leave(struct tui_app *app) {
    struct tree_state *st = state_of(app);
    /* ... and back to the main screen, on the process's first device. */
    if (st->selected && app->table_built) {
        for (size_t i = 0; i < app->table.count; i++) {
            const struct nvt_gpu_process *process = app->table.rows[i].process;
            if (process->pid == st->pid) {
                selection_select(&app->selection, &app->table, i);
                break;
            }
        }
    }
    view_process_tree_fini(&st->tree);
    free(st->tags);
    free(st);
    app->screen_state[APP_SCREEN_TREE] = NULL;
}

static void draw_header(struct tui_app *app, struct tree_state *st, struct canvas *canvas) {
    const struct view_style header_style = {VIEW_COLOR_CYAN, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE,
                                            VIEW_COLOR_DEFAULT};
    struct view_line line;
    view_line_init(&line);
    if (st->x_offset < (int)st->tree.command_col) {
        view_line_slice(&st->tree.header, (size_t)st->x_offset, (size_t)app->cols, &line);
    } else {
        view_line_add(&line, "COMMAND", header_style);
    }
    view_line_pad(&line, (size_t)app->cols);
    view_line_paint(&line, 0, (size_t)app->cols, header_style);
    canvas_line(canvas, 0, 0, &line);
    view_line_fini(&line);
    /* A recording has the ancestors only: say why no child off the GPUs is shown. */
    const char *why = app_unavailable(app, TUI_SOURCE_CHILDREN);
    if (why != NULL) {
        char text[96];
        snprintf(text, sizeof(text), "children not on a GPU: %s ", why);
        int x = app->cols - (int)strlen(text);
        if (x > (int)st->tree.command_col + 10 - st->x_offset) {
            canvas_text(canvas, 0, x, text, header_style);
        }
    }
}

static void clamp_offsets(struct tui_app *app, struct tree_state *st) {
    int height = app->rows - 1;
    if (st->selected) {
        int y = (int)st->index;
        if (y < st->y_offset) {
            st->y_offset = y;
        } else if (y >= st->y_offset + height) {
            st->y_offset = y - height + 1;
        }
    }
    int max = (int)st->tree.count - height;
    st->y_offset = st->y_offset > max ? max : st->y_offset;
    st->y_offset = st->y_offset < 0 ? 0 : st->y_offset;
}

static void paint_row(const struct tui_app *app, const struct tree_state *st, struct canvas *canvas,
                      int y, size_t i) {
    const struct view_tree_row *row = &st->tree.rows[i];
    bool tagged = is_tagged(st, row->pid);
    if (st->selected && st->index == i) {
        canvas_color(canvas, y, 0, app->cols, tagged ? VIEW_COLOR_YELLOW : VIEW_COLOR_GREEN);
        canvas_attrs(canvas, y, 0, app->cols, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE, 0xFF);
    } else if (tagged) {
        canvas_color(canvas, y, 0, app->cols, VIEW_COLOR_YELLOW);
        canvas_attrs(canvas, y, 0, app->cols,
                     row->owned ? VIEW_ATTR_BOLD : VIEW_ATTR_BOLD | VIEW_ATTR_DIM, 0xFF);
    } else if (!row->owned) {
        /* As nvitop: the whole row dim in the default colour, the tree's green prefix included. */
        canvas_color(canvas, y, 0, app->cols, VIEW_COLOR_DEFAULT);
        canvas_attrs(canvas, y, 0, app->cols, VIEW_ATTR_DIM, 0xFF);
    }
}

static void tree_draw(struct tui_app *app, struct canvas *canvas, double wall_s) {
    (void)wall_s;
    struct tree_state *st = state_of(app);
    if (st->signal_generation != app->signal_generation) {
        st->signal_generation = app->signal_generation;
        clear_selection(st);
    }
    if (!st->built || st->generation != app->proc_generation) {
        rebuild(app, st);
    }
    draw_header(app, st, canvas);
    const struct view_style plain = {0};
    if (st->tree.count == 0) {
        canvas_text(canvas, 1, 0, "No running GPU processes found.", plain);
        st->within_window = false;
        return;
    }
    clamp_offsets(app, st);
    struct view_line line;
    view_line_init(&line);
    st->within_window = false;
    for (int y = 1; y < app->rows; y++) {
        size_t i = (size_t)(st->y_offset + y - 1);
        if (i >= st->tree.count) {
            break;
        }
        view_line_slice(&st->tree.rows[i].line, (size_t)st->x_offset, (size_t)app->cols, &line);
        canvas_line(canvas, y, 0, &line);
        paint_row(app, st, canvas, y, i);
        if (st->selected && st->index == i) {
            st->within_window = true;
        }
    }
    view_line_fini(&line);
    struct selection_target *targets;
    bool hint = app_can_signal(app) && signal_targets(st, &targets) > 0;
    if (hint) {
        free(targets);
        signal_hint_draw_header(canvas, 0, app->cols);
    }
}

static void scroll_x(struct tree_state *st, int delta) {
    int widest = 0;
    for (size_t i = 0; i < st->tree.count; i++) {
        int width = (int)view_line_width(&st->tree.rows[i].line);
        widest = width > widest ? width : widest;
    }
    int offset = st->x_offset + delta;
    offset = offset > widest - 1 ? widest - 1 : offset;
    st->x_offset = offset < 0 ? 0 : offset;
}

static void open_environ(struct tui_app *app, const struct tree_state *st) {
    struct app_process_ref process = {.set = false, .device_slot = SIZE_MAX};
    if (st->selected) {
        process.set = true;
        process.pid = st->pid;
        process.create_time = st->create_time;
    }
    app_screen_push(app, APP_SCREEN_ENVIRON, &process);
}

static bool move_key(struct tree_state *st, int key) {
    switch (key) {
    case TUI_KEY_UP:
    case TUI_KEY_BACK_TAB:
    case TUI_KEY_ALT | 'k':
    case TUI_KEY_PAGE_UP:
    case '[':
        move_selection(st, -1);
        return true;
    case TUI_KEY_DOWN:
    case TUI_KEY_TAB:
    case TUI_KEY_ALT | 'j':
    case TUI_KEY_PAGE_DOWN:
    case ']':
        move_selection(st, 1);
        return true;
    case TUI_KEY_HOME:
        select_row(st, 0);
        return true;
    case TUI_KEY_END:
        select_row(st, st->tree.count > 0 ? st->tree.count - 1 : 0);
        return true;
    case TUI_KEY_LEFT:
    case TUI_KEY_ALT | 'h':
        scroll_x(st, -TREE_SCROLL_STEP);
        return true;
    case TUI_KEY_RIGHT:
    case TUI_KEY_ALT | 'l':
        scroll_x(st, TREE_SCROLL_STEP);
        return true;
    case TUI_KEY_CTRL_A:
    case '^':
        st->x_offset = 0;
        return true;
    case TUI_KEY_ESC:
        clear_selection(st);
        return true;
    case ' ':
        toggle_tag(st);
        move_selection(st, 1);
        return true;
    default:
        return false;
    }
}

static bool tree_key(struct tui_app *app, int key) {
    struct tree_state *st = state_of(app);
    switch (key) {
    case 't':
    case 'q':
    case 'Q':
        app_screen_pop(app);
        return true;
    case 'e':
        open_environ(app, st);
        return true;
    case 'h':
    case '?':
        app_screen_push(app, APP_SCREEN_HELP, NULL);
        return true;
    case 'T':
        open_signal_box(app, st, MESSAGE_BOX_TERM);
        return true;
    case 'K':
    case 'k':
        open_signal_box(app, st, MESSAGE_BOX_KILL);
        return true;
    case TUI_KEY_CTRL_C:
    case 'I':
        open_signal_box(app, st, MESSAGE_BOX_INT);
        return true;
    default:
        return move_key(st, key);
    }
}

static bool tree_mouse(struct tui_app *app, const struct tui_event *event) {
    struct tree_state *st = state_of(app);
    int factor = (event->buttons & TUI_MOUSE_CTRL) ? CTRL_WHEEL_FACTOR : 1;
    int direction = (event->buttons & TUI_MOUSE_WHEEL_UP)     ? -1
                    : (event->buttons & TUI_MOUSE_WHEEL_DOWN) ? 1
                                                              : 0;
    if (direction != 0) {
        if (event->buttons & TUI_MOUSE_SHIFT) {
            scroll_x(st, direction * SHIFT_WHEEL_STEP);
        } else {
            move_selection(st, direction * factor);
        }
        return true;
    }
    if (!(event->buttons & TUI_MOUSE_PRESS) || event->y < 1) {
        return false;
    }
    size_t index = (size_t)(st->y_offset + event->y - 1);
    if (index < st->tree.count) {
        select_row(st, index);
        return true;
    }
    return false;
}

const struct screen_ops tree_screen_ops = {
    .name = "treeview",
    .enter = tree_enter,
    .leave = tree_leave,
    .draw = tree_draw,
    .key = tree_key,
    .mouse = tree_mouse,
};
