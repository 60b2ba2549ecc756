/*
 * The settings file's writer (settings.h): every key, with the comments that make the file
 * self-explanatory, in a form tui_settings_parse() reads back exactly.
 */
#include <stdio.h>

#include "settings/settings.h"
#include "settings/settings_names.h"
#include "util/text/parse.h"

/* "default" for 0, else the number as the file takes it back. */
static void seconds_text(char *buf, size_t size, double seconds) {
    if (seconds > 0.0) {
        /* Short when that reads back exactly (0.5), else every digit. */
        snprintf(buf, size, "%g", seconds);
        double back;
        if (parse_double(buf, &back) != 0 || back != seconds) {
            snprintf(buf, size, "%.17g", seconds);
        }
    } else {
        snprintf(buf, size, "default");
    }
}

static bool format_collect(const struct tui_collect_settings *c, struct strbuf *out) {
    char interval[40];
    char every[40];
    seconds_text(interval, sizeof(interval), c->interval_s);
    seconds_text(every, sizeof(every), c->every_s);
    return strbuf_appendf(
        out,
        "\n"
        "[collect]\n"
        "# nvitop-collect's defaults (its options win): auto (from the output's name), csv, jsonl\n"
        "format = %s\n"
        "# seconds between samples (0.25 or more) and between rows, or default (1 and 5)\n"
        "interval = %s\n"
        "every = %s\n"
        "# key prefix, or default (metrics-daemon)\n"
        "tag = %s\n"
        "# job (the job's process tree) or all (--all-processes)\n"
        "processes = %s\n"
        "# window (since the previous row) or cumulative (--cumulative)\n"
        "statistics = %s\n",
        tui_settings_format_names[c->format], interval, every,
        c->tag[0] != '\0' ? c->tag : "default", c->all_processes ? "all" : "job",
        c->cumulative ? "cumulative" : "window");
}

static bool format_cluster(const struct tui_cluster_settings *c, struct strbuf *out) {
    bool ok = strbuf_appendf(out, "\n[cluster]\n"
                                  "# the cluster view's columns after NODE (nvitop --hosts, "
                                  "--prometheus): all, or some of\n"
                                  "# host, gpus, mig, util, max, memory, power, temp, procs, age, "
                                  "health, history, users\n"
                                  "columns = ");
    if (c->columns == TUI_CLUSTER_COLUMNS_ALL) {
        ok = strbuf_appendf(out, "all") && ok;
    } else {
        bool first = true;
        for (unsigned i = 0; i < TUI_CLUSTER_COLUMN_COUNT; i++) {
            if ((c->columns & (1u << i)) != 0) {
                ok = strbuf_appendf(out, "%s%s", first ? "" : ",", tui_cluster_column_names[i]) &&
                     ok;
                first = false;
            }
        }
    }
    return strbuf_appendf(out,
                          "\n# rows grouped by a pattern over the node name (its first group, "
                          "e.g. rack=(r\\d+)), or none\n"
                          "group = %s\n"
                          "# the history column's window: seconds from 20 to 3600\n"
                          "history = %g\n",
                          c->group[0] != '\0' ? c->group : "none", c->history_s) &&
           ok;
}

bool tui_settings_format(const struct tui_settings *s, struct strbuf *out) {
    char interval[40];
    seconds_text(interval, sizeof(interval), s->interval_s);
    bool ok = strbuf_appendf(
        out,
        "# nvitop settings, written by the monitor's S key (man nvitop, FILES).\n"
        "# Lines are \"key = value\"; lines starting with # or ; are comments.  The command line\n"
        "# and the environment (NVITOP_MONITOR_MODE, ...) override this file.\n"
        "\n"
        "[monitor]\n"
        "# auto, full or compact\n"
        "mode = %s\n"
        "# dark or light (--light)\n"
        "theme = %s\n"
        "# plain or colorful (--colorful)\n"
        "colors = %s\n"
        "# seconds between process-list updates (0.25 or more), or default\n"
        "interval = %s\n"
        "# loading-intensity thresholds in percent: light < low <= moderate < high <= heavy\n"
        "gpu-util-thresh = %u %u\n"
        "mem-util-thresh = %u %u\n"
        "# natural, pid, user, gpu-memory, sm, gmbw, cpu, memory or time\n"
        "sort = %s\n"
        "# default or reversed (the o + upper-case letter keys)\n"
        "sort-order = %s\n"
        "\n"
        "[layout]\n"
        "# show or hide (keys H and P)\n"
        "host-panel = %s\n"
        "process-panel = %s\n"
        "# the device panel's PCIe and NVLink column, on terminals of 140 columns or more: show "
        "or\n"
        "# hide (key b)\n"
        "bandwidth = %s\n"
        "# what the host panel's right-hand graphs plot (keys g and G): gpu-util, memory, power,\n"
        "# pcie-rx, pcie-tx or mem-bandwidth\n"
        "graph-upper = %s\n"
        "graph-lower = %s\n"
        "# rows of each graph, 2 to 10 (keys + and -)\n"
        "graph-height = %d\n",
        tui_settings_mode_names[s->mode], s->light ? "light" : "dark",
        s->colorful ? "colorful" : "plain", interval, s->thresholds.gpu_low, s->thresholds.gpu_high,
        s->thresholds.mem_low, s->thresholds.mem_high, tui_settings_sort_names[s->sort],
        s->reverse ? "reversed" : "default", s->hide_host ? "hide" : "show",
        s->hide_processes ? "hide" : "show", s->hide_bandwidth ? "hide" : "show",
        tui_graph_metric_name(s->graph_upper), tui_graph_metric_name(s->graph_lower),
        s->graph_height);
    return ok && format_collect(&s->collect, out) && format_cluster(&s->cluster, out);
}
