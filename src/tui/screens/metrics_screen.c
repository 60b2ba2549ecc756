/*
 * The process metrics screen's entry in the screen table (screen.h): entering on the process
 * selected on the main screen starts the sampler's watch of it, leaving stops it; the keys of
 * docs/nvitop-behaviour.md §3.12 plus `g`/`G`, which switch the lower-right graph.
 */
#include "tui/screens/metrics_screen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/screens/screen.h"
#include "util/xalloc.h"
#include "view/draw/intensity.h"

static struct metrics_screen *state_of(const struct tui_app *app) {
    return app->screen_state[APP_SCREEN_METRICS];
}

/* Tell the sampler (tui.c forwards app->watch) what to watch, or to stop. */
static void request_watch(struct tui_app *app, const struct watch_target *target) {
    app->watch.generation++;
    app->watch.active = target != NULL;
    if (target != NULL) {
        app->watch.target = *target;
    }
    app->watch.changed = true;
}

/* The row of the selected process in the main screen's table, or NULL. */
static const struct view_process_row *row_of(const struct tui_app *app,
                                             const struct app_process_ref *ref) {
    for (size_t i = 0; app->table_built && i < app->table.count; i++) {
        const struct view_process_row *row = &app->table.rows[i];
        if (row->process->pid == ref->pid && row->device_slot == ref->device_slot) {
            return row;
        }
    }
    return NULL;
}

static void initial_process(const struct tui_app *app, const struct view_process_row *row,
                            struct metrics_process *out) {
    const struct nvt_gpu_process *p = row->process;
    const struct nvt_device_snapshot *device = &app->proc_snap->devices[row->device_slot];
    memset(out, 0, sizeof(*out));
    out->pid = p->pid;
    out->type = p->type;
    snprintf(out->display_index, sizeof(out->display_index), "%s", row->display_index);
    struct view_device_colors colors;
    view_device_colors(device, &app->view.thresholds, &colors);
    out->device_color = (uint16_t)colors.display;
    out->memory_color = (uint16_t)colors.memory;
    out->bandwidth_color = (uint16_t)colors.bandwidth;
    out->gpu_color = (uint16_t)colors.gpu;
    out->gpu_memory_bytes = p->gpu_memory_bytes;
    out->sm_pct = p->sm_util_pct;
    out->bandwidth_pct = p->memory_util_pct;
    out->encoder_pct = p->encoder_util_pct;
    out->decoder_pct = p->decoder_util_pct;
    bool known = p->host.status == NVT_HOST_OK;
    snprintf(out->user, sizeof(out->user), "%s", known && p->host.user != NULL ? p->host.user : "");
    out->cpu_percent = known ? p->host.cpu_percent : NAN;
    out->memory_percent = known ? p->host.memory_percent : NAN;
    out->running_time_s = known ? p->host.running_time_s : NAN;
    out->zombie_or_denied = p->host.status != NVT_HOST_OK;
}

static void enter(struct tui_app *app) {
    const struct app_process_ref *ref = app_screen_process(app);
    const struct view_process_row *row = ref->set ? row_of(app, ref) : NULL;
    struct metrics_screen *screen = calloc(1, sizeof(*screen));
    if (row == NULL || screen == NULL) {
        free(screen);
        app_screen_pop(app); /* nothing to show: back where it came from */
        return;
    }
    const struct nvt_device_snapshot *device = &app->proc_snap->devices[row->device_slot];
    struct watch_target target = {
        .device_index = device->info.index,
        .mig_index = device->info.is_mig ? device->info.mig_index : NVT_NA_U32,
        .pid = ref->pid,
        .create_time = ref->create_time,
    };
    struct metrics_process initial;
    initial_process(app, row, &initial);
    uint64_t host_total = app->snap != NULL && (app->snap->flags & NVT_SAMPLE_HOST)
                              ? app->snap->host.memory_total_bytes
                              : NVT_NA_U64;
    if (!metrics_screen_open(screen, &target, &initial, row->command, host_total,
                             device->state.memory_total_bytes)) {
        free(screen);
        app_note(app, "Out of memory.");
        app_screen_pop(app);
        return;
    }
    app->screen_state[APP_SCREEN_METRICS] = screen;
    request_watch(app, &target);
    screen->generation = app->watch.generation;
}

static void leave(struct tui_app *app) {
    struct metrics_screen *screen = state_of(app);
    if (screen == NULL) {
        return;
    }
    request_watch(app, NULL);
    metrics_screen_close(screen);
    free(screen);
    app->screen_state[APP_SCREEN_METRICS] = NULL;
}

static void draw(struct tui_app *app, struct canvas *canvas, double wall_s) {
    (void)wall_s;
    const struct metrics_screen *screen = state_of(app);
    if (screen == NULL) {
        return;
    }
    char host_name[NVT_NAME_LEN] = "";
    if (app->snap != NULL && (app->snap->flags & NVT_SAMPLE_HOST)) {
        snprintf(host_name, sizeof(host_name), "%s", app->snap->host.hostname);
    }
    const struct metrics_draw_context ctx = {
        .view = &app->view, .host_name = host_name, .gradients = app->gradients, .rows = app->rows};
    metrics_screen_draw(screen, &ctx, canvas);
}

static bool key(struct tui_app *app, int key) {
    struct metrics_screen *screen = state_of(app);
    switch (key) {
    case TUI_KEY_ENTER:
    case TUI_KEY_ESC:
    case 'q':
    case 'Q':
        app_screen_pop(app);
        return true;
    case 'e': {
        struct app_process_ref process = *app_screen_process(app);
        app_screen_push(app, APP_SCREEN_ENVIRON, &process);
        return true;
    }
    case 'h':
    case '?':
        app_screen_push(app, APP_SCREEN_HELP, NULL);
        return true;
    default:
        return screen != NULL && metrics_screen_key(screen, key);
    }
}

bool app_metrics_sample(struct tui_app *app, const struct watch_sample *sample, double now_s,
                        double wall_s) {
    struct metrics_screen *screen = state_of(app);
    if (screen == NULL) {
        return false;
    }
    bool was_exited = screen->exited;
    bool changed =
        metrics_screen_record(screen, sample, &app->view.thresholds, now_s, wall_s, app->cols);
    if (screen->exited && !was_exited) {
        request_watch(app, NULL); /* nothing more to read */
    }
    /* Only the metrics screen shows the readings (help may be on top of it). */
    return changed && app->screen == APP_SCREEN_METRICS;
}

void app_metrics_jumped(struct tui_app *app) {
    struct metrics_screen *screen = state_of(app);
    if (screen == NULL || !screen->open) {
        return;
    }
    struct watch_target target = screen->target;
    struct metrics_process process = screen->process;
    char *command = xstrdup(process.command != NULL ? process.command : "");
    bool ok = metrics_screen_open(screen, &target, &process, command, screen->host_memory_total,
                                  screen->device_memory_total);
    free(command);
    if (!ok) {
        app_note(app, "Out of memory.");
        return;
    }
    /* A new watch: the source reads the graphs' window again, up to the new moment. */
    request_watch(app, &target);
    screen->generation = app->watch.generation;
}

const struct screen_ops metrics_screen_ops = {
    .name = "process-metrics",
    .enter = enter,
    .leave = leave,
    .draw = draw,
    .key = key,
};
