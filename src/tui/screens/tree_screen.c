/*
 * The tree-view screen (SPEC.md §3.8): a placeholder until it is built.  Without a draw function,
 * app_screen_push() shows "This screen is not part of this build." instead of entering it.
 */
#include "tui/screens/screen.h"

const struct screen_ops tree_screen_ops = {.name = "treeview"};
