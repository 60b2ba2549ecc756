/* The cluster view's entry point (cluster_main.h).  The nodes are read once; the interactive
 * cluster screen does not exist yet, so a monitor request is refused with a clear message. */
#include "cluster_main.h"

#include <stdio.h>
#include <stdlib.h>

#include "cluster/fetch.h"
#include "cluster/hosts.h"
#include "cluster/prom_api.h"
#include "cluster_report.h"
#include "options_help.h"
#include "util/clock.h"

#define DEFAULT_TIMEOUT_S 3.0

static int print_and_free(const struct nvitop_options *options, struct node *nodes, size_t count,
                          const struct cluster_source_info *source);

bool cluster_requested(const struct nvitop_options *options) {
    return options->hosts != NULL || options->prometheus != NULL;
}

int cluster_run(const struct nvitop_options *options) {
    if (!options->once && options->output != NVITOP_OUTPUT_JSON) {
        nvitop_usage_error("the cluster screen is not available yet: use --hosts or --prometheus "
                           "with --once (-1) or --json");
        return 2;
    }
    if (options->output == NVITOP_OUTPUT_QUERY) {
        nvitop_usage_error("argument --query/-q: not allowed with --hosts or --prometheus");
        return 2;
    }
    if ((options->cert == NULL) != (options->key == NULL)) {
        nvitop_usage_error("--cert and --key must be given together");
        return 2;
    }
    struct fetch_options fetch = {
        .timeout_s = options->timeout_s > 0 ? options->timeout_s : DEFAULT_TIMEOUT_S,
        .cacert = options->cacert,
        .cert = options->cert,
        .key = options->key,
    };
    struct node *nodes = NULL;
    size_t count = 0;
    struct cluster_source_info source = {.kind = "hosts", .url = NULL};
    fetch_global_init();
    char err[512];
    if (options->prometheus != NULL) {
        source = (struct cluster_source_info){.kind = "prometheus", .url = options->prometheus};
        if (!prom_api_read(options->prometheus, &fetch, &nodes, &count, err, sizeof err)) {
            fetch_global_cleanup();
            fprintf(stderr, "nvitop: cannot read Prometheus at %s: %s\n", options->prometheus, err);
            return 1;
        }
        return print_and_free(options, nodes, count, &source);
    }
    bool https = options->cacert != NULL || options->cert != NULL;
    if (!hosts_parse(options->hosts, https, &nodes, &count, err, sizeof err)) {
        fetch_global_cleanup();
        char message[600];
        snprintf(message, sizeof message, "argument --hosts: %s", err);
        nvitop_usage_error(message);
        return 2;
    }
    fetch_nodes(nodes, count, &fetch);
    return print_and_free(options, nodes, count, &source);
}

/* Print the nodes as asked, free them and end libcurl's use. */
static int print_and_free(const struct nvitop_options *options, struct node *nodes, size_t count,
                          const struct cluster_source_info *source) {
    double now = clock_wall_s();
    int code = 0;
    for (size_t i = 0; i < count; i++) {
        code = nodes[i].state == NODE_OK ? code : 1;
    }
    if (options->output == NVITOP_OUTPUT_JSON) {
        if (!cluster_print_json(stdout, nodes, count, now, source)) {
            code = 1;
        }
    } else {
        cluster_print_table(stdout, nodes, count, now);
    }
    free(nodes);
    fetch_global_cleanup();
    return code;
}
