/* The cluster screen's users view (cluster_users.h). */
#include "tui/cluster/cluster_users.h"

#include <stdio.h>
#include <stdlib.h>

#include "cluster/fleet_users.h"

void cluster_users_draw(const struct node *nodes, size_t count, int *scroll, struct canvas *canvas,
                        int rows, int cols) {
    struct view_style plain = view_style_make(VIEW_COLOR_DEFAULT, 0);
    struct view_style bold = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD);
    struct fleet_user *users;
    size_t n = fleet_users(nodes, count, &users);
    size_t with_data = 0;
    for (size_t i = 0; i < count; i++) {
        with_data += nodes[i].has_data;
    }
    char line[256];
    snprintf(line, sizeof line, "NVITOP CLUSTER  users  %zu user%s on %zu node%s with data", n,
             n == 1 ? "" : "s", with_data, with_data == 1 ? "" : "s");
    canvas_text(canvas, 0, 0, line, bold);
    int width = fleet_users_name_width(users, n);
    fleet_users_header(line, sizeof line, width);
    struct view_style header = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_REVERSE);
    canvas_fill(canvas, 2, 0, cols, " ", header);
    canvas_text(canvas, 2, 0, line, header);
    int body = rows - 4; /* title, blank, header; the key line */
    body = body < 1 ? 1 : body;
    int max_scroll = (int)n > body ? (int)n - body : 0;
    *scroll = *scroll > max_scroll ? max_scroll : *scroll < 0 ? 0 : *scroll;
    for (int i = 0; i < body && (size_t)(i + *scroll) < n; i++) {
        fleet_user_line(line, sizeof line, &users[i + *scroll], width);
        canvas_text(canvas, 3 + i, 0, line, plain);
    }
    if (n == 0) {
        canvas_text(canvas, 3, 0, "No process or pod on any node.", plain);
    }
    canvas_text(canvas, rows - 1, 0, "(u, Esc or q: back to the nodes  arrows: scroll)", plain);
    free(users);
}
