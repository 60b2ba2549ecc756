/*
 * What the screens ask of the snapshot source (app.h, source.h), with the fallbacks of the unit
 * tests, which run the screens without a source: library snapshots and /proc read now.
 */
#include "tui/app.h"
#include "util/sys/clock.h"

const char *app_unavailable(const struct tui_app *app, enum tui_source_feature feature) {
    if (app->source == NULL) {
        return NULL;
    }
    return app->source->ops->unavailable(app->source->impl, feature);
}

bool app_parent_map(struct tui_app *app, uint32_t **pids, uint32_t **ppids, size_t *count) {
    *pids = NULL;
    *ppids = NULL;
    *count = 0;
    if (app->source != NULL) {
        return app->source->ops->parent_map(app->source->impl, app->proc_snap, pids, ppids, count);
    }
    return source_read_parent_map(app_host_context(app), pids, ppids, count);
}

struct nvt_host_process *app_host_process(struct tui_app *app, uint32_t pid) {
    if (app->source != NULL) {
        return app->source->ops->host_process(app->source->impl, app->proc_snap, pid);
    }
    nvt_context *ctx = app_host_context(app);
    struct nvt_host_process *process = NULL;
    if (ctx == NULL || nvt_host_process_read(ctx, pid, &process) != NVT_OK) {
        return NULL;
    }
    return process;
}

void app_host_pass_end(struct tui_app *app) {
    if (app->source == NULL) {
        nvt_host_process_pass_end(app->host_ctx);
    } else if (app->source->ops->host_pass_end != NULL) {
        app->source->ops->host_pass_end(app->source->impl);
    }
}

bool app_can_signal(const struct tui_app *app) {
    return !app->config->readonly && (app->source == NULL || app->source->signals != NULL);
}

void app_snapshot_free(const struct tui_app *app, struct nvt_snapshot *snap) {
    if (app->source != NULL) {
        app->source->ops->snapshot_free(snap);
    } else {
        nvt_snapshot_free(snap);
    }
}

double app_wall_time(const struct tui_app *app) {
    if (app->source != NULL && app->source->ops->shown_time != NULL) {
        return app->source->ops->shown_time(app->source->impl);
    }
    return clock_wall_s();
}
