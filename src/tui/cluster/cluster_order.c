/* The cluster screen's node order and filter (cluster_order.h). */
#include "tui/cluster/cluster_order.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tui/event.h"

static const struct {
    const char *name;
    char letter;
} orders[CLUSTER_ORDER_COUNT] = {
    [CLUSTER_ORDER_NATURAL] = {"natural", 'n'},  [CLUSTER_ORDER_HOST] = {"host", 'h'},
    [CLUSTER_ORDER_UTIL] = {"utilization", 'u'}, [CLUSTER_ORDER_MEMORY] = {"memory", 'g'},
    [CLUSTER_ORDER_POWER] = {"power", 'w'},      [CLUSTER_ORDER_TEMP] = {"temperature", 't'},
    [CLUSTER_ORDER_PROCS] = {"processes", 'p'},  [CLUSTER_ORDER_STATE] = {"state", 's'},
};

const char *cluster_order_name(enum cluster_order order) {
    return order < CLUSTER_ORDER_COUNT ? orders[order].name : "?";
}

bool cluster_order_of_letter(int letter, enum cluster_order *order, bool *reverse) {
    if (letter <= 0 || letter > 127 || !isalpha(letter)) {
        return false;
    }
    for (int i = 0; i < CLUSTER_ORDER_COUNT; i++) {
        if (orders[i].letter == tolower(letter)) {
            *order = (enum cluster_order)i;
            *reverse = isupper(letter) != 0;
            return true;
        }
    }
    return false;
}

bool cluster_node_matches(const struct node *n, const char *filter) {
    if (filter[0] == '\0' || strcasestr(n->address, filter) != NULL ||
        strcasestr(n->summary.hostname, filter) != NULL) {
        return true;
    }
    for (size_t i = 0; n->has_data && i < n->summary.user_count && i < NODE_TOP_USERS; i++) {
        if (strcasestr(n->summary.users[i].name, filter) != NULL) {
            return true;
        }
    }
    return false;
}

bool cluster_filter_key(char *filter, size_t size, int key, bool *editing) {
    size_t len = strlen(filter);
    if (key == TUI_KEY_ENTER || key == '\r') {
        *editing = false;
    } else if (key == TUI_KEY_ESC || key == TUI_KEY_CTRL_C) {
        *editing = false;
        filter[0] = '\0';
    } else if (key == TUI_KEY_BACKSPACE || key == 127 || key == 8) {
        filter[len > 0 ? len - 1 : 0] = '\0';
    } else if (key == 21) { /* Ctrl-U, as in a shell */
        filter[0] = '\0';
    } else if (key >= ' ' && key < 127 && len + 1 < size) {
        filter[len] = (char)key;
        filter[len + 1] = '\0';
    } else {
        return false;
    }
    return true;
}

/* A usage figure of a node: larger first by default, as nvitop sorts usage; N/A below every
 * value, and nodes without data below those. */
static double usage(const struct node *n, enum cluster_order order) {
    const struct node_summary *s = &n->summary;
    if (!n->has_data) {
        return -2;
    }
    double v = order == CLUSTER_ORDER_UTIL     ? s->util_mean
               : order == CLUSTER_ORDER_MEMORY ? s->memory_used_mib
               : order == CLUSTER_ORDER_POWER  ? s->power_w
               : order == CLUSTER_ORDER_TEMP   ? s->temperature_max_c
               : s->dcgm                       ? NAN /* no process metrics */
                                               : (double)s->process_count;
    return isnan(v) ? -1 : v;
}

/* State order: nodes that fail first, then nodes with health flags, then the others. */
static int state_rank(const struct node *n) {
    if (n->state != NODE_OK) {
        return 0;
    }
    return n->has_data && n->summary.flags != 0 ? 1 : 2;
}

struct sorting {
    const struct node *nodes;
    const struct cluster_arrangement *a;
};

static int compare(const void *left, const void *right, void *context) {
    const struct sorting *s = context;
    size_t i = *(const size_t *)left, j = *(const size_t *)right;
    const struct node *x = &s->nodes[i], *y = &s->nodes[j];
    int c = 0;
    switch (s->a->order) {
    case CLUSTER_ORDER_NATURAL:
        c = i < j ? -1 : i > j;
        break;
    case CLUSTER_ORDER_HOST:
        c = strcmp(x->summary.hostname, y->summary.hostname);
        break;
    case CLUSTER_ORDER_STATE:
        c = state_rank(x) - state_rank(y); /* problems first */
        break;
    default: {
        double kx = usage(x, s->a->order), ky = usage(y, s->a->order);
        c = kx < ky ? 1 : kx > ky ? -1 : 0;
        break;
    }
    }
    if (c == 0) {
        c = i < j ? -1 : i > j; /* stable: the nodes' own order, whatever the direction */
    } else if (s->a->reverse) {
        c = -c;
    }
    return c;
}

size_t cluster_arrange(const struct node *nodes, size_t count, const struct cluster_arrangement *a,
                       size_t *shown) {
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (cluster_node_matches(&nodes[i], a->filter)) {
            shown[n++] = i;
        }
    }
    struct sorting sorting = {nodes, a};
    qsort_r(shown, n, sizeof *shown, compare, &sorting);
    return n;
}
