/*
 * The environment screen (docs/nvitop-behaviour.md §3.9, keys §3.12): the environment of the
 * process the screen was entered with (the monitor's own when none was selected), sorted by name,
 * scrollable both ways.  The read is checked against the process's identity (pid and create time)
 * before and after: a pid recycled since the snapshot never shows a stranger's environment, it
 * shows that the process has exited.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/screens/screen.h"
#include "util/xalloc.h"

#define ENV_SCROLL_STEP    5
#define SHIFT_WHEEL_STEP   2
#define IDENTITY_TOLERANCE 0.01 /* seconds, as the library's signal check */

enum environ_status {
    ENVIRON_OK = 0,
    ENVIRON_UNREADABLE,
    ENVIRON_EXITED,
    ENVIRON_UNAVAILABLE /* the source has no environments (a recording): why says why */
};

struct environ_state {
    uint32_t pid;
    double create_time; /* NaN: not known (then the first read fixes it) */
    char title[512];    /* "Environment of process <pid> (<user>@<type>): " */
    char *command;
    enum environ_status status;
    const char *why; /* ENVIRON_UNAVAILABLE: the source's reason (static) */
    char **entries;  /* sorted; one allocation from the library */
    size_t count;
    size_t selected;
    int y_offset;
    int x_offset;
};

static struct environ_state *state_of(struct tui_app *app) {
    return app->screen_state[APP_SCREEN_ENVIRON];
}

static int compare_names(const void *a, const void *b) {
    const char *ea = *(const char *const *)a;
    const char *eb = *(const char *const *)b;
    size_t la = strcspn(ea, "=");
    size_t lb = strcspn(eb, "=");
    int c = memcmp(ea, eb, la < lb ? la : lb);
    if (c != 0) {
        return c;
    }
    return (la > lb) - (la < lb);
}

static bool same_process(const struct nvt_host_process *host, double create_time) {
    return isnan(create_time) || fabs(host->create_time - create_time) < IDENTITY_TOLERANCE;
}

/* "GPU: Compute", "GPU: Graphics", "GPU: Compute+Graphics" or "Host". */
static const char *type_of(const struct tui_app *app, uint32_t pid) {
    unsigned type = 0;
    const struct nvt_snapshot *snap = app->proc_snap;
    for (size_t i = 0; snap != NULL && i < snap->process_count; i++) {
        if (snap->processes[i].pid == pid) {
            type |= snap->processes[i].type;
        }
    }
    if ((type & NVT_PROCESS_COMPUTE) && (type & NVT_PROCESS_GRAPHICS)) {
        return "GPU: Compute+Graphics";
    }
    if (type & NVT_PROCESS_COMPUTE) {
        return "GPU: Compute";
    }
    return (type & NVT_PROCESS_GRAPHICS) ? "GPU: Graphics" : "Host";
}

/* Is pid still the process of create_time?  Fills *host (caller frees) when it is. */
static bool still_there(nvt_context *ctx, uint32_t pid, double create_time,
                        struct nvt_host_process **host) {
    *host = NULL;
    if (nvt_host_process_read(ctx, pid, host) != NVT_OK) {
        return false;
    }
    /* A zombie has exited too: its environment is gone (the kernel shows it empty). */
    if ((*host)->status == NVT_HOST_ZOMBIE || !same_process(*host, create_time)) {
        nvt_host_process_free(*host);
        *host = NULL;
        return false;
    }
    return true;
}

static void set_title(struct tui_app *app, struct environ_state *st,
                      const struct nvt_host_process *host) {
    const char *user =
        host != NULL && host->user != NULL && host->user[0] != '\0' ? host->user : "N/A";
    snprintf(st->title, sizeof(st->title), "Environment of process %u (%s@%s): ", st->pid, user,
             type_of(app, st->pid));
    free(st->command);
    const char *command = host != NULL && host->command != NULL ? host->command : "";
    if (command[0] == '\0' && host != NULL && host->name != NULL) {
        command = host->name;
    }
    st->command = xstrdup(command);
}

/* Read the environment, checking the identity before and after the read. */
static void read_environ(struct tui_app *app, struct environ_state *st) {
    nvt_free(st->entries);
    st->entries = NULL;
    st->count = 0;
    st->why = app_unavailable(app, TUI_SOURCE_ENVIRON);
    if (st->why != NULL) {
        st->status = ENVIRON_UNAVAILABLE;
        return;
    }
    nvt_context *ctx = app_host_context(app);
    struct nvt_host_process *host = NULL;
    if (ctx == NULL || !still_there(ctx, st->pid, st->create_time, &host)) {
        st->status = ENVIRON_EXITED;
        return;
    }
    if (isnan(st->create_time)) {
        st->create_time = host->create_time;
    }
    set_title(app, st, host);
    nvt_host_process_free(host);
    char **entries = NULL;
    size_t count = 0;
    nvt_status rc = nvt_host_process_environ(ctx, st->pid, &entries, &count);
    /* Still the same process after the read: the environment is not a recycled pid's. */
    if (rc == NVT_OK) {
        bool same = still_there(ctx, st->pid, st->create_time, &host);
        nvt_host_process_free(host);
        if (!same) {
            nvt_free(entries);
            st->status = ENVIRON_EXITED;
            return;
        }
    }
    if (rc == NVT_ERR_NO_SUCH_PROCESS) {
        st->status = ENVIRON_EXITED;
        return;
    }
    if (rc != NVT_OK) {
        st->status = ENVIRON_UNREADABLE;
        return;
    }
    qsort(entries, count, sizeof(*entries), compare_names);
    st->entries = entries;
    st->count = count;
    st->status = ENVIRON_OK;
    if (st->selected >= count) {
        st->selected = count > 0 ? count - 1 : 0;
    }
}

static void environ_enter(struct tui_app *app) {
    struct environ_state *st = xcalloc(1, sizeof(*st));
    app->screen_state[APP_SCREEN_ENVIRON] = st;
    const struct app_process_ref *process = app_screen_process(app);
    if (process->set) {
        st->pid = process->pid;
        st->create_time = process->create_time;
    } else {
        /* Nothing selected: nvitop shows its own environment. */
        st->pid = (uint32_t)getpid();
        st->create_time = NAN;
    }
    /* The snapshot's view of the process names it even when it has exited since. */
    const struct nvt_host_process *seen = NULL;
    const struct nvt_snapshot *snap = app->proc_snap;
    for (size_t i = 0; snap != NULL && i < snap->process_count && seen == NULL; i++) {
        if (snap->processes[i].pid == st->pid) {
            seen = &snap->processes[i].host;
        }
    }
    set_title(app, st, seen);
    read_environ(app, st);
}

static void environ_leave(struct tui_app *app) {
    struct environ_state *st = state_of(app);
    nvt_free(st->entries);
    free(st->command);
    free(st);
    app->screen_state[APP_SCREEN_ENVIRON] = NULL;
}

/* One "NAME=value" line, newlines shown as ␤ (? in ASCII mode), name blue bold, '=' magenta. */
static void entry_line(const char *entry, bool ascii, struct view_line *line) {
    const struct view_style plain = {0};
    const struct view_style name = {VIEW_COLOR_BLUE, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    const struct view_style equals = {VIEW_COLOR_MAGENTA, 0, VIEW_COLOR_DEFAULT};
    size_t len = strcspn(entry, "=");
    view_line_add_n(line, entry, len, name);
    view_line_add(line, "=", equals);
    for (const char *p = entry + len + 1; *p != '\0';) {
        size_t run = strcspn(p, "\n");
        view_line_add_n(line, p, run, plain);
        p += run;
        if (*p == '\n') {
            view_line_add(line, ascii ? "?" : "␤", plain);
            p++;
        }
    }
}

static void draw_title(struct tui_app *app, struct environ_state *st, struct canvas *canvas) {
    const struct view_style prefix = {VIEW_COLOR_CYAN, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    const struct view_style plain = {0};
    int x = canvas_text(canvas, 0, 0, st->title, prefix);
    struct view_line full;
    struct view_line cut;
    view_line_init(&full);
    view_line_init(&cut);
    view_line_add(&full, st->command != NULL ? st->command : "", plain);
    if (x < app->cols) {
        /* As nvitop: the command scrolls only as far as it has text beyond the width (not at all
         * when the title fits). */
        int beyond = x + (int)view_line_width(&full) - app->cols;
        int offset = st->x_offset < beyond ? st->x_offset : (beyond > 0 ? beyond : 0);
        view_line_slice(&full, (size_t)offset, (size_t)(app->cols - x), &cut);
        canvas_line(canvas, 0, x, &cut);
    }
    view_line_fini(&full);
    view_line_fini(&cut);
    const struct view_style rule = {VIEW_COLOR_GREEN, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    canvas_fill(canvas, 1, 0, app->cols, "#", rule);
}

static void clamp(struct tui_app *app, struct environ_state *st) {
    int height = app->rows - 2;
    int y = (int)st->selected;
    if (y < st->y_offset) {
        st->y_offset = y;
    } else if (y >= st->y_offset + height) {
        st->y_offset = y - height + 1;
    }
    /* A taller window shows more of the list rather than blank rows below its end. */
    int last_top = (int)st->count - height;
    if (st->y_offset > last_top) {
        st->y_offset = last_top;
    }
    st->y_offset = st->y_offset < 0 ? 0 : st->y_offset;
}

/* A notice in place of the list: a full-width bar, cyan reverse, as nvitop draws it. */
static void notice_bar(struct tui_app *app, struct canvas *canvas, const char *text) {
    const struct view_style notice = {VIEW_COLOR_CYAN, VIEW_ATTR_REVERSE, VIEW_COLOR_DEFAULT};
    canvas_fill(canvas, 2, 0, app->cols, " ", notice);
    canvas_text(canvas, 2, 0, text, notice);
}

static void environ_draw(struct tui_app *app, struct canvas *canvas, double wall_s) {
    (void)wall_s;
    struct environ_state *st = state_of(app);
    /* Not translated to ASCII (docs/nvitop-behaviour.md §3.13): only the newline mark changes. */
    bool ascii = canvas_set_ascii(canvas, false);
    draw_title(app, st, canvas);
    if (st->status == ENVIRON_UNREADABLE) {
        notice_bar(app, canvas, "Could not read process environment.");
    } else if (st->status == ENVIRON_EXITED) {
        char text[96];
        snprintf(text, sizeof(text), "Process %u has exited: its environment is gone.", st->pid);
        notice_bar(app, canvas, text);
    } else if (st->status == ENVIRON_UNAVAILABLE) {
        char text[160];
        snprintf(text, sizeof(text), "Environment %s.", st->why);
        notice_bar(app, canvas, text);
    } else {
        clamp(app, st);
        struct view_line full;
        struct view_line cut;
        view_line_init(&full);
        view_line_init(&cut);
        for (int y = 2; y < app->rows; y++) {
            size_t i = (size_t)(st->y_offset + y - 2);
            if (i >= st->count) {
                break;
            }
            view_line_clear(&full);
            entry_line(st->entries[i], app->view.ascii, &full);
            view_line_slice(&full, (size_t)st->x_offset, (size_t)app->cols, &cut);
            canvas_line(canvas, y, 0, &cut);
            if (i == st->selected) {
                canvas_color(canvas, y, 0, app->cols, VIEW_COLOR_CYAN);
                canvas_attrs(canvas, y, 0, app->cols, VIEW_ATTR_BOLD | VIEW_ATTR_REVERSE, 0xFF);
            }
        }
        view_line_fini(&full);
        view_line_fini(&cut);
    }
    canvas_set_ascii(canvas, ascii);
}

static void move(struct environ_state *st, long delta) {
    if (st->count == 0) {
        return;
    }
    long index = (long)st->selected + delta;
    index = index < 0 ? 0 : index;
    st->selected = (size_t)index >= st->count ? st->count - 1 : (size_t)index;
}

static void scroll_x(struct environ_state *st, int delta) {
    int offset = st->x_offset + delta;
    st->x_offset = offset < 0 ? 0 : offset;
}

static bool environ_key(struct tui_app *app, int key) {
    struct environ_state *st = state_of(app);
    switch (key) {
    case 'e':
    case TUI_KEY_ESC:
    case 'q':
    case 'Q':
        app_screen_pop(app);
        return true;
    case 'h':
    case '?':
        app_screen_push(app, APP_SCREEN_HELP, NULL);
        return true;
    case 'r':
    case 'R':
    case TUI_KEY_CTRL_R:
    case TUI_KEY_F5:
        read_environ(app, st);
        return true;
    case TUI_KEY_UP:
    case TUI_KEY_BACK_TAB:
    case TUI_KEY_ALT | 'k':
    case TUI_KEY_PAGE_UP:
    case '[':
        move(st, -1);
        return true;
    case TUI_KEY_DOWN:
    case TUI_KEY_TAB:
    case TUI_KEY_ALT | 'j':
    case TUI_KEY_PAGE_DOWN:
    case ']':
        move(st, 1);
        return true;
    case TUI_KEY_HOME:
        st->selected = 0;
        return true;
    case TUI_KEY_END:
        move(st, (long)st->count);
        return true;
    case TUI_KEY_LEFT:
    case TUI_KEY_ALT | 'h':
        scroll_x(st, -ENV_SCROLL_STEP);
        return true;
    case TUI_KEY_RIGHT:
    case TUI_KEY_ALT | 'l':
        scroll_x(st, ENV_SCROLL_STEP);
        return true;
    case TUI_KEY_CTRL_A:
    case '^':
        st->x_offset = 0;
        return true;
    default:
        return false;
    }
}

static bool environ_mouse(struct tui_app *app, const struct tui_event *event) {
    struct environ_state *st = state_of(app);
    int direction = (event->buttons & TUI_MOUSE_WHEEL_UP)     ? -1
                    : (event->buttons & TUI_MOUSE_WHEEL_DOWN) ? 1
                                                              : 0;
    if (direction != 0) {
        if (event->buttons & TUI_MOUSE_SHIFT) {
            scroll_x(st, direction * SHIFT_WHEEL_STEP);
        } else {
            move(st, direction);
        }
        return true;
    }
    if (!(event->buttons & TUI_MOUSE_PRESS) || event->y < 2) {
        return false;
    }
    size_t index = (size_t)(st->y_offset + event->y - 2);
    if (st->status == ENVIRON_OK && index < st->count) {
        st->selected = index;
        return true;
    }
    return false;
}

const struct screen_ops environ_screen_ops = {
    .name = "environ",
    .enter = environ_enter,
    .leave = environ_leave,
    .draw = environ_draw,
    .key = environ_key,
    .mouse = environ_mouse,
};
