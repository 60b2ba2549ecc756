/*
 * What the monitor asks the snapshot source to sample, from what the screen shows now (see app.h):
 * the panels shown, the bandwidth column, the graphs, and the screens built from processes.
 */
#include "tui/app.h"
#include "tui/live/tree_hosts.h"
#include "tui/widgets/panels.h"

unsigned tui_clock_flags(const struct tui_config *config) {
    return config != NULL && config->recorder != NULL ? NVT_SAMPLE_CLOCKS
                                                      : NVT_SAMPLE_CLOCKS_SM_MEM;
}

void app_update_sample_flags(struct tui_app *app) {
    /* Memory, utilisation and clocks every time: the device panel always shows them. */
    unsigned flags = NVT_SAMPLE_DEVICES_FAST | tui_clock_flags(app->config);
    if (!app->hide_host) {
        flags |= NVT_SAMPLE_HOST;
    }
    /* The slow fields every 5 s, as nvitop caches them, and the bandwidth column's figures with
     * them: before R555 the PCIe query sleeps 20 ms per direction and GPU, and on 8 GPUs those 16
     * sleeps a second cost more CPU than everything else the monitor does; the NVLink counters,
     * and from R555 on the PCIe ones, then give the mean rate over the 5 s.  A PCIe graph needs a
     * point every second (and the column then reads both every second, so that its two rows come
     * from one reading). */
    bool column = device_panel_bandwidth_col(app) > 0;
    unsigned slow_flags = NVT_SAMPLE_DEVICES;
    if (column) {
        slow_flags |= NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK;
    }
    if (host_panel_shows_graphs(app) &&
        (tui_graph_metric_is_rate(app->graphs[0]) || tui_graph_metric_is_rate(app->graphs[1]))) {
        flags |= NVT_SAMPLE_PCIE_THROUGHPUT | (column ? NVT_SAMPLE_NVLINK : 0U);
    }
    /* The tree, environment and metrics screens are built from the process list too. */
    bool processes =
        !app->hide_processes || (app->screen != APP_SCREEN_MAIN && app->screen != APP_SCREEN_HELP);
    app->sample_flags = flags;
    app->sample_slow_flags = slow_flags;
    app->sample_process_flags = processes ? NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES : 0U;
    /* The tree view's processes are read on the sampling thread while it is shown, or the help
     * screen over it: with a thousand GPU processes reading them delayed keys on the UI thread. */
    bool tree =
        app->screen == APP_SCREEN_TREE || (app->screen == APP_SCREEN_HELP && app->depth >= 2 &&
                                           app->stack[app->depth - 2].screen == APP_SCREEN_TREE);
    if (processes && tree) {
        app->sample_process_flags |= TREE_HOSTS_FLAG;
    }
}
