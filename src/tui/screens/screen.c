/*
 * The table of screens (screen.h): one entry per enum app_screen.
 */
#include "tui/screens/screen.h"

static const struct screen_ops *const screen_table[APP_SCREEN_COUNT] = {
    [APP_SCREEN_MAIN] = &main_screen_ops,       [APP_SCREEN_HELP] = &help_screen_ops,
    [APP_SCREEN_TREE] = &tree_screen_ops,       [APP_SCREEN_ENVIRON] = &environ_screen_ops,
    [APP_SCREEN_METRICS] = &metrics_screen_ops,
};

const struct screen_ops *screen_ops_of(enum app_screen screen) {
    if ((unsigned)screen >= APP_SCREEN_COUNT) {
        return &main_screen_ops;
    }
    return screen_table[screen];
}
