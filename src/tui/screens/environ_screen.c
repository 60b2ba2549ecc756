/*
 * The environment screen (SPEC.md §3.9): a placeholder until it is built.  Without a draw function,
 * app_screen_push() shows "This screen is not part of this build." instead of entering it.
 */
#include "tui/screens/screen.h"

const struct screen_ops environ_screen_ops = {.name = "environ"};
