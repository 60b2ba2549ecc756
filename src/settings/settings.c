/*
 * The settings file's parser (settings.h); the writer is settings_format.c.  Hand-written rather
 * than a library: the format is a dozen "key = value" lines, Debian's INI libraries (libinih,
 * libiniparser) would add a run-time dependency for about a hundred lines, and neither reports a
 * bad value with its line number in our words nor keeps the other keys of a bad line's file
 * (docs/architecture.md).
 */
#include "settings/settings.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "settings/settings_names.h"
#include "util/array.h"
#include "util/text/parse.h"
#include "util/text/str.h"

#define MAX_KEY   32
#define MAX_VALUE 96

const char *const tui_settings_mode_names[] = {"auto", "full", "compact"};
/* Indexed by enum view_sort_order; the names the file uses. */
const char *const tui_settings_sort_names[] = {"natural", "pid", "user",   "gpu-memory", "sm",
                                               "gmbw",    "cpu", "memory", "time"};
static const char *const metric_names[] = {"gpu-util", "memory",  "power",
                                           "pcie-rx",  "pcie-tx", "mem-bandwidth"};
_Static_assert(ARRAY_SIZE(tui_settings_sort_names) == VIEW_SORT_COUNT,
               "one file name per sort order");
static const char *const metric_labels[] = {"UTL", "MEM", "PWR", "RX", "TX", "MBW"};

const char *tui_graph_metric_name(enum tui_graph_metric metric) {
    return (unsigned)metric < TUI_GRAPH_METRIC_COUNT ? metric_names[metric] : "?";
}

bool tui_graph_metric_is_rate(enum tui_graph_metric metric) {
    return metric == TUI_GRAPH_PCIE_RX || metric == TUI_GRAPH_PCIE_TX;
}

const char *tui_graph_metric_label(enum tui_graph_metric metric) {
    return (unsigned)metric < TUI_GRAPH_METRIC_COUNT ? metric_labels[metric] : "?";
}

void tui_settings_defaults(struct tui_settings *s) {
    memset(s, 0, sizeof(*s));
    s->mode = VIEW_MODE_AUTO;
    s->thresholds = (struct view_thresholds){10, 75, 10, 80};
    s->sort = VIEW_SORT_NATURAL;
    s->graph_upper = TUI_GRAPH_MEMORY;
    s->graph_lower = TUI_GRAPH_GPU_UTIL;
    s->graph_height = TUI_GRAPH_HEIGHT_DEFAULT;
    s->cluster.columns = TUI_CLUSTER_COLUMNS_ALL;
    s->cluster.history_s = TUI_CLUSTER_HISTORY_DEFAULT_S;
}

/* One parse: where it is, for the messages. */
struct parse {
    const char *file;
    unsigned line;
    unsigned warnings;
    tui_settings_warn_fn warn;
    void *context;
};

__attribute__((format(printf, 2, 3))) static bool complain(struct parse *p, const char *format,
                                                           ...) {
    char message[384];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof(message), format, ap);
    va_end(ap);
    /* The file's words are quoted back: no control character (an escape sequence) or stray
     * byte reaches the terminal. */
    for (char *c = message; *c != '\0'; c++) {
        unsigned char byte = (unsigned char)*c;
        if (byte < 0x20 || byte >= 0x7f) {
            *c = '?';
        }
    }
    p->warnings++;
    if (p->warn != NULL) {
        p->warn(p->context, p->file, p->line, message);
    }
    return false;
}

/* The index of value in names, or -1. */
static int choice(const char *value, const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(value, names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static bool set_choice(struct parse *p, const char *key, const char *value,
                       const char *const *names, size_t count, int *out) {
    int index = choice(value, names, count);
    if (index < 0) {
        char expected[256] = "";
        for (size_t i = 0; i < count; i++) {
            size_t used = strlen(expected);
            snprintf(expected + used, sizeof(expected) - used, "%s%s", i > 0 ? ", " : "", names[i]);
        }
        return complain(p, "%s: invalid value '%s' (expected one of: %s)", key, value, expected);
    }
    *out = index;
    return true;
}

static bool set_bool(struct parse *p, const char *key, const char *value, const char *yes,
                     const char *no, bool *out) {
    const char *const names[] = {no, yes};
    int index;
    if (!set_choice(p, key, value, names, 2, &index)) {
        return false;
    }
    *out = index == 1;
    return true;
}

/* "low high", both 1..99 (as --gpu-util-thresh), stored sorted. */
static bool set_thresholds(struct parse *p, const char *key, const char *value, uint32_t *low,
                           uint32_t *high) {
    char a[MAX_VALUE];
    char b[MAX_VALUE];
    char extra[2];
    uint32_t x;
    uint32_t y;
    if (sscanf(value, "%95s %95s %1s", a, b, extra) != 2 || parse_u32(a, 10, &x) != 0 ||
        parse_u32(b, 10, &y) != 0 || x < 1 || x > 99 || y < 1 || y > 99) {
        return complain(p, "%s: invalid value '%s' (expected two integers from 1 to 99)", key,
                        value);
    }
    *low = x < y ? x : y;
    *high = x < y ? y : x;
    return true;
}

static bool set_interval(struct parse *p, const char *key, const char *value, double *out) {
    double parsed;
    if (strcmp(value, "default") == 0) {
        *out = 0.0;
        return true;
    }
    if (parse_double(value, &parsed) != 0 || parsed < 0.25 || parsed > 3600.0) {
        return complain(p,
                        "%s: invalid value '%s' (expected seconds from 0.25 to 3600, or "
                        "default)",
                        key, value);
    }
    *out = parsed;
    return true;
}

static bool set_height(struct parse *p, const char *key, const char *value, int *out) {
    int64_t parsed;
    if (parse_i64(value, TUI_GRAPH_HEIGHT_MIN, TUI_GRAPH_HEIGHT_MAX, &parsed) != 0) {
        return complain(p, "%s: invalid value '%s' (expected an integer from 2 to 10)", key, value);
    }
    *out = (int)parsed;
    return true;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool apply_monitor(struct parse *p, struct tui_settings *s, const char *key,
                          const char *value) {
    int index;
    if (strcmp(key, "mode") == 0) {
        if (set_choice(p, key, value, tui_settings_mode_names, COUNT(tui_settings_mode_names),
                       &index)) {
            s->mode = (enum view_display_mode)index;
        }
    } else if (strcmp(key, "theme") == 0) {
        set_bool(p, key, value, "light", "dark", &s->light);
    } else if (strcmp(key, "colors") == 0) {
        set_bool(p, key, value, "colorful", "plain", &s->colorful);
    } else if (strcmp(key, "interval") == 0) {
        set_interval(p, key, value, &s->interval_s);
    } else if (strcmp(key, "gpu-util-thresh") == 0) {
        set_thresholds(p, key, value, &s->thresholds.gpu_low, &s->thresholds.gpu_high);
    } else if (strcmp(key, "mem-util-thresh") == 0) {
        set_thresholds(p, key, value, &s->thresholds.mem_low, &s->thresholds.mem_high);
    } else if (strcmp(key, "sort") == 0) {
        if (set_choice(p, key, value, tui_settings_sort_names, COUNT(tui_settings_sort_names),
                       &index)) {
            s->sort = (enum view_sort_order)index;
        }
    } else if (strcmp(key, "sort-order") == 0) {
        set_bool(p, key, value, "reversed", "default", &s->reverse);
    } else {
        return false;
    }
    return true;
}

static bool apply_layout(struct parse *p, struct tui_settings *s, const char *key,
                         const char *value) {
    int index;
    bool shown;
    if (strcmp(key, "host-panel") == 0) {
        if (set_bool(p, key, value, "show", "hide", &shown)) {
            s->hide_host = !shown;
        }
    } else if (strcmp(key, "process-panel") == 0) {
        if (set_bool(p, key, value, "show", "hide", &shown)) {
            s->hide_processes = !shown;
        }
    } else if (strcmp(key, "bandwidth") == 0) {
        if (set_bool(p, key, value, "show", "hide", &shown)) {
            s->hide_bandwidth = !shown;
        }
    } else if (strcmp(key, "graph-upper") == 0 || strcmp(key, "graph-lower") == 0) {
        if (set_choice(p, key, value, metric_names, COUNT(metric_names), &index)) {
            *(key[6] == 'u' ? &s->graph_upper : &s->graph_lower) = (enum tui_graph_metric)index;
        }
    } else if (strcmp(key, "graph-height") == 0) {
        set_height(p, key, value, &s->graph_height);
    } else {
        return false;
    }
    return true;
}

const char *const tui_settings_format_names[] = {"auto", "csv", "jsonl"};

/* Seconds for nvitop-collect: at least minimum, at most a year, or "default" (0). */
static bool set_seconds(struct parse *p, const char *key, const char *value, double minimum,
                        double *out) {
    double parsed;
    if (strcmp(value, "default") == 0) {
        *out = 0.0;
        return true;
    }
    if (parse_double(value, &parsed) != 0 || parsed < minimum || parsed > 86400.0 * 365) {
        return complain(p, "%s: invalid value '%s' (expected seconds from %g, or default)", key,
                        value, minimum);
    }
    *out = parsed;
    return true;
}

static bool apply_collect(struct parse *p, struct tui_collect_settings *c, const char *key,
                          const char *value) {
    int index;
    if (strcmp(key, "format") == 0) {
        if (set_choice(p, key, value, tui_settings_format_names, COUNT(tui_settings_format_names),
                       &index)) {
            c->format = (enum tui_collect_format)index;
        }
    } else if (strcmp(key, "interval") == 0) {
        set_seconds(p, key, value, 0.25, &c->interval_s);
    } else if (strcmp(key, "every") == 0) {
        set_seconds(p, key, value, 0.01, &c->every_s);
    } else if (strcmp(key, "tag") == 0) {
        if (strcmp(value, "default") == 0) {
            c->tag[0] = '\0';
        } else if (value[0] == '\0' || strlen(value) >= sizeof(c->tag)) {
            complain(p, "%s: invalid value '%s' (expected 1 to %zu characters)", key, value,
                     sizeof(c->tag) - 1);
        } else if (value[0] == '#' || value[0] == ';') {
            /* Written back as "tag = #..." it would read as a comment. */
            complain(p, "%s: invalid value '%s' (a tag cannot start with '#' or ';')", key, value);
        } else {
            str_copy(c->tag, sizeof(c->tag), value);
        }
    } else if (strcmp(key, "processes") == 0) {
        set_bool(p, key, value, "all", "job", &c->all_processes);
    } else if (strcmp(key, "statistics") == 0) {
        set_bool(p, key, value, "cumulative", "window", &c->cumulative);
    } else {
        return false;
    }
    return true;
}

static void trim(const char **start, const char **end);

const char *const tui_cluster_column_names[TUI_CLUSTER_COLUMN_COUNT] = {
    "host", "gpus",  "mig", "util",   "max",     "memory", "power",
    "temp", "procs", "age", "health", "history", "users"};

/* "all", or column names separated by commas (blanks allowed around them). */
static bool set_columns(struct parse *p, const char *key, const char *value,
                        struct tui_cluster_settings *c) {
    if (strcmp(value, "all") == 0) {
        c->columns = TUI_CLUSTER_COLUMNS_ALL;
        c->history_named = false;
        return true;
    }
    unsigned columns = 0;
    const char *word = value;
    while (*word != '\0') {
        const char *end = strchr(word, ',');
        end = end != NULL ? end : word + strlen(word);
        const char *a = word, *b = end;
        trim(&a, &b);
        char name[16];
        size_t len = (size_t)(b - a);
        int index = -1;
        if (len > 0 && len < sizeof name) {
            memcpy(name, a, len);
            name[len] = '\0';
            index = choice(name, tui_cluster_column_names, TUI_CLUSTER_COLUMN_COUNT);
        }
        if (index < 0) {
            return complain(p,
                            "%s: invalid value '%s' (expected all, or some of: host, gpus, mig, "
                            "util, max, memory, power, temp, procs, age, health, history, users)",
                            key, value);
        }
        columns |= 1u << index;
        word = *end == ',' ? end + 1 : end;
    }
    c->columns = columns;
    c->history_named = (columns & (1u << TUI_CLUSTER_COLUMN_HISTORY)) != 0;
    return true;
}

static bool apply_cluster(struct parse *p, struct tui_cluster_settings *c, const char *key,
                          const char *value) {
    if (strcmp(key, "columns") == 0) {
        set_columns(p, key, value, c);
    } else if (strcmp(key, "history") == 0) {
        double parsed;
        if (parse_double(value, &parsed) != 0 || parsed < TUI_CLUSTER_HISTORY_MIN_S ||
            parsed > TUI_CLUSTER_HISTORY_MAX_S) {
            complain(p, "%s: invalid value '%s' (expected seconds from %g to %g)", key, value,
                     TUI_CLUSTER_HISTORY_MIN_S, TUI_CLUSTER_HISTORY_MAX_S);
        } else {
            c->history_s = parsed;
        }
    } else if (strcmp(key, "group") == 0) {
        if (strcmp(value, "none") == 0) {
            c->group[0] = '\0';
        } else if (strlen(value) >= sizeof c->group) {
            complain(p, "%s: value too long", key);
        } else {
            str_copy(c->group, sizeof c->group, value);
        }
    } else {
        return false;
    }
    return true;
}

static const char *const sections[] = {"monitor", "layout", "collect", "cluster"};

/* Trim blanks (and a CR left by a CRLF file) from both ends of [start, end). */
static void trim(const char **start, const char **end) {
    while (*start < *end && (**start == ' ' || **start == '\t')) {
        (*start)++;
    }
    while (*end > *start && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r')) {
        (*end)--;
    }
}

/* One line without its newline.  section: index into sections, -1 before any header, -2 in an
 * unknown section (its keys were warned about once, at the header). */
static void parse_line(struct parse *p, struct tui_settings *s, const char *start, const char *end,
                       int *section) {
    trim(&start, &end);
    if (start == end || *start == '#' || *start == ';') {
        return;
    }
    if (memchr(start, '\0', (size_t)(end - start)) != NULL) {
        complain(p, "line contains a NUL byte");
        return;
    }
    /* A "#" or ";" after a blank starts a comment (no name or value has one). */
    for (const char *c = start + 1; c < end; c++) {
        if ((*c == '#' || *c == ';') && (c[-1] == ' ' || c[-1] == '\t')) {
            end = c;
            trim(&start, &end);
            break;
        }
    }
    char name[MAX_KEY + 1];
    if (*start == '[') {
        size_t len = (size_t)(end - start);
        if (end[-1] != ']' || len < 3 || len - 2 > MAX_KEY) {
            complain(p, "expected a section header like [monitor]");
            *section = -2;
            return;
        }
        memcpy(name, start + 1, len - 2);
        name[len - 2] = '\0';
        *section = choice(name, sections, COUNT(sections));
        if (*section < 0) {
            complain(p,
                     "unknown section [%s] (expected [monitor], [layout], [collect] or [cluster])",
                     name);
            *section = -2;
        }
        return;
    }
    const char *equals = memchr(start, '=', (size_t)(end - start));
    if (equals == NULL) {
        complain(p, "expected 'key = value'");
        return;
    }
    const char *key_end = equals;
    const char *value_start = equals + 1;
    trim(&start, &key_end);
    trim(&value_start, &end);
    size_t key_len = (size_t)(key_end - start);
    size_t value_len = (size_t)(end - value_start);
    char value[MAX_VALUE + 1];
    if (key_len == 0 || key_len > MAX_KEY) {
        complain(p, "expected 'key = value'");
        return;
    }
    memcpy(name, start, key_len);
    name[key_len] = '\0';
    if (value_len > MAX_VALUE) {
        complain(p, "%s: value too long", name);
        return;
    }
    memcpy(value, value_start, value_len);
    value[value_len] = '\0';
    if (*section == -2) {
        return; /* in an unknown section, already reported */
    }
    static const char *const where[] = {" in [monitor]", " in [layout]", " in [collect]",
                                        " in [cluster]"};
    bool known = *section == 0   ? apply_monitor(p, s, name, value)
                 : *section == 1 ? apply_layout(p, s, name, value)
                 : *section == 2 ? apply_collect(p, &s->collect, name, value)
                 : *section == 3 ? apply_cluster(p, &s->cluster, name, value)
                                 : false;
    if (!known) {
        complain(p, "unknown key '%s'%s", name,
                 *section >= 0 ? where[*section]
                               : " (keys go under [monitor], [layout], [collect] or [cluster])");
    }
}

unsigned tui_settings_parse(struct tui_settings *settings, const char *text, size_t len,
                            const char *file, tui_settings_warn_fn warn, void *context) {
    struct parse p = {file, 0, 0, warn, context};
    int section = -1;
    const char *end = text + len;
    const char *line = text;
    while (line < end) {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        const char *line_end = newline != NULL ? newline : end;
        p.line++;
        parse_line(&p, settings, line, line_end, &section);
        line = newline != NULL ? newline + 1 : end;
    }
    return p.warnings;
}
