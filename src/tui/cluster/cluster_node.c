/* The cluster screen's node view (cluster_node.h). */
#include "tui/cluster/cluster_node.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/table.h"
#include "util/text/str.h"
#include "view/draw/line.h"
#include "view/panels/device_panel.h"
#include "view/processes/process_table.h"

void node_view_open(struct node_view *v, const char *address) {
    node_view_close(v);
    str_copy(v->address, sizeof v->address, address);
}

void node_view_update(struct node_view *v, char *body, size_t len) {
    char err[200];
    struct remote_snapshot *rs = remote_snapshot_build(body, len, err, sizeof err);
    free(body);
    if (rs == NULL) {
        snprintf(v->error, sizeof v->error, "cannot show this node: %s", err);
        return; /* keep drawing the last good answer, if any */
    }
    remote_snapshot_free(v->rs);
    v->rs = rs;
    v->error[0] = '\0';
}

void node_view_close(struct node_view *v) {
    remote_snapshot_free(v->rs);
    memset(v, 0, sizeof *v);
}

/* The health of each flagged device ("Health: GPU 0 THROTTLE,HOT  GPU 1:2 XID:79"), or "Health:
 * ok"; true when a device is flagged. */
static bool health_line(const struct remote_snapshot *rs, char *buf, size_t size) {
    size_t used = (size_t)snprintf(buf, size, "Health:");
    bool flagged = false;
    for (size_t i = 0; i < rs->snap.device_count && used < size; i++) {
        const struct remote_health *h = &rs->health[i];
        if (h->flags == 0) {
            continue;
        }
        struct node_summary one;
        memset(&one, 0, sizeof one);
        one.flags = h->flags;
        one.xid_last = h->xid_last;
        char flags[128];
        node_flags_text(flags, sizeof flags, &one);
        const struct nvt_device_info *info = &rs->devices[i].info;
        char index[32];
        if (info->is_mig) {
            snprintf(index, sizeof index, "%u:%u", info->index, info->mig_index);
        } else {
            snprintf(index, sizeof index, "%u", info->index);
        }
        int n =
            snprintf(buf + used, size - used, "%sGPU %s %s", flagged ? "  " : " ", index, flags);
        used += n > 0 ? (size_t)n : 0;
        flagged = true;
    }
    if (!flagged) {
        snprintf(buf, size, "Health: ok");
    }
    return flagged;
}

void node_view_draw(struct node_view *v, const struct view_config *config, const struct node *n,
                    struct canvas *canvas, int rows, int cols) {
    struct view_style bold = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD);
    struct view_style bad = view_style_make(VIEW_COLOR_RED, 0);
    char line[512];
    char problem[320] = "";
    if (n != NULL) {
        table_problem(problem, sizeof problem, n);
    }
    snprintf(line, sizeof line, "NODE %s%s%s", v->address,
             v->rs != NULL && v->rs->snap.host.hostname[0] != '\0' ? "  " : "",
             v->rs != NULL ? v->rs->snap.host.hostname : "");
    canvas_text(canvas, 0, 0, line, bold);
    canvas_text(canvas, rows - 1, 0, "(Esc or q: back to the nodes  arrows: scroll)",
                view_style_make(VIEW_COLOR_DEFAULT, 0));
    if (problem[0] != '\0' || v->error[0] != '\0') {
        canvas_text(canvas, rows - 2, 0, v->error[0] != '\0' ? v->error : problem, bad);
    }
    if (v->rs == NULL) {
        snprintf(line, sizeof line, "Waiting for %s ...", v->address);
        canvas_text(canvas, 2, 0, line, view_style_make(VIEW_COLOR_DEFAULT, 0));
        return;
    }
    const struct nvt_snapshot *snap = &v->rs->snap;
    bool flagged = health_line(v->rs, line, sizeof line);
    canvas_text(canvas, 1, 0, line,
                flagged ? view_style_make(VIEW_COLOR_YELLOW, VIEW_ATTR_BOLD)
                        : view_style_make(VIEW_COLOR_DEFAULT, 0));
    size_t width = cols < 79 ? 79 : (size_t)cols;
    struct view_lines lines;
    view_lines_init(&lines);
    struct view_device_panel_options options = {width, false, NVT_NA_SIZE, NULL};
    view_device_panel(snap, config, &options, &lines);
    struct view_process_table table;
    view_process_table_build(snap, config, VIEW_SORT_NATURAL, false, &table);
    view_process_table_lines(&table, config, snap->host.hostname, width, &lines);
    view_process_table_fini(&table);
    int body = rows - 4; /* title, health line, problem line, key line */
    int max_scroll = (int)lines.count > body ? (int)lines.count - body : 0;
    v->scroll = v->scroll > max_scroll ? max_scroll : v->scroll < 0 ? 0 : v->scroll;
    for (int i = 0; i < body && (size_t)(i + v->scroll) < lines.count; i++) {
        canvas_line(canvas, 2 + i, 0, &lines.items[i + v->scroll]);
    }
    view_lines_fini(&lines);
}
