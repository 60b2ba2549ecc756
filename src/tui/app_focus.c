/*
 * Which GPU processes the sampler reads /proc for (app.h, app_take_focus): with a thousand
 * processes the kernel's generating of their stat files is most of the monitor's cost, and the
 * main screen shows a few dozen rows of them (docs/performance.md, "A thousand GPU processes").
 */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "util/xalloc.h"

/* Does the table need every process's fresh host values, not only those of the rows shown? */
static bool needs_all(const struct tui_app *app) {
    if (app->screen != APP_SCREEN_MAIN || app->hide_processes || app->proc_snap == NULL ||
        !app->table_built || app->config->recorder != NULL ||
        app->view.process_filter.user_count > 0) {
        return true; /* the other screens, a recording, the user filter (kept users may be old) */
    }
    /* The order, and for the others the %CPU that breaks their ties, must come from now. */
    return app->order != VIEW_SORT_NATURAL && app->order != VIEW_SORT_PID &&
           app->order != VIEW_SORT_USERNAME;
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a;
    uint32_t y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool was_sent(const struct app_focus *sent, uint32_t pid) {
    return sent->all || (sent->count > 0 &&
                         bsearch(&pid, sent->pids, sent->count, sizeof(pid), compare_u32) != NULL);
}

/* The rows within a screen of the window, the selected and the tagged processes, sorted and
 * distinct; *urgent when a row in the window is not in sent. */
static uint32_t *collect(const struct tui_app *app, const struct app_focus *sent, size_t *count,
                         bool *urgent) {
    const struct selection *selection = &app->selection;
    size_t rows = app->row_y_count < app->table.count ? app->row_y_count : app->table.count;
    uint32_t *pids = xcalloc(rows + selection->tag_count + 2, sizeof(*pids));
    size_t n = 0;
    *urgent = false;
    for (size_t i = 0; i < rows; i++) {
        int y = app->row_y[i];
        if (y < app->scroll - app->rows || y >= app->scroll + 2 * app->rows) {
            continue;
        }
        uint32_t pid = app->table.rows[i].process->pid;
        pids[n++] = pid;
        if (y >= app->scroll && y < app->scroll + app->rows && !was_sent(sent, pid)) {
            *urgent = true;
        }
    }
    if (selection->set) {
        pids[n++] = selection->pid;
    }
    for (size_t i = 0; i < selection->tag_count; i++) {
        pids[n++] = selection->tags[i].pid;
    }
    qsort(pids, n, sizeof(*pids), compare_u32);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (distinct == 0 || pids[distinct - 1] != pids[i]) {
            pids[distinct++] = pids[i];
        }
    }
    *count = distinct;
    return pids;
}

bool app_take_focus(struct tui_app *app, const uint32_t **pids, size_t *count, bool *all,
                    bool *urgent) {
    struct app_focus *sent = &app->focus;
    if (app->screen == APP_SCREEN_HELP) {
        return false; /* it shows no process: what the screen below asked for stays */
    }
    if (needs_all(app)) {
        if (sent->all) {
            return false;
        }
        free(sent->pids);
        *sent = (struct app_focus){.all = true};
        *pids = NULL;
        *count = 0;
        *all = true;
        *urgent = true; /* the rows off screen kept older readings */
        return true;
    }
    size_t n = 0;
    uint32_t *wanted = collect(app, sent, &n, urgent);
    if (!sent->all && n == sent->count && memcmp(wanted, sent->pids, n * sizeof(*wanted)) == 0) {
        free(wanted);
        return false;
    }
    free(sent->pids);
    *sent = (struct app_focus){.all = false, .pids = wanted, .count = n};
    *pids = wanted;
    *count = n;
    *all = false;
    return true;
}
