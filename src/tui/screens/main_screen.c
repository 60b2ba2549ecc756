/*
 * The main screen: the device, host and process panels stacked (docs/nvitop-behaviour.md §3.3), the
 * display-mode choice, vertical scrolling, the keys and mouse actions of the process list (§3.6,
 * §3.12), and our layout keys: H and P hide or show the host and process panels, b the bandwidth
 * column, g and G choose what the upper and lower GPU graphs plot, + and - their height, and S
 * saves the settings.
 */
#include <stdlib.h>

#include "tui/screens/screen.h"
#include "tui/term.h"
#include "tui/widgets/panels.h"

#define HOST_SCROLL_STEP  2
#define CTRL_WHEEL_FACTOR 5
/* Home and End move the selection this far: to the first or last row, and the screen the rest of
 * the way (nvitop's LARGE_INTEGER moves). */
#define MOVE_TO_END (1L << 20)

void main_screen_layout(struct tui_app *app) {
    struct app_layout *layout = &app->layout;
    int dev_full = device_panel_height(app, false);
    int dev_compact = device_panel_height(app, true);
    int host_full = host_panel_height(app, false);
    int host_compact = host_panel_height(app, true);
    int proc_full = app->hide_processes ? 0 : process_panel_height(app, false);
    int lines = app->rows;
    switch (app->mode) {
    case VIEW_MODE_FULL:
        layout->device_compact = layout->host_compact = layout->process_compact = false;
        break;
    case VIEW_MODE_COMPACT:
        layout->device_compact = layout->host_compact = layout->process_compact = true;
        break;
    default:
        layout->device_compact = lines < dev_full + host_full + proc_full;
        layout->host_compact = lines < dev_compact + host_full + proc_full;
        layout->process_compact = lines < dev_compact + host_compact + proc_full;
        break;
    }
    layout->device_y = 0;
    layout->device_height = layout->device_compact ? dev_compact : dev_full;
    layout->host_y = layout->device_y + layout->device_height;
    layout->host_height = host_panel_height(app, layout->host_compact);
    layout->process_y = layout->host_y + layout->host_height;
    layout->process_height =
        app->hide_processes ? 0 : process_panel_height(app, layout->process_compact);
    layout->total_height = layout->process_y + layout->process_height;
}

static void clamp_scroll(struct tui_app *app) {
    int max = app->layout.total_height - app->rows;
    if (app->scroll > max) {
        app->scroll = max;
    }
    if (app->scroll < 0) {
        app->scroll = 0;
    }
}

/* Stack row of process row i, as the process panel will draw it. */
static int row_position(const struct tui_app *app, size_t index) {
    int y = app->layout.process_y + 5;
    bool separators = !app->layout.process_compact && app->order == VIEW_SORT_NATURAL;
    for (size_t i = 1; i <= index && i < app->table.count; i++) {
        if (separators &&
            app->table.rows[i].physical_index != app->table.rows[i - 1].physical_index) {
            y++;
        }
    }
    return y + (int)index;
}

/* Scroll so that the selected row is on screen (nvitop's poke does the same). */
static void follow_selection(struct tui_app *app) {
    if (!app->selection.set || app->selection.index >= app->table.count) {
        return;
    }
    int y = row_position(app, app->selection.index);
    if (y < app->scroll) {
        app->scroll = y;
    } else if (y >= app->scroll + app->rows) {
        app->scroll = y - app->rows + 1;
    }
}

void main_screen_draw(struct tui_app *app, struct canvas *canvas, double wall_s) {
    main_screen_layout(app);
    clamp_scroll(app);
    follow_selection(app);
    clamp_scroll(app);
    canvas_set_origin(canvas, app->scroll);
    const struct app_layout *layout = &app->layout;
    device_panel_draw(app, canvas, layout->device_y, layout->device_compact, wall_s);
    host_panel_draw(app, canvas, layout->host_y, layout->host_compact);
    if (app->hide_processes) {
        app->row_y_count = 0; /* no process row to click */
    } else {
        process_panel_draw(app, canvas, layout->process_y, layout->process_compact);
    }
    canvas_set_origin(canvas, 0);
}

/* Move the selection by delta rows; what is left of the move past the first or last row scrolls
 * the screen (docs/nvitop-behaviour.md §3.3.5; the draw clamps the scroll).  Without a selection a
 * step selects the first row (down) or the last (up), and Home/End the first or last. */
static void move_selection(struct tui_app *app, long delta) {
    size_t count = app->table.count;
    if (count == 0) {
        return;
    }
    bool to_end = delta >= MOVE_TO_END || delta <= -MOVE_TO_END;
    long last = (long)count - 1;
    if (!app->selection.set) {
        long index = (delta > 0) == to_end ? last : 0;
        selection_select(&app->selection, &app->table, (size_t)index);
        if (to_end) {
            /* Unlike nvitop, Home and End scroll all the way even without a selection, so that
             * End always shows the bottom of the table and Home the top of the screen. */
            app->scroll = delta > 0 ? app->layout.total_height : 0;
        }
        return;
    }
    long old = (long)app->selection.index;
    long index = old + delta;
    index = index < 0 ? 0 : index > last ? last : index;
    selection_select(&app->selection, &app->table, (size_t)index);
    long rest = delta - (index - old);
    if (to_end) {
        app->scroll = delta > 0 ? app->layout.total_height : 0;
    } else if (rest != 0) {
        app->scroll += (int)rest;
    }
}

static int max_host_offset(const struct tui_app *app) {
    int width = app->cols < 79 ? 79 : app->cols;
    int max = (int)app->table.host_info_width - width + 45;
    return max < -1 ? -1 : max;
}

static void set_host_offset(struct tui_app *app, int offset) {
    int max = max_host_offset(app);
    int clamped = offset > max ? max : offset;
    clamped = clamped < -1 ? -1 : clamped;
    if (clamped != offset) {
        term_beep();
    }
    app->host_offset = clamped;
}

static void open_signal_box(struct tui_app *app, int option) {
    if (!app_can_signal(app)) {
        app_note(app, "Read-only mode: sending signals is disabled.");
        return;
    }
    struct selection_target *targets;
    size_t count;
    if (!selection_targets(&app->selection, &app->table, &targets, &count)) {
        return;
    }
    message_box_open(&app->box, targets, count, option);
}

static void force_refresh(struct tui_app *app) {
    selection_clear(&app->selection);
    app->host_offset = -1;
    app->scroll = 0;
    app->refresh_requested = true;
    app->repaint_requested = true;
}

static void set_order(struct tui_app *app, enum view_sort_order order, bool reverse) {
    app->order = order;
    app->reverse = reverse;
    app_rebuild_table(app);
}

static bool sort_key(struct tui_app *app, int key) {
    enum view_sort_order order;
    bool reverse;
    if (key > 0 && key < 128 && view_sort_from_key((char)key, &order, &reverse)) {
        set_order(app, order, reverse);
        return true;
    }
    return false;
}

static bool selection_key(struct tui_app *app, int key) {
    switch (key) {
    case TUI_KEY_UP:
    case TUI_KEY_BACK_TAB:
    case TUI_KEY_ALT | 'k':
        move_selection(app, -1);
        return true;
    case TUI_KEY_DOWN:
    case TUI_KEY_TAB:
    case TUI_KEY_ALT | 'j':
        move_selection(app, 1);
        return true;
    case TUI_KEY_HOME:
        move_selection(app, -MOVE_TO_END);
        return true;
    case TUI_KEY_END:
        move_selection(app, MOVE_TO_END);
        return true;
    case ' ':
        selection_toggle_tag(&app->selection, &app->table);
        move_selection(app, 1);
        return true;
    case TUI_KEY_ESC:
        selection_clear(&app->selection);
        return true;
    default:
        return false;
    }
}

static bool scroll_key(struct tui_app *app, int key) {
    switch (key) {
    case TUI_KEY_LEFT:
    case TUI_KEY_ALT | 'h':
        set_host_offset(app, app->host_offset - HOST_SCROLL_STEP);
        return true;
    case TUI_KEY_RIGHT:
    case TUI_KEY_ALT | 'l':
        set_host_offset(app, app->host_offset + HOST_SCROLL_STEP);
        return true;
    case TUI_KEY_CTRL_A:
    case '^':
        app->host_offset = -1;
        return true;
    case TUI_KEY_CTRL_E:
    case '$':
        app->host_offset = max_host_offset(app);
        return true;
    case TUI_KEY_PAGE_UP:
    case '[':
    case TUI_KEY_ALT | 'K':
        app->scroll--;
        return true;
    case TUI_KEY_PAGE_DOWN:
    case ']':
    case TUI_KEY_ALT | 'J':
        app->scroll++;
        return true;
    default:
        return false;
    }
}

static bool order_key(struct tui_app *app, int key) {
    switch (key) {
    case ',':
    case '<':
        set_order(app, (app->order + VIEW_SORT_COUNT - 1) % VIEW_SORT_COUNT, false);
        return true;
    case '.':
    case '>':
        set_order(app, (app->order + 1) % VIEW_SORT_COUNT, false);
        return true;
    case '/':
        set_order(app, app->order, !app->reverse);
        return true;
    case 'o':
        app->pending_o = true;
        return true;
    default:
        return false;
    }
}

/* Enter a screen about the selected process (the metrics screen needs one, docs/nvitop-behaviour.md
 * §3.2). */
static void open_process_screen(struct tui_app *app, enum app_screen screen, bool need_process) {
    struct app_process_ref process;
    if (!app_selected_process(app, &process) && need_process) {
        return;
    }
    app_screen_push(app, screen, &process);
}

/* The layout keys (settings [layout]) and the save key. */
static bool layout_key(struct tui_app *app, int key) {
    switch (key) {
    case 'H':
        app->hide_host = !app->hide_host;
        return true;
    case 'P':
        app->hide_processes = !app->hide_processes;
        if (app->hide_processes) {
            selection_clear(&app->selection); /* no signal to a process out of sight */
        }
        return true;
    case 'b':
        app->hide_bandwidth = !app->hide_bandwidth;
        return true;
    case 'g':
    case 'G': {
        size_t g = key == 'g' ? 0 : 1;
        app_set_graph(app, g, (app->graphs[g] + 1) % TUI_GRAPH_METRIC_COUNT);
        return true;
    }
    case '+':
    case '-': {
        int height = app->graph_height + (key == '+' ? 1 : -1);
        if (height < TUI_GRAPH_HEIGHT_MIN || height > TUI_GRAPH_HEIGHT_MAX) {
            term_beep();
        } else {
            app->graph_height = height;
        }
        return true;
    }
    case 'S':
        app_save_settings(app);
        return true;
    default:
        return false;
    }
}

static bool command_key(struct tui_app *app, int key) {
    switch (key) {
    case 'q':
    case 'Q':
        app->quit = true;
        return true;
    case 'h':
    case '?':
        app_screen_push(app, APP_SCREEN_HELP, NULL);
        return true;
    case 'a':
        app->mode = VIEW_MODE_AUTO;
        return true;
    case 'f':
        app->mode = VIEW_MODE_FULL;
        return true;
    case 'c':
        app->mode = VIEW_MODE_COMPACT;
        return true;
    case 'r':
    case 'R':
    case TUI_KEY_CTRL_R:
    case TUI_KEY_F5:
        force_refresh(app);
        return true;
    case 'T':
        open_signal_box(app, MESSAGE_BOX_TERM);
        return true;
    case 'K':
    case 'k':
        open_signal_box(app, MESSAGE_BOX_KILL);
        return true;
    case TUI_KEY_CTRL_C:
    case 'I':
        open_signal_box(app, MESSAGE_BOX_INT);
        return true;
    case 'e':
        open_process_screen(app, APP_SCREEN_ENVIRON, false);
        return true;
    case 't':
        /* The tree is built from the process snapshots: none yet, no tree (docs/nvitop-behaviour.md
         * §3.2). */
        if (app->proc_snap != NULL) {
            open_process_screen(app, APP_SCREEN_TREE, false);
        }
        return true;
    case TUI_KEY_ENTER:
        open_process_screen(app, APP_SCREEN_METRICS, true);
        return true;
    default:
        return false;
    }
}

bool main_screen_key(struct tui_app *app, int key) {
    if (app->pending_o) {
        /* nvitop's key buffer: o and the next key are one binding; a key that makes none (o q,
         * o h) is dropped with the o, never taken on its own. */
        app->pending_o = false;
        sort_key(app, key);
        return true;
    }
    return command_key(app, key) || selection_key(app, key) || scroll_key(app, key) ||
           order_key(app, key) || layout_key(app, key);
}

bool main_screen_mouse(struct tui_app *app, const struct tui_event *event) {
    int factor = (event->buttons & TUI_MOUSE_CTRL) ? CTRL_WHEEL_FACTOR : 1;
    int direction = (event->buttons & TUI_MOUSE_WHEEL_UP)     ? -1
                    : (event->buttons & TUI_MOUSE_WHEEL_DOWN) ? 1
                                                              : 0;
    if (direction != 0) {
        if (event->buttons & TUI_MOUSE_SHIFT) {
            set_host_offset(app, app->host_offset + direction * HOST_SCROLL_STEP * factor);
        } else {
            move_selection(app, direction * factor);
        }
        return true;
    }
    if (!(event->buttons & TUI_MOUSE_PRESS)) {
        return false;
    }
    int y = event->y + app->scroll;
    int row = process_panel_row_at(app, y);
    if (row >= 0) {
        selection_select(&app->selection, &app->table, (size_t)row);
        return true;
    }
    if (y >= app->layout.process_y && y < app->layout.process_y + app->layout.process_height) {
        selection_reset(&app->selection);
        return true;
    }
    return false;
}

const struct screen_ops main_screen_ops = {
    .name = "main",
    .draw = main_screen_draw,
    .key = main_screen_key,
    .mouse = main_screen_mouse,
};
