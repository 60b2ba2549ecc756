/*
 * The monitor's state and its dispatch between screens (see app.h).
 */
#include "tui/app.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screens/metrics_screen.h"
#include "tui/screens/screen.h"
#include "tui/widgets/panels.h"

#define NOTE_SECONDS 3.0

static void fini_histories(struct app_histories *h) {
    history_fini(&h->cpu);
    history_fini(&h->memory);
    history_fini(&h->swap);
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        history_fini(&h->gpu[g]);
        for (size_t i = 0; h->device[g] != NULL && i < h->device_count; i++) {
            history_fini(&h->device[g][i]);
        }
        free(h->device[g]);
    }
    memset(h, 0, sizeof(*h));
}

bool app_init(struct tui_app *app, const struct tui_config *config) {
    memset(app, 0, sizeof(*app));
    app->config = config;
    app->view = config->view;
    app->mode = config->settings.mode;
    struct tui_settings settings = config->settings;
    if (settings.graph_height == 0) {
        tui_settings_defaults(&settings); /* a caller that set up no settings */
    }
    app->order = settings.sort < VIEW_SORT_COUNT ? settings.sort : VIEW_SORT_NATURAL;
    app->reverse = settings.reverse;
    app->hide_host = settings.hide_host;
    app->hide_processes = settings.hide_processes;
    app->hide_bandwidth = settings.hide_bandwidth;
    app->graphs[0] = settings.graph_upper;
    app->graphs[1] = settings.graph_lower;
    app->graph_height = settings.graph_height;
    app_update_sample_flags(app); /* as tui.c's first schedule: nothing drawn yet */
    app->host_offset = -1;
    app->focus.all = true; /* as the sampler starts */
    selection_init(&app->selection);
    app->screen = APP_SCREEN_MAIN;
    app->stack[0].screen = APP_SCREEN_MAIN;
    app->depth = 1;
    struct app_histories *h = &app->histories;
    bool ok = history_init(&h->cpu) & history_init(&h->memory) & history_init(&h->swap) &
              history_init(&h->gpu[0]) & history_init(&h->gpu[1]);
    if (!ok) {
        fini_histories(h);
        return false;
    }
    h->start_s = NAN; /* from the first value, unless app_start_graphs() says when */
    return true;
}

void app_fini(struct tui_app *app) {
    while (app->depth > 1) {
        app_screen_pop(app);
    }
    message_box_close(&app->box);
    if (app->table_built) {
        view_process_table_fini(&app->table);
    }
    free(app->pcie_devices);
    if (app->proc_snap != app->snap) {
        app_snapshot_free(app, app->proc_snap);
    }
    app_snapshot_free(app, app->snap);
    fini_histories(&app->histories);
    selection_fini(&app->selection);
    free(app->row_y);
    free(app->focus.pids);
    memset(app, 0, sizeof(*app));
}

void app_rebuild_table(struct tui_app *app) {
    if (app->table_built) {
        view_process_table_fini(&app->table);
        app->table_built = false;
    }
    if (app->proc_snap == NULL) {
        memset(&app->table, 0, sizeof(app->table));
        return;
    }
    view_process_table_build(app->proc_snap, &app->view, app->order, app->reverse, &app->table);
    app->table_built = true;
    selection_sync(&app->selection, &app->table);
}

/* Keep a copy of the devices of a snapshot with PCIe throughput; out of memory, the older copy
 * stays. */
static void keep_pcie_devices(struct tui_app *app, const struct nvt_snapshot *snap) {
    struct nvt_device_snapshot *copy = NULL;
    if (snap->device_count > 0) {
        copy = malloc(snap->device_count * sizeof(*copy));
        if (copy == NULL) {
            return;
        }
        memcpy(copy, snap->devices, snap->device_count * sizeof(*copy));
    }
    free(app->pcie_devices);
    app->pcie_devices = copy;
    app->pcie_device_count = snap->device_count;
}

void app_set_snapshot(struct tui_app *app, struct nvt_snapshot *snap, double now_s) {
    struct nvt_snapshot *old[2] = {app->snap, app->proc_snap};
    bool has_processes = (snap->flags & NVT_SAMPLE_PROCESSES) != 0;
    if (has_processes && app->table_built) {
        /* The table points into the old process snapshot: drop it before the snapshot goes. */
        view_process_table_fini(&app->table);
        app->table_built = false;
    }
    app->snap = snap;
    if (has_processes) {
        app->proc_snap = snap;
    }
    if ((snap->flags & NVT_SAMPLE_PCIE_THROUGHPUT) != 0) {
        keep_pcie_devices(app, snap);
    }
    /* Each snapshot no longer held is freed once, however many roles it had. */
    for (size_t i = 0; i < 2; i++) {
        bool seen = i > 0 && old[i] == old[0];
        if (old[i] != NULL && !seen && old[i] != app->snap && old[i] != app->proc_snap) {
            app_snapshot_free(app, old[i]);
        }
    }
    if (has_processes) {
        app->proc_generation++;
        app_rebuild_table(app);
    }
    host_panel_record(app, app->snap, now_s);
}

static void record_earlier(void *ctx, const struct nvt_snapshot *snap) {
    struct tui_app *app = ctx;
    host_panel_record(app, snap, snap->timestamp);
}

void app_source_jumped(struct tui_app *app) {
    /* The host panel's graphs: readings of another time of the recording do not continue them;
     * they start again with the frames that led to the new moment (as many seconds as the
     * widest graph can show, two points a column). */
    fini_histories(&app->histories);
    struct app_histories *h = &app->histories;
    h->start_s = NAN; /* only a recording jumps: its graphs start at its first frame */
    /* Out of memory leaves an empty history, which draws nothing and takes nothing. */
    (void)(history_init(&h->cpu) & history_init(&h->memory) & history_init(&h->swap) &
           history_init(&h->gpu[0]) & history_init(&h->gpu[1]));
    const struct tui_source *source = app->source;
    if (source->ops->each_before != NULL) {
        size_t points = 2 * (size_t)(app->cols > 0 ? app->cols : 80);
        source->ops->each_before(source->impl, (double)points, points, record_earlier, app);
    }
    app_metrics_jumped(app);
}

void app_screen_push(struct tui_app *app, enum app_screen screen,
                     const struct app_process_ref *process) {
    const struct screen_ops *ops = screen_ops_of(screen);
    if (ops->draw == NULL) {
        app_note(app, "This screen is not part of this build.");
        return;
    }
    if (app->depth >= APP_SCREEN_DEPTH) {
        return;
    }
    for (size_t i = 0; i < app->depth; i++) {
        if (app->stack[i].screen == screen) {
            return;
        }
    }
    struct app_screen_frame *frame = &app->stack[app->depth++];
    frame->screen = screen;
    frame->process = process != NULL ? *process : (struct app_process_ref){.set = false};
    app->screen = screen;
    if (ops->enter != NULL) {
        ops->enter(app);
    }
}

void app_screen_pop(struct tui_app *app) {
    if (app->depth <= 1) {
        return;
    }
    const struct screen_ops *ops = screen_ops_of(app->screen);
    if (ops->leave != NULL) {
        ops->leave(app);
    }
    app->depth--;
    app->screen = app->stack[app->depth - 1].screen;
}

nvt_context *app_host_context(struct tui_app *app) {
    return app->source->ops->host_context(app->source->impl);
}

const struct app_process_ref *app_screen_process(const struct tui_app *app) {
    return &app->stack[app->depth - 1].process;
}

bool app_selected_process(const struct tui_app *app, struct app_process_ref *out) {
    *out = (struct app_process_ref){.set = false, .device_slot = SIZE_MAX};
    const struct selection *sel = &app->selection;
    if (!sel->set || !app->table_built || sel->index >= app->table.count) {
        return false;
    }
    out->set = true;
    out->pid = sel->pid;
    out->create_time = sel->create_time;
    out->device_slot = sel->device_slot;
    return true;
}

void app_note(struct tui_app *app, const char *text) {
    snprintf(app->note, sizeof(app->note), "%s", text);
    app->note_until = -1.0; /* set when drawn: the draw knows the time */
}

static void draw_note(struct tui_app *app, struct canvas *canvas, double now_s) {
    if (app->note[0] == '\0') {
        return;
    }
    if (app->note_until < 0.0) {
        app->note_until = now_s + NOTE_SECONDS;
    } else if (now_s >= app->note_until) {
        app->note[0] = '\0';
        return;
    }
    const struct view_style style = {VIEW_COLOR_YELLOW, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE,
                                     VIEW_COLOR_DEFAULT};
    char text[sizeof(app->note) + 2];
    snprintf(text, sizeof(text), " %s ", app->note);
    int width = canvas_text_width(text, strlen(text));
    canvas_text(canvas, canvas_rows(canvas) - 1, (app->cols - width) / 2, text, style);
}

/* A replay's time line: over the clock line at the top of the main screen, on the last row of the
 * other screens (their first row is their header), which then draw on the rows above it; the
 * help screen lists its keys instead. */
static bool timeline_shown(const struct tui_app *app) {
    const struct tui_source *source = app->source;
    return source->ops->draw_timeline != NULL && app->screen != APP_SCREEN_HELP;
}

static bool timeline_at_bottom(const struct tui_app *app) {
    return timeline_shown(app) && app->screen != APP_SCREEN_MAIN;
}

static void draw_timeline(struct tui_app *app, struct canvas *canvas) {
    const struct tui_source *source = app->source;
    if (!timeline_shown(app)) {
        return;
    }
    int y = app->screen == APP_SCREEN_MAIN ? 0 : canvas_rows(canvas) - 1;
    source->ops->draw_timeline(source->impl, canvas, y, app->cols);
    char note[sizeof(app->note)];
    if (source->ops->take_note(source->impl, note, sizeof(note))) {
        app_note(app, note);
    }
}

void app_draw(struct tui_app *app, struct canvas *canvas, double now_s, double wall_s) {
    canvas_clear(canvas);
    canvas_set_ascii(canvas, app->view.ascii);
    if (app->cols < 79) {
        notice_draw(canvas, app->cols);
        return;
    }
    /* The rows the screen has (its keys page by them too, until the next draw). */
    app->rows = canvas_rows(canvas) - (timeline_at_bottom(app) && canvas_rows(canvas) > 1 ? 1 : 0);
    screen_ops_of(app->screen)->draw(app, canvas, wall_s);
    draw_timeline(app, canvas);
    /* Without a time line (live), the source's notes still reach the note line: a recording
     * paused by a full disk, and resumed. */
    char note[sizeof(app->note)];
    if (!timeline_shown(app) && app->source != NULL && app->source->ops->take_note != NULL &&
        app->source->ops->take_note(app->source->impl, note, sizeof(note))) {
        app_note(app, note);
    }
    message_box_draw(&app->box, canvas);
    draw_note(app, canvas, now_s);
    app_update_sample_flags(app);
}

bool app_handle_event(struct tui_app *app, const struct tui_event *event) {
    if (event->type == TUI_EVENT_RESIZE) {
        return true;
    }
    if (event->type == TUI_EVENT_KEY && event->key == TUI_KEY_CTRL_L) {
        /* On every screen, as in other full-screen programs: whatever wrote over the screen goes.
         */
        app->repaint_requested = true;
        return true;
    }
    if (app->box.open) {
        if (event->type == TUI_EVENT_KEY) {
            message_box_key(&app->box, event->key);
        } else if (event->type == TUI_EVENT_MOUSE) {
            message_box_mouse(&app->box, event, app->rows, app->cols, app->now_s);
        }
        return true;
    }
    if (app->cols < 79) {
        /* Only quitting works while the notice hides every screen. */
        if (event->type == TUI_EVENT_KEY && (event->key == 'q' || event->key == 'Q')) {
            app->quit = true;
        }
        return false;
    }
    /* A replay's time keys come first, except after `o` (a sort key follows it). */
    const struct tui_source *source = app->source;
    if (event->type == TUI_EVENT_KEY && source->ops->key != NULL && !app->pending_o &&
        app->screen != APP_SCREEN_HELP && source->ops->key(source->impl, event->key, app->now_s)) {
        app->source_moved = true;
        return true;
    }
    const struct screen_ops *ops = screen_ops_of(app->screen);
    if (event->type == TUI_EVENT_MOUSE && ops->mouse != NULL) {
        return ops->mouse(app, event);
    }
    if (event->type == TUI_EVENT_KEY && ops->key != NULL) {
        return ops->key(app, event->key);
    }
    return false;
}
