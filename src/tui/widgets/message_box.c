/*
 * The signal confirmation box (see message_box.h; layout from docs/nvitop-behaviour.md §3.7).
 */
#include "tui/widgets/message_box.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define NAME_LEN        8                       /* every option name is centred in 8 cells */
#define TEXT_WIDTH      (MESSAGE_BOX_WIDTH - 6) /* room for the message */
#define SLOT_WIDTH      (NAME_LEN + 6)          /* one button with its spacing */
#define CONFIRM_DELAY_S 0.25

struct option_info {
    const char *name; /* already centred in NAME_LEN cells */
    int name_offset;  /* where the real name starts inside those cells */
    int name_len;
    int hot_offset; /* the underlined letter, from the name start */
    int signal_number;
};

static const struct option_info options[MESSAGE_BOX_OPTION_COUNT] = {
    [MESSAGE_BOX_TERM] = {"SIGTERM ", 0, 7, 3, SIGTERM},
    [MESSAGE_BOX_KILL] = {"SIGKILL ", 0, 7, 3, SIGKILL},
    [MESSAGE_BOX_INT] = {" SIGINT ", 1, 6, 3, SIGINT},
    [MESSAGE_BOX_CANCEL] = {" Cancel ", 1, 6, 0, 0},
};

static void add_line(struct message_box *box, const char *text, size_t len) {
    box->lines = xrealloc(box->lines, (box->line_count + 1) * sizeof(*box->lines));
    char *line = xmalloc(len + 1);
    memcpy(line, text, len);
    line[len] = '\0';
    box->lines[box->line_count++] = line;
}

/* Word-wrap one paragraph to TEXT_WIDTH cells (words are ASCII: pids and cut user names). */
static void wrap(struct message_box *box, const char *paragraph) {
    char line[TEXT_WIDTH * 4 + 1];
    size_t len = 0;
    const char *p = paragraph;
    bool any = false;
    while (*p != '\0') {
        while (*p == ' ') {
            p++;
        }
        const char *start = p;
        while (*p != '\0' && *p != ' ') {
            p++;
        }
        size_t word = (size_t)(p - start);
        if (word == 0) {
            break;
        }
        if (len > 0 && len + 1 + word > TEXT_WIDTH) {
            add_line(box, line, len);
            len = 0;
        }
        if (len > 0) {
            line[len++] = ' ';
        }
        size_t copy = word < sizeof(line) - 1 - len ? word : sizeof(line) - 1 - len;
        memcpy(line + len, start, copy);
        len += copy;
        any = true;
    }
    if (len > 0 || !any) {
        add_line(box, line, len);
    }
}

static void build_message(struct message_box *box) {
    char item[64];
    if (box->target_count == 1) {
        char text[128];
        snprintf(text, sizeof(text), "Send signal to process %u(%s)?", box->targets[0].pid,
                 box->targets[0].user);
        /* A single line is centred as Python's str.center() does (extra space on the right). */
        size_t len = strlen(text);
        size_t pad = len < TEXT_WIDTH ? TEXT_WIDTH - len : 0;
        char centred[256];
        snprintf(centred, sizeof(centred), "%*s%s", (int)(pad / 2), "", text);
        add_line(box, centred, strlen(centred));
        return;
    }
    add_line(box, "Send signal to the following processes?", 39);
    add_line(box, "", 0);
    size_t width = 0;
    for (size_t i = 0; i < box->target_count; i++) {
        size_t len = (size_t)snprintf(item, sizeof(item), "%u(%s)", box->targets[i].pid,
                                      box->targets[i].user);
        width = len > width ? len : width;
    }
    size_t size = box->target_count * (width + 1) + 1;
    char *items = xmalloc(size);
    size_t used = 0;
    for (size_t i = 0; i < box->target_count; i++) {
        snprintf(item, sizeof(item), "%u(%s)", box->targets[i].pid, box->targets[i].user);
        /* Padding inside an item keeps the columns aligned; wrap() splits at the spaces
         * between items only because items carry no spaces of their own. */
        used += (size_t)snprintf(items + used, size - used, "%s%-*s", i > 0 ? " " : "", (int)width,
                                 item);
    }
    wrap(box, items);
    free(items);
}

void message_box_open(struct message_box *box, struct selection_target *targets, size_t count,
                      int preselect) {
    message_box_close(box);
    box->open = true;
    box->targets = targets;
    box->target_count = count;
    box->current = preselect;
    build_message(box);
}

void message_box_close(struct message_box *box) {
    for (size_t i = 0; i < box->line_count; i++) {
        free(box->lines[i]);
    }
    free(box->lines);
    free(box->targets);
    memset(box, 0, sizeof(*box));
}

static void decide(struct message_box *box, int option) {
    box->current = option;
    box->decided = true;
    box->choice = option;
    box->confirm_at = 0.0;
}

void message_box_key(struct message_box *box, int key) {
    if (!box->open || box->decided) {
        return;
    }
    switch (key) {
    case 't':
    case 'T':
    case '1':
        decide(box, MESSAGE_BOX_TERM);
        break;
    case 'k':
    case 'K':
    case '2':
        decide(box, MESSAGE_BOX_KILL);
        break;
    case 'i':
    case 'I':
    case '3':
        decide(box, MESSAGE_BOX_INT);
        break;
    case 'c':
    case 'C':
    case '4':
    case 'n':
    case 'N':
    case 'q':
    case 'Q':
    case TUI_KEY_ESC:
        decide(box, MESSAGE_BOX_CANCEL);
        break;
    case TUI_KEY_ENTER:
    case ' ':
        decide(box, box->current);
        break;
    case TUI_KEY_LEFT:
    case ',':
    case '<':
    case '[':
    case TUI_KEY_BACK_TAB:
        box->current = (box->current + MESSAGE_BOX_OPTION_COUNT - 1) % MESSAGE_BOX_OPTION_COUNT;
        break;
    case TUI_KEY_RIGHT:
    case '.':
    case '>':
    case ']':
    case TUI_KEY_TAB:
        box->current = (box->current + 1) % MESSAGE_BOX_OPTION_COUNT;
        break;
    default:
        break;
    }
}

static int box_height(const struct message_box *box) {
    return (int)box->line_count + 7;
}

void message_box_mouse(struct message_box *box, const struct tui_event *event, int rows, int cols,
                       double now_s) {
    if (!box->open || box->decided) {
        return;
    }
    if (event->buttons & TUI_MOUSE_WHEEL_UP) {
        box->current = (box->current + MESSAGE_BOX_OPTION_COUNT - 1) % MESSAGE_BOX_OPTION_COUNT;
        return;
    }
    if (event->buttons & TUI_MOUSE_WHEEL_DOWN) {
        box->current = (box->current + 1) % MESSAGE_BOX_OPTION_COUNT;
        return;
    }
    int y_start = (rows - box_height(box)) / 2;
    int x_start = (cols - MESSAGE_BOX_WIDTH) / 2;
    int y_options = y_start + box_height(box) - 3;
    if (event->y < y_options - 1 || event->y > y_options + 1 || event->x < x_start + 3) {
        return;
    }
    int option = (event->x - x_start - 3) / SLOT_WIDTH;
    if (option < 0 || option >= MESSAGE_BOX_OPTION_COUNT) {
        return;
    }
    box->current = option;
    box->confirm_at = now_s + CONFIRM_DELAY_S;
}

bool message_box_tick(struct message_box *box, double now_s) {
    if (!box->open || box->decided || box->confirm_at <= 0.0 || now_s < box->confirm_at) {
        return false;
    }
    decide(box, box->current);
    return true;
}

bool message_box_take_choice(struct message_box *box, int *signal_number) {
    if (!box->open || !box->decided) {
        return false;
    }
    *signal_number = options[box->choice].signal_number;
    box->decided = false;
    return true;
}

static void draw_frame(const struct message_box *box, struct canvas *canvas, int y, int x) {
    const struct view_style plain = {0};
    int inner = MESSAGE_BOX_WIDTH - 4;
    int row = y;
    canvas_text(canvas, row, x, " ╒", plain);
    canvas_fill(canvas, row, x + 2, inner, "═", plain);
    canvas_text(canvas, row++, x + 2 + inner, "╕ ", plain);
    for (size_t i = 0; i < box->line_count + 2; i++, row++) {
        canvas_text(canvas, row, x, " │", plain);
        canvas_fill(canvas, row, x + 2, inner, " ", plain);
        canvas_text(canvas, row, x + 2 + inner, "│ ", plain);
        if (i >= 1 && i <= box->line_count) {
            canvas_text(canvas, row, x + 3, box->lines[i - 1], plain);
        }
    }
    static const char *const button_rows[3][3] = {
        {"┌", "─", "┐"}, {"│", " ", "│"}, {"└", "─", "┘"}};
    for (int b = 0; b < 3; b++, row++) {
        canvas_text(canvas, row, x, " │", plain);
        canvas_fill(canvas, row, x + 2, inner, " ", plain);
        canvas_text(canvas, row, x + 2 + inner, "│ ", plain);
        for (int i = 0; i < MESSAGE_BOX_OPTION_COUNT; i++) {
            int bx = x + 4 + i * SLOT_WIDTH;
            canvas_text(canvas, row, bx, button_rows[b][0], plain);
            canvas_fill(canvas, row, bx + 1, NAME_LEN + 2, button_rows[b][1], plain);
            canvas_text(canvas, row, bx + NAME_LEN + 3, button_rows[b][2], plain);
            if (b == 1) {
                canvas_text(canvas, row, bx + 2, options[i].name, plain);
            }
        }
    }
    canvas_text(canvas, row, x, " ╘", plain);
    canvas_fill(canvas, row, x + 2, inner, "═", plain);
    canvas_text(canvas, row, x + 2 + inner, "╛ ", plain);
}

/* An option's colours as nvitop sets them: a signal's name in red with its letter bold and
 * underlined; the chosen button in standout and bold with foreground and background swapped, so
 * that its name stands on red (reversed by standout) instead of being drawn in red. */
static void color_option(struct canvas *canvas, int y, int x, int i, bool current) {
    const struct option_info *option = &options[i];
    int name_x = x + 6 + i * SLOT_WIDTH + option->name_offset;
    if (current) {
        for (int dy = -1; dy <= 1; dy++) {
            canvas_attrs(canvas, y + dy, name_x - option->name_offset - 3, SLOT_WIDTH,
                         VIEW_ATTR_STANDOUT | VIEW_ATTR_BOLD, 0);
        }
    }
    if (option->signal_number != 0) {
        if (current) {
            canvas_background(canvas, y, name_x, option->name_len, VIEW_COLOR_RED);
        } else {
            canvas_color(canvas, y, name_x, option->name_len, VIEW_COLOR_RED);
        }
    }
    canvas_attrs(canvas, y, name_x + option->hot_offset, 1, VIEW_ATTR_BOLD | VIEW_ATTR_UNDERLINE,
                 0);
}

void message_box_draw(const struct message_box *box, struct canvas *canvas) {
    if (!box->open) {
        return;
    }
    int rows = canvas_rows(canvas);
    int cols = canvas_cols(canvas);
    for (int row = 0; row < rows; row++) {
        canvas_attrs(canvas, row, 0, cols, VIEW_ATTR_DIM, 0);
    }
    int height = box_height(box);
    int y = (rows - height) / 2;
    int x = (cols - MESSAGE_BOX_WIDTH) / 2;
    draw_frame(box, canvas, y, x);
    int y_options = y + height - 3;
    for (int i = 0; i < MESSAGE_BOX_OPTION_COUNT; i++) {
        color_option(canvas, y_options, x, i, i == box->current);
    }
}
