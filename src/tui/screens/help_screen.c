/*
 * The help screen and the narrow-terminal notice.
 */
#include <stdio.h>
#include <string.h>

#include <nvitop/version.h>

#include "tui/screens/screen.h"
#include "util/array.h"

/* nvitop 1.7's help text (docs/nvitop-behaviour.md §3.11 plus the %GMBW sort keys).  The first two
 * lines name this program and its licence instead of the Python original's. */
static const char *const help_lines[] = {
    NULL, /* the title, HELP_TITLE */
    "Released under the Apache License 2.0.",
    "",
    "GPU Process Type: C: Compute, G: Graphics, X: Mixed.",
    "",
    "Device coloring rules by loading intensity:",
    NULL, /* HELP_THRESHOLDS for the GPU utilisation */
    NULL, /* HELP_THRESHOLDS for the memory */
    "",
    "      a f c: change display mode                h ?: show this help screen",
    "       F5 r: force refresh window                 q: quit",
    "",
    "     Arrows: scroll process list              Space: tag/untag current process",
    "       Home: select the first process           Esc: clear process selection",
    "        End: select the last process       Ctrl-C I: interrupt selected process",
    "                                                  K: kill selected process",
    "   Ctrl-A ^: scroll to left most                  T: terminate selected process",
    "   Ctrl-E $: scroll to right most                 e: show process environment",
    "   PageUp [: scroll entire screen up              t: toggle tree-view screen",
    " PageDown ]: scroll entire screen down        Enter: show process metrics",
    "",
    "      Wheel: scroll process list        Shift-Wheel: scroll horizontally",
    "        Tab: scroll process list         Ctrl-Wheel: fast scroll (5x)",
    "",
    "      on oN: sort by GPU-INDEX",
    "      op oP: sort by PID                      ob oB: sort by %GMBW",
    "      ou oU: sort by USER                     oc oC: sort by %CPU",
    "      og oG: sort by GPU-MEM                  om oM: sort by %MEM",
    "      os oS: sort by %SM                      ot oT: sort by TIME",
    "        , .: select sort column                   /: invert sort order",
    "",
    /* Not in nvitop: */
    "      H P b: toggle host/process/bandwidth      g G: upper/lower graph metric",
    "        + -: graph height                         S: save the settings",
    "     Ctrl-L: repaint the whole screen",
    "        g G: metrics screen: lower-right graph SM / MBW / ENC / DEC",
    "",
    "Press any key to return.",
};

/* The time line's keys (src/tui/replay/replay_keys.c), shown only when the monitor replays a
 * recording, before the last line. */
static const char *const replay_lines[] = {
    "Replay of a recording (read-only): the time line at the top shows the moment.",
    "          p: play / pause                       x X: play faster / slower",
    "        ( ): one frame back / forward           n N: next / previous event",
    "        j l: one minute back / forward            @: jump to a typed time",
    "        J L: one hour back / forward",
};
#define REPLAY_LINE_COUNT ((int)(ARRAY_SIZE(replay_lines)))

/* Says whose work this is: nvitop's own title names its author, who did not write this rebuild. */
#define HELP_TITLE      "nvitop %s - a C rebuild of nvitop (original by Xuehai Pan)"
#define HELP_THRESHOLDS "  - %s: light < %2u%% <= moderate < %2u%% <= heavy."
#define HELP_LINE_COUNT ((int)(ARRAY_SIZE(help_lines)))

/* Key-column colours per row of nvitop's own lines: left (12 cells) and right (13 cells from
 * column 39).  Our lines (OWN_FIRST_ROW on) are coloured by own_keys(). */
struct row_colors {
    int row;
    uint16_t left;
    uint16_t right;
};

static const struct row_colors row_colors[] = {
    {9, VIEW_COLOR_GREEN, VIEW_COLOR_GREEN},  {10, VIEW_COLOR_GREEN, VIEW_COLOR_GREEN},
    {12, VIEW_COLOR_CYAN, VIEW_COLOR_YELLOW}, {13, VIEW_COLOR_CYAN, VIEW_COLOR_YELLOW},
    {14, VIEW_COLOR_CYAN, VIEW_COLOR_RED},    {15, 0, VIEW_COLOR_RED},
    {16, VIEW_COLOR_CYAN, VIEW_COLOR_RED},    {17, VIEW_COLOR_CYAN, VIEW_COLOR_GREEN},
    {18, VIEW_COLOR_CYAN, VIEW_COLOR_GREEN},  {19, VIEW_COLOR_CYAN, VIEW_COLOR_GREEN},
    {21, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},   {22, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},
    {24, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},   {25, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},
    {26, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},   {27, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},
    {28, VIEW_COLOR_BLUE, VIEW_COLOR_BLUE},   {29, VIEW_COLOR_MAGENTA, VIEW_COLOR_MAGENTA},
};

/* The first of our lines (layout, settings, repaint, the metrics screen's graph keys). */
#define OWN_FIRST_ROW 31
#define RIGHT_COLUMN  39

static void paint(struct canvas *canvas, int y, int x, int width, uint16_t color, uint8_t attrs) {
    canvas_color(canvas, y, x, width, color);
    canvas_attrs(canvas, y, x, width, attrs, 0xFF);
}

/* Our lines' keys in cyan: the left key column, and a right-hand key where the line has one (the
 * key before its colon, after the run of blanks that ends the left column's text). */
static void own_keys(struct canvas *canvas) {
    for (int row = OWN_FIRST_ROW; row < HELP_LINE_COUNT - 2; row++) {
        const char *line = help_lines[row];
        paint(canvas, row, 0, 12, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
        const char *colon = strrchr(line, ':');
        if (colon == NULL || colon - line <= RIGHT_COLUMN) {
            continue;
        }
        const char *start = colon;
        while (start > line + 1 && !(start[-1] == ' ' && start[-2] == ' ')) {
            start--;
        }
        paint(canvas, row, (int)(start - line), (int)(colon - start) + 1, VIEW_COLOR_CYAN,
              VIEW_ATTR_BOLD);
    }
}

static bool replaying(const struct tui_app *app) {
    return app->source->ops->key != NULL;
}

/* The replay section in place of the last line, which follows it; returns the last line's row. */
static int draw_replay_keys(struct canvas *canvas) {
    const struct view_style plain = {0};
    int row = HELP_LINE_COUNT - 1;
    for (int i = 0; i < REPLAY_LINE_COUNT; i++, row++) {
        canvas_text(canvas, row, 0, replay_lines[i], plain);
        if (i >= 1) {
            paint(canvas, row, 0, 12, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
            if (strlen(replay_lines[i]) > 39) {
                paint(canvas, row, 39, 13, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
            }
        }
    }
    canvas_attrs(canvas, HELP_LINE_COUNT - 1, 0, (int)strlen(replay_lines[0]), VIEW_ATTR_BOLD,
                 0xFF);
    row++; /* a blank line before the last */
    canvas_text(canvas, row, 0, help_lines[HELP_LINE_COUNT - 1], plain);
    return row;
}

static void draw_text(const struct tui_app *app, struct canvas *canvas) {
    const struct view_style plain = {0};
    const struct view_thresholds *th = &app->view.thresholds;
    char line[128];
    int count = replaying(app) ? HELP_LINE_COUNT - 1 : HELP_LINE_COUNT;
    for (int i = 0; i < count; i++) {
        if (i == 0) {
            snprintf(line, sizeof(line), HELP_TITLE, NVT_VERSION_STRING);
        } else if (i == 6) {
            snprintf(line, sizeof(line), HELP_THRESHOLDS, "GPU utilization", th->gpu_low,
                     th->gpu_high);
        } else if (i == 7) {
            snprintf(line, sizeof(line), HELP_THRESHOLDS, "GPU-MEM percent", th->mem_low,
                     th->mem_high);
        } else {
            snprintf(line, sizeof(line), "%s", help_lines[i]);
        }
        canvas_text(canvas, i, 0, line, plain);
    }
}

static void help_screen_draw(struct tui_app *app, struct canvas *canvas, double wall_s) {
    (void)wall_s;
    /* The help screen is not translated to ASCII (docs/nvitop-behaviour.md §3.13). */
    bool ascii = canvas_set_ascii(canvas, false);
    draw_text(app, canvas);
    canvas_set_ascii(canvas, ascii);

    int width = 0;
    for (int i = 0; i < HELP_LINE_COUNT; i++) {
        int w = help_lines[i] != NULL ? (int)strlen(help_lines[i]) : 0;
        width = w > width ? w : width;
    }
    paint(canvas, 0, 0, width, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
    paint(canvas, 1, 0, width, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
    int last = replaying(app) ? draw_replay_keys(canvas) : HELP_LINE_COUNT - 1;
    paint(canvas, last, 0, width, VIEW_COLOR_CYAN, VIEW_ATTR_BOLD);
    canvas_attrs(canvas, 3, 0, 17, VIEW_ATTR_BOLD, 0xFF);
    static const int type_letters[] = {18, 30, 43};
    static const int first_letters[] = {21, 33, 48};
    for (int i = 0; i < 3; i++) {
        paint(canvas, 3, type_letters[i], 1, VIEW_COLOR_MAGENTA, VIEW_ATTR_BOLD);
        canvas_attrs(canvas, 3, first_letters[i], 1, VIEW_ATTR_UNDERLINE, 0xFF);
    }
    canvas_attrs(canvas, 5, 0, 21, VIEW_ATTR_BOLD, 0xFF);
    for (int row = 6; row <= 7; row++) {
        const uint8_t attrs = VIEW_ATTR_BOLD | VIEW_ATTR_ITALIC;
        paint(canvas, row, 21, 5, VIEW_COLOR_GREEN, attrs);
        paint(canvas, row, 36, 8, VIEW_COLOR_YELLOW, attrs);
        paint(canvas, row, 54, 5, VIEW_COLOR_RED, attrs);
    }
    bool readonly = !app_can_signal(app);
    for (size_t i = 0; i < ARRAY_SIZE(row_colors); i++) {
        const struct row_colors *rc = &row_colors[i];
        if (rc->left != 0) {
            paint(canvas, rc->row, 0, 12, rc->left, VIEW_ATTR_BOLD);
        }
        /* The red rows are the process-mutating keys that --readonly disables. */
        if (readonly && rc->right == VIEW_COLOR_RED) {
            canvas_attrs(canvas, rc->row, 39, width - 39, VIEW_ATTR_DIM, 0xFF);
        } else if (help_lines[rc->row] == NULL || strlen(help_lines[rc->row]) > 39) {
            paint(canvas, rc->row, RIGHT_COLUMN, 13, rc->right, VIEW_ATTR_BOLD);
        }
    }
    own_keys(canvas);
}

/* Any key returns to the screen the help was opened from (docs/nvitop-behaviour.md §3.2). */
static bool help_screen_key(struct tui_app *app, int key) {
    (void)key;
    app_screen_pop(app);
    return true;
}

const struct screen_ops help_screen_ops = {
    .name = "help",
    .draw = help_screen_draw,
    .key = help_screen_key,
};

/* Python's floor division, as nvitop centres with //: -1 // 2 is -1 where C's -1 / 2 is 0. */
static int floor_div2(int value) {
    return value >= 0 ? value / 2 : -((-value + 1) / 2);
}

void notice_draw(struct canvas *canvas, int cols) {
    const struct view_style plain = {0};
    char message[128];
    snprintf(message, sizeof(message),
             "nvitop needs at least a width of 79 to render, the current width is %d.", cols);
    int wrap = (cols < 40 ? 40 : cols);
    wrap = (wrap < cols ? wrap : cols);
    wrap = (wrap < 60 ? wrap : 60) - 10;
    /* Word-wrap into at most 16 lines of at most 80 bytes. */
    char lines[16][81];
    int count = 0;
    int widest = 0;
    char *save = NULL;
    for (char *word = strtok_r(message, " ", &save); word != NULL;
         word = strtok_r(NULL, " ", &save)) {
        if (count > 0) {
            size_t len = strlen(lines[count - 1]);
            if ((int)(len + 1 + strlen(word)) <= wrap) {
                snprintf(lines[count - 1] + len, sizeof(lines[0]) - len, " %s", word);
                continue;
            }
        }
        if (count == 16) {
            break;
        }
        snprintf(lines[count++], sizeof(lines[0]), "%s", word);
    }
    for (int i = 0; i < count; i++) {
        int len = (int)strlen(lines[i]);
        widest = len > widest ? len : widest;
    }
    int width = widest + 4;
    int height = count + 4;
    int rows = canvas_rows(canvas);
    int y = floor_div2(rows - height);
    int x = floor_div2(cols - width);
    canvas_text(canvas, y, x, "╒", plain);
    canvas_fill(canvas, y, x + 1, width - 2, "═", plain);
    canvas_text(canvas, y, x + width - 1, "╕", plain);
    for (int i = 0; i < count + 2; i++) {
        int row = y + 1 + i;
        canvas_text(canvas, row, x, "│", plain);
        canvas_fill(canvas, row, x + 1, width - 2, " ", plain);
        canvas_text(canvas, row, x + width - 1, "│", plain);
        if (i >= 1 && i <= count) {
            canvas_text(canvas, row, x + 2, lines[i - 1], plain);
        }
    }
    canvas_text(canvas, y + height - 1, x, "╘", plain);
    canvas_fill(canvas, y + height - 1, x + 1, width - 2, "═", plain);
    canvas_text(canvas, y + height - 1, x + width - 1, "╛", plain);
}
