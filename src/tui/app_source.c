/*
 * What the screens ask of the snapshot source (app.h, source.h): the live sampler, a recording,
 * or in the screens' unit tests a source of their own (tests/support/tui_test_source.h).
 */
#include "tui/app.h"
#include "util/sys/clock.h"

const char *app_unavailable(const struct tui_app *app, enum tui_source_feature feature) {
    return app->source->ops->unavailable(app->source->impl, feature);
}

bool app_parent_map(struct tui_app *app, uint32_t **pids, uint32_t **ppids, size_t *count) {
    *pids = NULL;
    *ppids = NULL;
    *count = 0;
    return app->source->ops->parent_map(app->source->impl, app->proc_snap, pids, ppids, count);
}

struct nvt_host_process *app_host_process(struct tui_app *app, uint32_t pid) {
    return app->source->ops->host_process(app->source->impl, app->proc_snap, pid);
}

void app_host_pass_end(struct tui_app *app) {
    if (app->source->ops->host_pass_end != NULL) {
        app->source->ops->host_pass_end(app->source->impl);
    }
}

bool app_can_signal(const struct tui_app *app) {
    return !app->config->readonly && app->source->signals != NULL;
}

void app_snapshot_free(const struct tui_app *app, struct nvt_snapshot *snap) {
    app->source->ops->snapshot_free(snap);
}

double app_wall_time(const struct tui_app *app) {
    if (app->source->ops->shown_time != NULL) {
        return app->source->ops->shown_time(app->source->impl);
    }
    return clock_wall_s();
}
