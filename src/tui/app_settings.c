/*
 * The monitor's settings: the ones in force (what the keys changed) and the S key's save (see
 * app.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

void app_current_settings(const struct tui_app *app, struct tui_settings *out) {
    /* What the monitor does not change (the theme, the thresholds, the interval, the [collect]
     * and [cluster] sections) is saved as it was resolved: the settings are its one source, and
     * app->view only a copy derived from them for the view layer (tui.h). */
    *out = app->config->settings;
    if (out->graph_height == 0) {
        tui_settings_defaults(out);
    }
    out->mode = app->mode;
    out->sort = app->order;
    out->reverse = app->reverse;
    out->hide_host = app->hide_host;
    out->hide_processes = app->hide_processes;
    out->hide_bandwidth = app->hide_bandwidth;
    out->graph_upper = app->graphs[0];
    out->graph_lower = app->graphs[1];
    out->graph_height = app->graph_height;
}

void app_save_settings(struct tui_app *app) {
    const char *path = app->config->settings_path;
    char note[sizeof(app->note)];
    if (path == NULL) {
        app_note(app, "Settings not saved: no settings file (set HOME or use --config FILE).");
        return;
    }
    struct tui_settings settings;
    app_current_settings(app, &settings);
    int rc = tui_settings_save(&settings, path);
    if (rc == 0) {
        snprintf(note, sizeof(note), "Settings saved to %s", path);
    } else {
        snprintf(note, sizeof(note), "Settings not saved (%s): %s", strerror(rc), path);
    }
    app_note(app, note);
}
