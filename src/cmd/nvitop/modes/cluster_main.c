/* The cluster view's entry point (cluster_main.h): the nodes read once for -1 and --json, or the
 * cluster screen fed by a background poller. */
#include "cmd/nvitop/modes/cluster_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cluster/fetch/curl_api.h"
#include "cluster/fetch/fetch.h"
#include "cluster/fetch/hosts.h"
#include "cluster/prometheus/prom_api.h"
#include "cluster/table.h"
#include "cmd/nvitop/cli/options_help.h"
#include "cmd/nvitop/cli/settings_resolve.h"
#include "cmd/nvitop/modes/cluster_report.h"
#include "tui/cluster/cluster_tui.h"
#include "util/sys/clock.h"
#include "util/text/term_text.h"

#define DEFAULT_TIMEOUT_S  3.0
#define DEFAULT_INTERVAL_S 2.0
#define MIN_INTERVAL_S     0.25

_Static_assert(TUI_CLUSTER_COLUMN_COUNT == TABLE_COL_COUNT, "one settings name per column");

static int print_and_free(const struct nvitop_options *options, struct node *nodes, size_t count,
                          const struct cluster_source_info *source,
                          const struct cluster_table_options *table);

/* As for the local GPUs: the monitor on a terminal unless -1 or --json. */
static bool wants_monitor(const struct nvitop_options *options) {
    return !options->once && options->output == NVITOP_OUTPUT_REPORT &&
           (options->monitor || (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)));
}

/* The cluster screen, fed by a poller; the nodes are freed.  Without a terminal, or when curses
 * cannot start, an error (as the local monitor's). */
static int run_monitor(const struct nvitop_options *options, struct node *nodes, size_t count,
                       const struct fetch_options *fetch, const struct cluster_source_info *source,
                       const struct cluster_table_options *table) {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        free(nodes);
        fputs("ERROR: You must run monitor mode from a TTY terminal.\n", stderr);
        return 1;
    }
    char title[300];
    if (source->url != NULL) {
        snprintf(title, sizeof title, "%s", source->url);
    } else {
        snprintf(title, sizeof title, "%zu host%s", count, count == 1 ? "" : "s");
    }
    struct cluster_tui_config config = {
        .source = title, .columns = table->columns, .grouping = table->grouping};
    config.view.ascii = options->ascii;
    config.view.light = options->light;
    config.view.color = true;
    config.view.superuser = true; /* no local user owns a remote process: none is dimmed */
    config.view.user_name = "";
    config.view.thresholds = (struct view_thresholds){10, 75, 10, 80};
    double interval = options->interval_s > 0 ? options->interval_s : DEFAULT_INTERVAL_S;
    interval = interval < MIN_INTERVAL_S ? MIN_INTERVAL_S : interval; /* as the local monitor */
    struct poller *poller =
        poller_start(nodes, count, source->url, fetch, interval, table->history_step_s);
    free(nodes);
    int code = 0;
    char error[256];
    if (poller == NULL) {
        fputs("nvitop: cannot start the cluster reader thread\n", stderr);
        code = 1;
    } else if (cluster_tui_run(&config, poller, error, sizeof error) != 0) {
        fprintf(stderr, "ERROR: Failed to initialize `curses` (%s)\n", error);
        code = 1;
    }
    poller_stop(poller);
    return code;
}

bool cluster_requested(const struct nvitop_options *options) {
    return options->hosts != NULL || options->prometheus != NULL;
}

/* The cluster view with libcurl open (in fetch); the caller closes it. */
static int run_with_curl(const struct nvitop_options *options, const struct fetch_options *fetch,
                         const struct cluster_table_options *table);

/* The settings file's [cluster] section (the other sections are the local monitor's): its
 * columns and grouping.  A bad pattern is warned about and ignored.  Returns the grouping (NULL
 * without one); free it with node_grouping_free(). */
static struct node_grouping *cluster_settings(const struct nvitop_options *options,
                                              struct cluster_table_options *table) {
    struct tui_settings settings;
    char *path = NULL;
    nvitop_settings_resolve(options, &settings, &path);
    free(path);
    table->columns = settings.cluster.columns;
    table->grouping = NULL;
    table->history_named = settings.cluster.history_named;
    table->history_step_s = settings.cluster.history_s / NODE_HISTORY_CELLS;
    table->ascii = options->ascii;
    if (settings.cluster.group[0] == '\0') {
        return NULL;
    }
    char err[300];
    struct node_grouping *g = node_grouping_new(settings.cluster.group, err, sizeof err);
    if (g == NULL) {
        fprintf(stderr, "nvitop: [cluster] group: %s (rows are not grouped)\n", err);
    }
    table->grouping = g;
    return g;
}

int cluster_run(const struct nvitop_options *options) {
    if (options->output == NVITOP_OUTPUT_QUERY) {
        nvitop_usage_error("argument --query/-q: not allowed with --hosts or --prometheus");
        return 2;
    }
    if ((options->cert == NULL) != (options->key == NULL)) {
        nvitop_usage_error("--cert and --key must be given together");
        return 2;
    }
    /* libcurl is loaded here and only here: the rest of nvitop never maps it (curl_api.h). */
    struct curl_api curl;
    char error[300];
    if (!curl_api_open(&curl, error, sizeof error)) {
        fprintf(stderr, "nvitop: %s\n", error);
        return 1;
    }
    struct fetch_options fetch = {
        .timeout_s = options->timeout_s > 0 ? options->timeout_s : DEFAULT_TIMEOUT_S,
        .cacert = options->cacert,
        .cert = options->cert,
        .key = options->key,
        .curl = &curl,
    };
    struct cluster_table_options table;
    struct node_grouping *grouping = cluster_settings(options, &table);
    int code = run_with_curl(options, &fetch, &table);
    node_grouping_free(grouping);
    curl_api_close(&curl);
    return code;
}

/* Whether -1 or --json shows the history: JSON always, the table when the settings name it. */
static bool history_shown(const struct nvitop_options *options,
                          const struct cluster_table_options *table) {
    return options->output == NVITOP_OUTPUT_JSON || table->history_named;
}

static int run_with_curl(const struct nvitop_options *options, const struct fetch_options *fetch,
                         const struct cluster_table_options *table) {
    struct node *nodes = NULL;
    size_t count = 0;
    struct cluster_source_info source = {.kind = "hosts", .url = NULL};
    char err[512];
    if (options->prometheus != NULL) {
        source = (struct cluster_source_info){.kind = "prometheus", .url = options->prometheus};
        if (wants_monitor(options)) {
            return run_monitor(options, NULL, 0, fetch, &source, table);
        }
        if (!prom_api_read(options->prometheus, fetch, &nodes, &count, err, sizeof err)) {
            term_text_clean_in_place(err);
            fprintf(stderr, "nvitop: cannot read Prometheus at %s: %s\n", options->prometheus, err);
            return 1;
        }
        /* The history, when shown: one range query, then the sample just read. */
        if (history_shown(options, table) &&
            !prom_api_history(options->prometheus, fetch, nodes, count, table->history_step_s,
                              clock_wall_s(), err, sizeof err)) {
            term_text_clean_in_place(err);
            fprintf(stderr, "nvitop: warning: no history from Prometheus at %s: %s\n",
                    options->prometheus, err);
        }
        return print_and_free(options, nodes, count, &source, table);
    }
    if (!hosts_parse(options->hosts, &nodes, &count, err, sizeof err)) {
        char message[600];
        snprintf(message, sizeof message, "argument --hosts: %s", err);
        nvitop_usage_error(message);
        return 2;
    }
    if (wants_monitor(options)) {
        return run_monitor(options, nodes, count, fetch, &source, table);
    }
    fetch_nodes(nodes, count, fetch);
    return print_and_free(options, nodes, count, &source, table);
}

/* Print the nodes as asked and free them.  Their utilization just read is their history's
 * newest sample (with --hosts, the only one). */
static int print_and_free(const struct nvitop_options *options, struct node *nodes, size_t count,
                          const struct cluster_source_info *source,
                          const struct cluster_table_options *table) {
    double now = clock_wall_s();
    int code = 0;
    for (size_t i = 0; i < count; i++) {
        code = nodes[i].state == NODE_OK ? code : 1;
        if (nodes[i].state == NODE_OK && nodes[i].has_data) {
            node_history_add(&nodes[i].history, table->history_step_s, nodes[i].data_time,
                             nodes[i].summary.util_mean);
        }
    }
    if (options->output == NVITOP_OUTPUT_JSON) {
        if (!cluster_print_json(stdout, nodes, count, now, source, table->history_step_s)) {
            code = 1;
        }
    } else {
        /* -1 shows HISTORY only when the settings name it (with --hosts it is one sample). */
        struct cluster_table_options shown = *table;
        if (!table->history_named) {
            shown.columns &= ~(1u << TABLE_COL_HISTORY);
        }
        cluster_print_table(stdout, nodes, count, now, &shown);
    }
    free(nodes);
    return code;
}
