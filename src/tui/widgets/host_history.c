/*
 * The host panel's histories: what its graphs plot, recorded from every snapshot.  The left-hand
 * graphs keep the host's CPU, memory and swap; the right-hand ones the metric each shows
 * (app->graphs), averaged over the shown devices and per device (for the selected process's GPU).
 */
#include <math.h>
#include <stdlib.h>

#include <nvitop/format.h>

#include "tui/widgets/panels.h"
#include "view/draw/intensity.h"
#include "view/panels/device_panel.h"
#include "view/processes/filter.h"

static bool is_leaf_of(const struct tui_app *app, const struct nvt_snapshot *snap, size_t slot) {
    const struct nvt_device_snapshot *device = &snap->devices[slot];
    return view_device_is_shown(snap, &app->view, slot) &&
           (device->info.is_mig || device->child_count == 0);
}

bool host_panel_is_leaf(const struct tui_app *app, size_t slot) {
    return is_leaf_of(app, app->snap, slot);
}

static double u32_value(uint32_t value, double scale) {
    return nvt_is_na_u32(value) ? NAN : (double)value * scale;
}

/* A device's value of a metric (NaN for N/A). */
static double metric_value(const struct nvt_device_snapshot *device, enum tui_graph_metric metric) {
    const struct nvt_device_state *state = &device->state;
    switch (metric) {
    case TUI_GRAPH_GPU_UTIL:
        return u32_value(state->gpu_util_pct, 1.0);
    case TUI_GRAPH_MEMORY:
        return view_device_memory_percent(device);
    case TUI_GRAPH_POWER:
        return view_device_power_percent(device);
    case TUI_GRAPH_PCIE_RX:
        return u32_value(state->pcie_rx_kibps, 1.0 / 1024.0);
    case TUI_GRAPH_PCIE_TX:
        return u32_value(state->pcie_tx_kibps, 1.0 / 1024.0);
    case TUI_GRAPH_MEMORY_BANDWIDTH:
        return u32_value(state->memory_bandwidth_util_pct, 1.0);
    default:
        return NAN;
    }
}

/* A metric over the shown leaf devices, as nvitop 1.7 averages them (a MIG-enabled GPU counts
 * through its instances): GPU memory is sum used / sum total, the rest the mean of the known
 * values. */
static double gpu_average(const struct tui_app *app, const struct nvt_snapshot *snap,
                          enum tui_graph_metric metric) {
    uint64_t used = 0;
    uint64_t total = 0;
    double sum = 0.0;
    size_t count = 0;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        if (!is_leaf_of(app, snap, slot)) {
            continue;
        }
        const struct nvt_device_state *state = &device->state;
        if (metric == TUI_GRAPH_MEMORY) {
            if (!nvt_is_na_u64(state->memory_used_bytes) &&
                !nvt_is_na_u64(state->memory_total_bytes)) {
                used += state->memory_used_bytes;
                total += state->memory_total_bytes;
            }
            continue;
        }
        double value = metric_value(device, metric);
        if (!isnan(value)) {
            sum += value;
            count++;
        }
    }
    if (metric == TUI_GRAPH_MEMORY) {
        return total > 0 ? 100.0 * (double)used / (double)total : NAN;
    }
    return count > 0 ? sum / (double)count : NAN;
}

static void free_device_histories(struct app_histories *histories, size_t g) {
    for (size_t i = 0; histories->device[g] != NULL && i < histories->device_count; i++) {
        history_fini(&histories->device[g][i]);
    }
    free(histories->device[g]);
    histories->device[g] = NULL;
}

/* Start a history at start_s unless that is NaN (a recording's: from its first value). */
static void start_history(struct history *history, double start_s) {
    if (!isnan(start_s)) {
        history_start(history, start_s);
    }
}

static bool ensure_device_histories(struct app_histories *histories, size_t count, double now_s) {
    if (histories->device_count == count && histories->device[0] != NULL &&
        histories->device[1] != NULL) {
        return true;
    }
    /* The first ones count from the graphs' start, as nvitop makes them with the panel; those made
     * again for a new set of devices from now. */
    bool first = histories->device[0] == NULL && histories->device[1] == NULL;
    double start_s = isnan(histories->start_s) ? NAN : first ? histories->start_s : now_s;
    bool ok = true;
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        free_device_histories(histories, g);
    }
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        histories->device[g] = calloc(count > 0 ? count : 1, sizeof(struct history));
        ok = ok && histories->device[g] != NULL;
        for (size_t i = 0; histories->device[g] != NULL && i < count; i++) {
            history_init(&histories->device[g][i]);
            start_history(&histories->device[g][i], start_s);
        }
    }
    histories->device_count = count;
    if (!ok) {
        for (size_t g = 0; g < APP_GRAPHS; g++) {
            free_device_histories(histories, g);
        }
        histories->device_count = 0;
    }
    return ok;
}

void app_set_graph(struct tui_app *app, size_t g, enum tui_graph_metric metric) {
    struct app_histories *histories = &app->histories;
    if (g >= APP_GRAPHS || app->graphs[g] == metric) {
        return;
    }
    app->graphs[g] = metric;
    double start_s = isnan(histories->start_s) ? NAN : app->now_s;
    history_fini(&histories->gpu[g]);
    history_init(&histories->gpu[g]);
    start_history(&histories->gpu[g], start_s);
    for (size_t i = 0; histories->device[g] != NULL && i < histories->device_count; i++) {
        history_fini(&histories->device[g][i]);
        history_init(&histories->device[g][i]);
        start_history(&histories->device[g][i], start_s);
    }
}

void app_start_graphs(struct tui_app *app, double now_s) {
    struct app_histories *h = &app->histories;
    h->start_s = now_s;
    history_start(&h->cpu, now_s);
    history_start(&h->memory, now_s);
    history_start(&h->swap, now_s);
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        history_start(&h->gpu[g], now_s);
    }
}

void host_panel_record(struct tui_app *app, const struct nvt_snapshot *snap, double now_s) {
    struct app_histories *histories = &app->histories;
    if (snap == NULL) {
        return;
    }
    if (snap->flags & NVT_SAMPLE_HOST) {
        history_add(&histories->cpu, now_s, snap->host.cpu_percent);
        history_add(&histories->memory, now_s, snap->host.memory_percent);
        history_add(&histories->swap, now_s, snap->host.swap_percent);
    }
    for (size_t g = 0; g < APP_GRAPHS; g++) {
        history_add(&histories->gpu[g], now_s, gpu_average(app, snap, app->graphs[g]));
    }
    if (!ensure_device_histories(histories, snap->device_count, now_s)) {
        return;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *device = &snap->devices[slot];
        for (size_t g = 0; g < APP_GRAPHS; g++) {
            history_add(&histories->device[g][slot], now_s, metric_value(device, app->graphs[g]));
        }
    }
}
