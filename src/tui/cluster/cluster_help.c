/* The cluster screen's key list (cluster_help.h).  Laid out as nvitop's help screen is: keys
 * right-aligned before a colon. */
#include "tui/cluster/cluster_help.h"

static const char *const lines[] = {
    "NVITOP CLUSTER - keys",
    "",
    "       Up Down k j: select a node                h ?: show this help",
    "PgUp PgDn Home End: select by page, first, last    q: quit",
    "             Enter: show the node's devices and processes (Esc or q: back)",
    "                 u: show the fleet's users (or pods) by GPU memory and GPUs, over all",
    "                    nodes (u, Esc or q: back)",
    "        Left Right: scroll the table sideways when it is wider than the screen",
    "            Ctrl-L: repaint the whole screen",
    "",
    "             on oN: sort by NODE (as given)    ow oW: sort by POWER",
    "             oh oH: sort by HOST               ot oT: sort by TEMP",
    "             ou oU: sort by UTIL               op oP: sort by PROCS",
    "             og oG: sort by MEMORY USED        os oS: sort by state (failing, flagged first)",
    "               , .: select sort column             /: invert sort order",
    "",
    "                 \\: filter the nodes: a text matched against NODE, HOST and",
    "                    TOP USERS (any case); Enter keeps it, Esc clears it",
    "               Esc: clear the filter",
    "",
    "Press any key to return.",
};

void cluster_help_draw(struct canvas *canvas, int rows) {
    struct view_style plain = view_style_make(VIEW_COLOR_DEFAULT, 0);
    struct view_style bold = view_style_make(VIEW_COLOR_DEFAULT, VIEW_ATTR_BOLD);
    for (int i = 0; i < (int)(sizeof lines / sizeof lines[0]) && i < rows; i++) {
        canvas_text(canvas, i, 0, lines[i], i == 0 ? bold : plain);
    }
}
