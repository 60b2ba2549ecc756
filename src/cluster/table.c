/* The cluster table's text (table.h). */
#include "cluster/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/text/utf8.h"
#include "util/xalloc.h"

static void fmt_pct(char *buf, size_t size, double v) {
    if (isnan(v)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.0f%%", v);
    }
}

static void fmt_gib(char *buf, size_t size, double mib) {
    if (isnan(mib)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.1fGiB", mib / 1024.0);
    }
}

static void fmt_unit(char *buf, size_t size, double v, const char *unit) {
    if (isnan(v)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.0f%s", v, unit);
    }
}

/* "12s", "4m", "3h", "2d": the age of a node's data. */
static void fmt_age(char *buf, size_t size, const struct node *n, double now) {
    if (!n->has_data) {
        snprintf(buf, size, "-");
        return;
    }
    double age = now - n->data_time;
    age = age < 0 ? 0 : age;
    if (age < 60) {
        snprintf(buf, size, "%.0fs", floor(age));
    } else if (age < 3600) {
        snprintf(buf, size, "%.0fm", floor(age / 60));
    } else if (age < 86400) {
        snprintf(buf, size, "%.0fh", floor(age / 3600));
    } else {
        snprintf(buf, size, "%.0fd", floor(age / 86400));
    }
}

static void fmt_users(char *buf, size_t size, const struct node_summary *s) {
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < s->user_count && i < NODE_TOP_USERS && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s %.1fGiB", i > 0 ? ", " : "",
                         s->users[i].name, s->users[i].gpu_memory_mib / 1024.0);
        used += n > 0 ? (size_t)n : 0;
    }
    if (s->user_count == 0) {
        snprintf(buf, size, "-");
    }
}

/* Each column after NODE: its title, its width (0: as wide as its text; -1: the HOST or HEALTH
 * width of struct table_widths) and the blanks before it. */
static const struct {
    const char *title;
    int width;
    const char *sep;
} columns_of[TABLE_COL_COUNT] = {
    [TABLE_COL_HOST] = {"HOST", -1, "  "},
    [TABLE_COL_GPUS] = {"GPUS", 4, "  "},
    [TABLE_COL_MIG] = {"MIG", 3, " "},
    [TABLE_COL_UTIL] = {"UTIL", 4, " "},
    [TABLE_COL_MAX] = {"MAX", 4, " "},
    [TABLE_COL_MEMORY] = {"MEMORY USED / TOTAL", 19, " "},
    [TABLE_COL_POWER] = {"POWER", 5, " "},
    [TABLE_COL_TEMP] = {"TEMP", 4, " "},
    [TABLE_COL_PROCS] = {"PROCS", 5, " "},
    [TABLE_COL_AGE] = {"AGE", 3, " "},
    [TABLE_COL_HEALTH] = {"HEALTH", -1, "  "},
    [TABLE_COL_HISTORY] = {"UTIL HISTORY", NODE_HISTORY_CELLS, "  "},
    [TABLE_COL_USERS] = {"TOP USERS (GPU MEMORY)", 0, "  "},
};

static bool shown(unsigned set, enum table_column c) {
    return (set & (1u << c)) != 0;
}

/* The cells taken by the shown columns but NODE, HOST and TOP USERS. */
static int fixed_width(const struct table_widths *w) {
    int fixed = 0;
    for (int c = 0; c < TABLE_COL_COUNT; c++) {
        if (shown(w->shown, (enum table_column)c) && c != TABLE_COL_USERS) {
            fixed += (int)strlen(columns_of[c].sep) + (columns_of[c].width > 0 ? columns_of[c].width
                                                       : c == TABLE_COL_HEALTH ? w->health
                                                                               : 0);
        }
    }
    return fixed;
}

void table_widths(const struct node *nodes, size_t count, size_t columns,
                  struct table_widths *out) {
    table_widths_shown(nodes, count, columns, TABLE_COLUMNS_ALL, out);
}

void table_widths_shown(const struct node *nodes, size_t count, size_t columns, unsigned set,
                        struct table_widths *out) {
    out->node = 4;
    out->host = 4;
    out->health = 6;
    out->shown = set & TABLE_COLUMNS_ALL;
    out->ascii = false;
    for (size_t i = 0; i < count; i++) {
        if (nodes[i].has_data) {
            char flags[128];
            node_flags_text(flags, sizeof flags, &nodes[i].summary);
            int f = (int)strlen(flags);
            out->health = f > out->health ? f : out->health;
        }
        int a = (int)utf8_width(nodes[i].address, strlen(nodes[i].address));
        int h = (int)utf8_width(nodes[i].summary.hostname, strlen(nodes[i].summary.hostname));
        out->node = a > out->node ? a : out->node;
        out->host = h > out->host ? h : out->host;
    }
    if (columns == 0) {
        return;
    }
    /* NODE and HOST give way first, the longer one first, down to 8 cells each, so that every
     * figure up to AGE stays visible (TOP USERS may run past the edge). */
    int room = (int)columns - fixed_width(out);
    bool host = shown(out->shown, TABLE_COL_HOST);
    if (shown(out->shown, TABLE_COL_HISTORY) && out->node + (host ? out->host : 0) > room) {
        out->shown &= ~(1u << TABLE_COL_HISTORY); /* the first to go */
        room = (int)columns - fixed_width(out);
    }
    while (out->node + (host ? out->host : 0) > room &&
           (out->node > 8 || (host && out->host > 8))) {
        if ((!host || out->node >= out->host) && out->node > 8) {
            out->node--;
        } else {
            out->host--;
        }
    }
}

void table_cell(char *buf, size_t size, const char *text, int width) {
    size_t len = strlen(text);
    size_t cells = 0;
    size_t keep = utf8_fit(text, len, (size_t)width, &cells);
    bool cut = keep < len;
    if (cut) {
        keep = utf8_fit(text, len, width > 0 ? (size_t)width - 1 : 0, &cells);
    }
    size_t used = 0;
    if (keep + 2 + (size_t)width >= size) {
        keep = 0; /* cannot happen with the callers' buffers; stay safe */
        cells = 0;
    }
    memcpy(buf, text, keep);
    used = keep;
    if (cut) {
        buf[used++] = '~';
        cells++;
    }
    while (cells < (size_t)width) {
        buf[used++] = ' ';
        cells++;
    }
    buf[used] = '\0';
}

/* Join NODE's cell and the shown columns' texts (texts[c] for column c) as the header and rows
 * are laid out. */
static void join(char *buf, size_t size, const char *node, const char *const *texts,
                 const struct table_widths *w) {
    size_t used = 0;
    int n = snprintf(buf, size, "%s", node);
    used = n > 0 ? (size_t)n : 0;
    for (int c = 0; c < TABLE_COL_COUNT && used < size; c++) {
        if (!shown(w->shown, (enum table_column)c)) {
            continue;
        }
        if (c == TABLE_COL_HOST || c == TABLE_COL_HISTORY) {
            char cell[TABLE_CELL_MAX];
            table_cell(cell, sizeof cell, texts[c],
                       c == TABLE_COL_HOST ? w->host : NODE_HISTORY_CELLS);
            n = snprintf(buf + used, size - used, "%s%s", columns_of[c].sep, cell);
        } else if (c == TABLE_COL_HEALTH) {
            n = snprintf(buf + used, size - used, "%s%-*s", columns_of[c].sep, w->health, texts[c]);
        } else {
            n = snprintf(buf + used, size - used, "%s%*s", columns_of[c].sep, columns_of[c].width,
                         texts[c]);
        }
        used += n > 0 ? (size_t)n : 0;
    }
}

void table_header(char *buf, size_t size, const struct table_widths *w) {
    char node[TABLE_CELL_MAX];
    table_cell(node, sizeof node, "NODE", w->node);
    const char *texts[TABLE_COL_COUNT];
    for (int c = 0; c < TABLE_COL_COUNT; c++) {
        texts[c] = columns_of[c].title;
    }
    join(buf, size, node, texts, w);
}

/* A node's hostname and its place in the list, sorted by hostname, then place. */
struct named {
    const char *host;
    size_t index;
};

static int by_host_then_index(const void *a, const void *b) {
    const struct named *x = a, *y = b;
    int cmp = strcmp(x->host, y->host);
    return cmp != 0 ? cmp : (x->index > y->index) - (x->index < y->index);
}

/* Sorted rather than compared pair by pair: the screen asks on every draw, and 1,000 nodes are
 * half a million comparisons. */
bool table_same_host(const struct node *nodes, size_t count, char *buf, size_t size) {
    buf[0] = '\0';
    struct named *named = xcalloc(count + 1, sizeof *named);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (nodes[i].has_data && nodes[i].summary.hostname[0] != '\0') {
            named[n++] = (struct named){nodes[i].summary.hostname, i};
        }
    }
    qsort(named, n, sizeof *named, by_host_then_index);
    /* In each run of one hostname, its first two places; of those, the pair whose first node
     * comes first in the list. */
    size_t first = count, second = count;
    for (size_t k = 1; k < n; k++) {
        bool starts_run = k == 1 || strcmp(named[k - 2].host, named[k - 1].host) != 0;
        if (starts_run && strcmp(named[k - 1].host, named[k].host) == 0 &&
            named[k - 1].index < first) {
            first = named[k - 1].index;
            second = named[k].index;
        }
    }
    free(named);
    if (first == count) {
        return false;
    }
    snprintf(buf, size,
             "%s and %s report the same hostname \"%s\": one machine listed twice, "
             "or exporters started with the same --hostname",
             nodes[first].address, nodes[second].address, nodes[first].summary.hostname);
    return true;
}

void table_problem(char *buf, size_t size, const struct node *n) {
    if (n->state == NODE_OK) {
        buf[0] = '\0';
    } else if (n->state == NODE_PENDING) {
        snprintf(buf, size, "pending: waiting for the first answer");
    } else {
        snprintf(buf, size, "%s: %s", node_state_name(n->state), n->reason);
    }
}

void table_row(char *buf, size_t size, const struct node *n, const struct table_widths *w,
               double now) {
    const struct node_summary *s = &n->summary;
    if (!n->has_data) {
        char problem[sizeof n->reason + 32];
        char node[TABLE_CELL_MAX], host[TABLE_CELL_MAX];
        table_problem(problem, sizeof problem, n);
        table_cell(node, sizeof node, n->address, w->node);
        if (shown(w->shown, TABLE_COL_HOST)) {
            table_cell(host, sizeof host, "-", w->host);
            snprintf(buf, size, "%s  %s  %s", node, host, problem);
        } else {
            snprintf(buf, size, "%s  %s", node, problem);
        }
        return;
    }
    char age[16], util[16], max[16], used[32], total[32], mem[80], power[24], temp[16], procs[16];
    char users[256], flags[128];
    fmt_age(age, sizeof age, n, now);
    node_flags_text(flags, sizeof flags, s);
    fmt_pct(util, sizeof util, s->util_mean);
    fmt_pct(max, sizeof max, s->util_max);
    fmt_gib(used, sizeof used, s->memory_used_mib);
    fmt_gib(total, sizeof total, s->memory_total_mib);
    snprintf(mem, sizeof mem, "%s / %s", used, total);
    fmt_unit(power, sizeof power, s->power_w, "W");
    fmt_unit(temp, sizeof temp, s->temperature_max_c, "C");
    fmt_users(users, sizeof users, s);
    double history[NODE_HISTORY_CELLS];
    char spark[4 * NODE_HISTORY_CELLS + 1];
    node_history_values(&n->history, now, history);
    node_sparkline(spark, sizeof spark, history, NODE_HISTORY_CELLS, w->ascii);
    /* dcgm-exporter has no process metrics: its count is unknown, not 0. */
    if (s->dcgm) {
        snprintf(procs, sizeof procs, "N/A");
    } else {
        snprintf(procs, sizeof procs, "%u", s->process_count);
    }
    char node[TABLE_CELL_MAX], gpus[16], migs[16];
    table_cell(node, sizeof node, n->address, w->node);
    snprintf(gpus, sizeof gpus, "%u", s->gpu_count);
    snprintf(migs, sizeof migs, "%u", s->mig_count);
    const char *texts[TABLE_COL_COUNT] = {
        [TABLE_COL_HOST] = s->hostname[0] != '\0' ? s->hostname : "-",
        [TABLE_COL_GPUS] = gpus,
        [TABLE_COL_MIG] = migs,
        [TABLE_COL_UTIL] = util,
        [TABLE_COL_MAX] = max,
        [TABLE_COL_MEMORY] = mem,
        [TABLE_COL_POWER] = power,
        [TABLE_COL_TEMP] = temp,
        [TABLE_COL_PROCS] = procs,
        [TABLE_COL_AGE] = age,
        [TABLE_COL_HEALTH] = flags,
        [TABLE_COL_HISTORY] = spark,
        [TABLE_COL_USERS] = users,
    };
    join(buf, size, node, texts, w);
}

static double nan_sum(double a, double b) {
    return isnan(b) ? a : isnan(a) ? b : a + b;
}

void table_totals(const struct node *nodes, size_t count, struct table_totals *out) {
    memset(out, 0, sizeof *out);
    out->nodes = count;
    out->memory_free_mib = out->power_w = NAN;
    for (size_t i = 0; i < count; i++) {
        const struct node *n = &nodes[i];
        if (n->state != NODE_OK || !n->has_data) {
            continue;
        }
        const struct node_summary *s = &n->summary;
        out->nodes_up++;
        out->gpus += s->gpu_count;
        out->gpus_idle += s->idle_count;
        out->memory_free_mib =
            nan_sum(out->memory_free_mib, s->memory_total_mib - s->memory_used_mib);
        out->power_w = nan_sum(out->power_w, s->power_w);
    }
}

void table_total_line(char *buf, size_t size, const struct table_totals *t) {
    char free_text[32], power[24];
    fmt_gib(free_text, sizeof free_text, t->memory_free_mib);
    fmt_unit(power, sizeof power, t->power_w, "W");
    snprintf(buf, size, "TOTAL  %zu/%zu nodes up  %lu GPUs  %lu idle  %s free  %s power",
             t->nodes_up, t->nodes, t->gpus, t->gpus_idle, free_text, power);
}
