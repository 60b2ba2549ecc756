/*
 * The cluster screen (cluster_tui.h): its own small event loop over the monitor's terminal and
 * canvas.  The loop waits in poll() for a key, new results from the poller or the next second
 * (ages move), and redraws when something changed.
 */
#include "tui/cluster/cluster_tui.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/table.h"
#include "tui/canvas.h"
#include "tui/cluster/cluster_help.h"
#include "tui/cluster/cluster_node.h"
#include "tui/cluster/cluster_order.h"
#include "tui/cluster/cluster_users.h"
#include "tui/term.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/text/utf8.h"
#include "util/xalloc.h"

#define TICK_MS 1000

struct screen {
    const struct cluster_tui_config *config;
    struct node *nodes; /* the poller's latest copy */
    size_t count;
    size_t *shown; /* indices into nodes of the nodes listed, in display order */
    size_t shown_count;
    char error[256];
    char same_host[1024]; /* table_same_host()'s warning about these nodes, or "" */
    struct cluster_arrangement arrangement;
    bool order_key; /* 'o' was pressed: the next key is an order's letter */
    bool editing;   /* the filter is being typed */
    bool help;      /* the key list is shown */
    char selected[sizeof(((struct node *)0)->address)]; /* kept across refreshes */
    size_t cursor;
    size_t top;  /* first shown line */
    int hscroll; /* cells of the table scrolled off the left (Left, Right) */
    bool quit;
    bool in_users;    /* the users view is shown */
    int users_scroll; /* its lines scrolled off the top */
    bool in_node;     /* the node view is shown */
    struct node_view node;
    struct poller *poller;
};

static void arrange(struct screen *s) {
    free(s->shown);
    s->shown = xcalloc(s->count + 1, sizeof *s->shown);
    s->shown_count = cluster_arrange(s->nodes, s->count, &s->arrangement, s->shown);
    if (s->config->grouping != NULL) {
        node_grouping_sort(s->config->grouping, s->nodes, s->shown, s->shown_count);
    }
    s->cursor = 0;
    for (size_t i = 0; i < s->shown_count; i++) {
        if (strcmp(s->nodes[s->shown[i]].address, s->selected) == 0) {
            s->cursor = i;
        }
    }
}

static void select_line(struct screen *s, size_t line) {
    if (s->shown_count == 0) {
        return;
    }
    s->cursor = line >= s->shown_count ? s->shown_count - 1 : line;
    memcpy(s->selected, s->nodes[s->shown[s->cursor]].address, sizeof s->selected);
}

#define HSCROLL_STEP 8

/* A table line drawn from its hscroll-th cell on; returns its width in cells. */
static int table_text(struct canvas *canvas, int y, const char *line, int hscroll,
                      struct view_style style) {
    size_t len = strlen(line), skipped = 0;
    size_t from = utf8_fit(line, len, (size_t)hscroll, &skipped);
    canvas_text(canvas, y, 0, line + from, style);
    return (int)utf8_width(line, len);
}

static void draw(struct screen *s, struct canvas *canvas, int rows, int cols) {
    canvas_clear(canvas);
    if (s->in_node) {
        const struct node *current = NULL;
        for (size_t i = 0; i < s->count; i++) {
            if (strcmp(s->nodes[i].address, s->node.address) == 0) {
                current = &s->nodes[i];
            }
        }
        node_view_draw(&s->node, &s->config->view, current, canvas, rows, cols);
        return;
    }
    if (s->help) {
        cluster_help_draw(canvas, rows);
        return;
    }
    if (s->in_users) {
        cluster_users_draw(s->nodes, s->count, &s->users_scroll, canvas, rows, cols);
        return;
    }
    struct view_style plain = view_style_make(VIEW_COLOR_DEFAULT, 0);
    struct view_style bold = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD);
    struct view_style bad = view_style_make(VIEW_COLOR_RED, 0);
    /* Nodes that answered with an HTTP error or with bad data are counted apart from those that
     * did not answer: the fixes differ (a URL or an exporter, against a network or a machine). */
    size_t ok = 0, http = 0, bad_data = 0;
    for (size_t i = 0; i < s->count; i++) {
        ok += s->nodes[i].state == NODE_OK;
        http += s->nodes[i].state == NODE_HTTP_ERROR;
        bad_data += s->nodes[i].state == NODE_BAD_DATA;
    }
    char line[1024];
    int used = snprintf(
        line, sizeof line, "NVITOP CLUSTER  %s  %zu node%s, %zu ok, %zu not answering",
        s->config->source, s->count, s->count == 1 ? "" : "s", ok, s->count - ok - http - bad_data);
    if (http > 0 && used > 0 && (size_t)used < sizeof line) {
        used += snprintf(line + used, sizeof line - (size_t)used, ", %zu HTTP error%s", http,
                         http == 1 ? "" : "s");
    }
    if (bad_data > 0 && used > 0 && (size_t)used < sizeof line) {
        used += snprintf(line + used, sizeof line - (size_t)used, ", %zu bad data", bad_data);
    }
    if (s->arrangement.filter[0] != '\0' && used > 0 && (size_t)used < sizeof line) {
        snprintf(line + used, sizeof line - (size_t)used, "  Filter: \"%s\" (%zu shown)",
                 s->arrangement.filter, s->shown_count);
    }
    canvas_text(canvas, 0, 0, line, bold);
    int y = 1;
    /* The fleet at a glance: nodes up, GPUs, idle GPUs, free memory, power (table_totals()). */
    struct table_totals totals;
    table_totals(s->nodes, s->count, &totals);
    table_total_line(line, sizeof line, &totals);
    canvas_text(canvas, y++, 0, line, plain);
    if (s->error[0] != '\0') {
        snprintf(line, sizeof line, "Prometheus: %s", s->error);
        canvas_text(canvas, y++, 0, line, bad);
    }
    if (s->same_host[0] != '\0') {
        canvas_text(canvas, y++, 0, s->same_host, view_style_make(VIEW_COLOR_YELLOW, 0));
    }
    /* The settings' columns, and a GROUP column first when rows are grouped (the room it takes
     * is not the other columns'). */
    const struct node_grouping *grouping = s->config->grouping;
    int group_width = grouping != NULL ? node_grouping_width(grouping, s->nodes, s->count) : 0;
    int room = grouping != NULL ? cols - group_width - 2 : cols;
    struct table_widths w;
    table_widths_shown(s->nodes, s->count, (size_t)(room > 1 ? room : 1), s->config->columns, &w);
    w.ascii = s->config->view.ascii;
    char row[1024], group[TABLE_CELL_MAX] = "";
    if (grouping != NULL) {
        table_cell(group, sizeof group, "GROUP", group_width);
        strcat(group, "  ");
    }
    table_header(row, sizeof row, &w);
    str_format_s(line, sizeof line, "%s%s", group, row); /* cut to the line */
    struct view_style header = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_REVERSE);
    int widest = table_text(canvas, ++y, line, s->hscroll, header);
    y++;
    int body = rows - y - 2; /* the last two lines: the selected node's problem, the keys */
    body = body < 1 ? 1 : body;
    if (s->cursor < s->top) {
        s->top = s->cursor;
    } else if (s->cursor >= s->top + (size_t)body) {
        s->top = s->cursor - (size_t)body + 1;
    }
    double now = clock_wall_s();
    for (size_t i = s->top; i < s->shown_count && y < rows - 2; i++, y++) {
        const struct node *n = &s->nodes[s->shown[i]];
        if (grouping != NULL) {
            node_grouping_cell(grouping, n, group_width, group, sizeof group);
        }
        table_row(row, sizeof row, n, &w, now);
        str_format_s(line, sizeof line, "%s%s", group, row); /* cut to the line */
        struct view_style style = n->state == NODE_OK ? plain : bad;
        if (n->state == NODE_PENDING) {
            style = plain;
        } else if (n->state == NODE_OK && n->has_data && n->summary.flags != 0) {
            style = view_style_make(VIEW_COLOR_YELLOW, VIEW_ATTR_BOLD); /* a health flag */
        }
        if (i == s->cursor) {
            style.attrs |= VIEW_ATTR_REVERSE;
            canvas_fill(canvas, y, 0, cols, " ", style);
        }
        int width = table_text(canvas, y, line, s->hscroll, style);
        widest = width > widest ? width : widest;
    }
    /* Right stops when the widest line's end is on the screen. */
    int max_hscroll = widest > cols ? widest - cols : 0;
    if (s->hscroll > max_hscroll) {
        s->hscroll = max_hscroll;
        draw(s, canvas, rows, cols);
        return;
    }
    if (s->hscroll > 0) {
        snprintf(line, sizeof line, "<%d", s->hscroll);
        canvas_text(canvas, 0, cols - (int)strlen(line), line, bold);
    }
    if (s->shown_count > 0) {
        table_problem(line, sizeof line, &s->nodes[s->shown[s->cursor]]);
        canvas_text(canvas, rows - 2, 0, line, bad);
    } else if (s->count > 0) {
        canvas_text(canvas, rows - 2, 0, "No node matches the filter.", plain);
    }
    if (s->editing) {
        snprintf(line, sizeof line, "Filter: %s_  (Enter: keep it  Esc: clear it)",
                 s->arrangement.filter);
    } else {
        snprintf(line, sizeof line,
                 "Sort: %s%s  (h: keys  , . o: sort  /: reverse  \\: filter  Enter: open  u: "
                 "users  q: quit)",
                 cluster_order_name(s->arrangement.order),
                 s->arrangement.reverse ? " (reversed)" : "");
    }
    canvas_text(canvas, rows - 1, 0, line, plain);
}

static void node_key(struct screen *s, int key, int rows) {
    switch (key) {
    case TUI_KEY_ESC:
    case 'q':
    case 'Q':
        s->in_node = false;
        poller_watch(s->poller, NULL);
        node_view_close(&s->node);
        return;
    case TUI_KEY_CTRL_C:
        s->quit = true;
        return;
    case TUI_KEY_UP:
    case 'k':
        s->node.scroll--;
        return;
    case TUI_KEY_DOWN:
    case 'j':
        s->node.scroll++;
        return;
    case TUI_KEY_PAGE_UP:
        s->node.scroll -= rows / 2;
        return;
    case TUI_KEY_PAGE_DOWN:
        s->node.scroll += rows / 2;
        return;
    default:
        return;
    }
}

static void users_key(struct screen *s, int key, int rows) {
    switch (key) {
    case TUI_KEY_ESC:
    case 'q':
    case 'Q':
    case 'u':
        s->in_users = false;
        return;
    case TUI_KEY_CTRL_C:
        s->quit = true;
        return;
    case TUI_KEY_UP:
    case 'k':
        s->users_scroll--;
        return;
    case TUI_KEY_DOWN:
    case 'j':
        s->users_scroll++;
        return;
    case TUI_KEY_PAGE_UP:
        s->users_scroll -= rows / 2;
        return;
    case TUI_KEY_PAGE_DOWN:
        s->users_scroll += rows / 2;
        return;
    default:
        return;
    }
}

/* A key while the filter is typed: the nodes are filtered as it changes. */
static void filter_key(struct screen *s, int key) {
    if (cluster_filter_key(s->arrangement.filter, sizeof s->arrangement.filter, key, &s->editing)) {
        arrange(s);
    }
}

/* The selected node's view: its series come with its next read (--hosts) or at once from
 * Prometheus. */
static void open_node(struct screen *s) {
    if (s->shown_count == 0) {
        return;
    }
    const char *address = s->nodes[s->shown[s->cursor]].address;
    poller_watch(s->poller, address);
    node_view_open(&s->node, address);
    s->in_node = true;
}

static void handle_key(struct screen *s, int key, int rows) {
    size_t page = rows > 8 ? (size_t)rows - 8 : 1;
    if (s->in_node) {
        node_key(s, key, rows);
        return;
    }
    if (s->help) {
        s->help = false; /* any key returns, as nvitop's help does */
        return;
    }
    if (s->in_users) {
        users_key(s, key, rows);
        return;
    }
    if (s->editing) {
        filter_key(s, key);
        return;
    }
    if (s->order_key) {
        s->order_key = false;
        if (cluster_order_of_letter(key, &s->arrangement.order, &s->arrangement.reverse)) {
            arrange(s);
        }
        return;
    }
    struct cluster_arrangement *a = &s->arrangement;
    switch (key) {
    case TUI_KEY_ENTER:
    case '\r':
        open_node(s);
        return;
    case 'q':
    case 'Q':
    case TUI_KEY_CTRL_C:
        s->quit = true;
        return;
    case 'h':
    case '?':
        s->help = true;
        return;
    case 'u':
        s->in_users = true;
        s->users_scroll = 0;
        return;
    case TUI_KEY_UP:
    case 'k':
        select_line(s, s->cursor > 0 ? s->cursor - 1 : 0);
        return;
    case TUI_KEY_DOWN:
    case 'j':
        select_line(s, s->cursor + 1);
        return;
    case TUI_KEY_PAGE_UP:
        select_line(s, s->cursor > page ? s->cursor - page : 0);
        return;
    case TUI_KEY_PAGE_DOWN:
        select_line(s, s->cursor + page);
        return;
    case TUI_KEY_HOME:
        select_line(s, 0);
        return;
    case TUI_KEY_LEFT:
        s->hscroll = s->hscroll > HSCROLL_STEP ? s->hscroll - HSCROLL_STEP : 0;
        return;
    case TUI_KEY_RIGHT:
        s->hscroll += HSCROLL_STEP; /* kept within the widest line when drawn */
        return;
    case TUI_KEY_END:
        select_line(s, s->shown_count);
        return;
    case 'o':
        s->order_key = true;
        return;
    case ',':
    case '<':
        a->order = (enum cluster_order)((a->order + CLUSTER_ORDER_COUNT - 1) % CLUSTER_ORDER_COUNT);
        a->reverse = false;
        break;
    case '.':
    case '>':
        a->order = (enum cluster_order)((a->order + 1) % CLUSTER_ORDER_COUNT);
        a->reverse = false;
        break;
    case '/':
        a->reverse = !a->reverse;
        break;
    case '\\':
        s->editing = true;
        break;
    case TUI_KEY_ESC:
        a->filter[0] = '\0';
        break;
    case TUI_KEY_CTRL_L:
        term_repaint();
        return;
    default:
        return;
    }
    arrange(s);
}

static void take(struct screen *s, struct poller *poller) {
    struct node *nodes;
    size_t count;
    if (poller_take(poller, &nodes, &count, s->error, sizeof s->error)) {
        free(s->nodes);
        s->nodes = nodes;
        s->count = count;
        /* Made once a reading, not on every draw (each second: 1,000 names sorted). */
        table_same_host(nodes, count, s->same_host, sizeof s->same_host);
        if (s->selected[0] == '\0' && count > 0) {
            memcpy(s->selected, nodes[0].address, sizeof s->selected);
        }
        arrange(s);
    }
}

int cluster_tui_run(const struct cluster_tui_config *config, struct poller *poller, char *error,
                    size_t error_size) {
    struct term_options options = {.light = config->view.light, .colorful = config->view.colorful};
    struct canvas *canvas = term_session_start(&options, error, error_size);
    if (canvas == NULL) {
        return -1;
    }
    canvas_set_ascii(canvas, config->view.ascii);
    struct screen s = {.config = config, .poller = poller};
    bool dirty = true;
    bool data = true;     /* the poller has published something not taken yet */
    double next_take = 0; /* monotonic; when results may be taken again */
    double next_tick = 0; /* monotonic; when the ages shown move */
    const double tick = TICK_MS / 1000.0;
    while (!s.quit) {
        /* New results are taken (and drawn) at most once a tick: with many nodes each read on
         * its own schedule, results arrive all the time, and a redraw per answer would cost more
         * than the reads.  Keys are answered at once and do not delay the next take. */
        double now = clock_monotonic_s();
        if (data && now >= next_take) {
            take(&s, poller);
            data = false;
            dirty = true;
            next_take = now + tick;
            next_tick = now + tick; /* drawn now: the ages are fresh */
        }
        if (now >= next_tick) {
            dirty = true; /* ages move every second */
            next_tick = now + tick;
        }
        char *body;
        size_t body_len;
        if (s.in_node && poller_take_body(poller, &body, &body_len)) {
            node_view_update(&s.node, body, body_len);
            dirty = true;
        }
        int rows, cols;
        term_size(&rows, &cols);
        rows = rows < 1 ? 1 : rows;
        cols = cols < 1 ? 1 : cols;
        if (dirty && canvas_fit(canvas, rows, cols)) {
            draw(&s, canvas, rows, cols);
            term_draw(canvas);
            canvas_release(canvas);
            term_frame_done();
            dirty = false;
        }
        int fds[3];
        size_t nfds = term_poll_fds(fds, 2);
        size_t terminal_fds = nfds;
        if (!data) { /* while results wait, their byte stays in the pipe: not polled again */
            fds[nfds++] = poller_fd(poller);
        }
        struct pollfd pfds[3];
        for (size_t i = 0; i < nfds; i++) {
            pfds[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        }
        /* Rounded up: waking a little early would find nothing due and wait again. */
        double until =
            (data && next_take < next_tick ? next_take : next_tick) - clock_monotonic_s();
        int wait_ms = until <= 0 ? 0 : until >= tick ? TICK_MS : (int)ceil(until * 1000.0);
        int rc = poll(pfds, (nfds_t)nfds, wait_ms);
        term_polled(pfds, rc > 0 ? terminal_fds : 0);
        if (nfds > terminal_fds && pfds[terminal_fds].revents != 0) {
            data = true;
        }
        struct tui_event event;
        while (!s.quit && term_read_event(&event)) {
            if (event.type == TUI_EVENT_KEY) {
                handle_key(&s, event.key, rows);
            }
            dirty = true;
        }
        if (rc < 0 && errno != EINTR) {
            break;
        }
    }
    term_session_stop(canvas);
    node_view_close(&s.node);
    free(s.nodes);
    free(s.shown);
    return 0;
}
