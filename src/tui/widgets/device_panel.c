/*
 * The monitor's device panel: the clock line and the device table of view/device_panel.h.
 */
#include "view/device_panel.h"

#include <string.h>
#include <time.h>

#include "tui/widgets/panels.h"

#define HELP_HINT "(Press h for help or q to quit)"

int device_panel_height(const struct tui_app *app, bool compact) {
    if (app->snap == NULL) {
        return 1;
    }
    return 1 + (int)view_device_panel_height(app->snap, &app->view, compact);
}

static void draw_clock_line(struct canvas *canvas, int y, double wall_s) {
    const struct view_style plain = {0};
    const struct view_style key = {VIEW_COLOR_MAGENTA, VIEW_ATTR_BOLD | VIEW_ATTR_ITALIC};
    time_t now = (time_t)wall_s;
    struct tm local;
    char text[64] = "";
    if (localtime_r(&now, &local) != NULL) {
        strftime(text, sizeof(text), "%a %b %d %H:%M:%S %Y", &local);
    }
    text[32] = '\0';
    canvas_text(canvas, y, 0, text, plain);
    int x = 79 - (int)strlen(HELP_HINT);
    canvas_text(canvas, y, x, HELP_HINT, plain);
    static const int key_offsets[] = {7, 18}; /* the `h` and the `q` */
    for (size_t i = 0; i < sizeof(key_offsets) / sizeof(key_offsets[0]); i++) {
        canvas_color(canvas, y, x + key_offsets[i], 1, key.color);
        canvas_attrs(canvas, y, x + key_offsets[i], 1, key.attrs, 0xFFFF);
    }
}

void device_panel_draw(const struct tui_app *app, struct canvas *canvas, int y, bool compact,
                       double wall_s) {
    draw_clock_line(canvas, y, wall_s);
    if (app->snap == NULL) {
        return;
    }
    struct view_device_panel_options options = {
        .width = (size_t)(app->cols < 79 ? 79 : app->cols),
        .compact = compact,
        .selected_slot = app->selection.set ? app->selection.device_slot : NVT_NA_SIZE,
        .version = NULL,
    };
    struct view_lines lines;
    view_lines_init(&lines);
    view_device_panel(app->snap, &app->view, &options, &lines);
    for (size_t i = 0; i < lines.count; i++) {
        canvas_line(canvas, y + 1 + (int)i, 0, &lines.items[i]);
    }
    view_lines_fini(&lines);
}
