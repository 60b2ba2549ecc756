/*
 * The process metrics screen's state: opening on a process, recording the sampler's readings into
 * the graphs' histories with nvitop's dynamic bounds, the graph-switch keys and the y-ticks.  The
 * drawing is in metrics_draw.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/snapshot.h>

#include "tui/event.h"
#include "tui/screens/metrics_screen.h"
#include "util/array.h"
#include "util/text/str.h"
#include "view/draw/intensity.h"

/* A bound changes at most once a second (nvitop's BOUND_UPDATE_INTERVAL). */
#define BOUND_UPDATE_S 1.0

void metrics_layout_of(int rows, int cols, struct metrics_layout *out) {
    out->width = cols;
    out->left = (cols - 3) / 2 > 20 ? (cols - 3) / 2 : 20;
    out->right = (cols - 2) / 2 > 20 ? (cols - 2) / 2 : 20;
    out->upper = (rows - 8) / 2 > 5 ? (rows - 8) / 2 : 5;
    out->lower = (rows - 7) / 2 > 5 ? (rows - 7) / 2 : 5;
}

static bool graph_init(struct metrics_graph *graph, double upper, double min_bound,
                       double init_bound, double scale) {
    graph->upper = upper;
    graph->min_bound = min_bound;
    graph->bound = init_bound;
    graph->next_bound_s = 0.0;
    graph->scale = scale;
    graph->seen = 0;
    return history_init(&graph->history);
}

static void free_graphs(struct metrics_screen *screen) {
    history_fini(&screen->cpu.history);
    history_fini(&screen->host_memory.history);
    history_fini(&screen->gpu_memory.history);
    for (int i = 0; i < METRICS_LOWER_COUNT; i++) {
        history_fini(&screen->lower_graphs[i].history);
    }
}

bool metrics_screen_open(struct metrics_screen *screen, const struct watch_target *target,
                         const struct metrics_process *initial, const char *command,
                         uint64_t host_memory_total, uint64_t device_memory_total) {
    metrics_screen_close(screen);
    unsigned generation = screen->generation;
    memset(screen, 0, sizeof(*screen));
    screen->generation = generation;
    screen->target = *target;
    screen->process = *initial;
    screen->process.command = str_dup_n(command, strlen(command));
    screen->host_memory_total = host_memory_total;
    screen->device_memory_total = device_memory_total;
    /* nvitop: an unknown total becomes 1, so the graph still has a bound. */
    double host_total = nvt_is_na_u64(host_memory_total) || host_memory_total == 0
                            ? 1.0
                            : (double)host_memory_total;
    double gpu_total = nvt_is_na_u64(device_memory_total) || device_memory_total == 0
                           ? 1.0
                           : (double)device_memory_total;
    bool ok = screen->process.command != NULL;
    ok &= graph_init(&screen->cpu, 1000.0, 10.0, 100.0, 0.1);
    ok &= graph_init(&screen->host_memory, host_total, 0.1 * host_total, host_total, 1.0);
    ok &= graph_init(&screen->gpu_memory, gpu_total, 0.1 * gpu_total, gpu_total, 1.0);
    for (int i = 0; i < METRICS_LOWER_COUNT; i++) {
        ok &= graph_init(&screen->lower_graphs[i], 100.0, 10.0, 100.0, 1.0);
    }
    if (!ok) {
        free(screen->process.command);
        screen->process.command = NULL;
        free_graphs(screen);
        return false;
    }
    screen->open = true;
    return true;
}

void metrics_screen_close(struct metrics_screen *screen) {
    if (!screen->open) {
        return;
    }
    free(screen->process.command);
    screen->process.command = NULL;
    free_graphs(screen);
    screen->open = false;
}

static double u32_value(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value;
}

static double u64_value(uint64_t value) {
    return nvt_is_na_u64(value) ? NAN : (double)value;
}

/* nvitop's dynamic bound: 1.25 × the largest visible value above the baseline (0), within
 * [min_bound, upper], changed at most once a second and only when a bucket completes. */
static void update_bound(struct metrics_graph *graph, int width, double now_s) {
    size_t count = history_count(&graph->history);
    if (count == graph->seen) {
        return;
    }
    graph->seen = count;
    double max = -0.1; /* nvitop's "below the baseline" for N/A */
    size_t visible = (size_t)(2 * width + 1);
    for (size_t i = 0; i < visible && i < count; i++) {
        double value = history_at(&graph->history, i);
        if (!isnan(value) && value > max) {
            max = value;
        }
    }
    double bound = 1.25 * max;
    bound = bound < graph->min_bound ? graph->min_bound : bound;
    bound = bound > graph->upper ? graph->upper : bound;
    if (bound != graph->bound && now_s >= graph->next_bound_s) {
        graph->bound = bound;
        graph->next_bound_s = now_s + BOUND_UPDATE_S;
    }
}

static void record_device(struct metrics_screen *screen, const struct nvt_device_state *state,
                          const struct view_thresholds *thresholds) {
    struct nvt_device_snapshot device;
    memset(&device, 0, sizeof(device));
    device.info.is_mig = screen->target.mig_index != NVT_NA_U32;
    device.info.handle_status = NVT_OK;
    device.state = *state;
    struct view_device_colors colors;
    view_device_colors(&device, thresholds, &colors);
    screen->process.device_color = (uint16_t)colors.display;
    screen->process.memory_color = (uint16_t)colors.memory;
    screen->process.bandwidth_color = (uint16_t)colors.bandwidth;
    screen->process.gpu_color = (uint16_t)colors.gpu;
    if (!nvt_is_na_u64(state->memory_total_bytes) && state->memory_total_bytes > 0) {
        screen->device_memory_total = state->memory_total_bytes;
        if (screen->gpu_memory.upper <= 1.0) {
            double total = (double)state->memory_total_bytes;
            screen->gpu_memory.upper = total;
            screen->gpu_memory.min_bound = 0.1 * total;
            screen->gpu_memory.bound = total;
        }
    }
}

static void record_host(struct metrics_process *process, const struct nvt_host_process *host) {
    if (host == NULL) {
        process->cpu_percent = NAN;
        process->memory_percent = NAN;
        process->running_time_s = NAN;
        process->zombie_or_denied = true;
        return;
    }
    process->zombie_or_denied = host->status != NVT_HOST_OK;
    process->cpu_percent = host->cpu_percent;
    process->memory_percent = host->memory_percent;
    process->running_time_s = host->running_time_s;
    if (host->user != NULL && host->user[0] != '\0') {
        str_copy(process->user, sizeof(process->user), host->user);
    }
    if (host->command != NULL && host->command[0] != '\0' &&
        strcmp(host->command, process->command) != 0) {
        char *command = str_dup_n(host->command, strlen(host->command));
        if (command != NULL) {
            free(process->command);
            process->command = command;
        }
    }
}

/* The value row's figures at the precision it shows them.  TIME is left out: it ticks every
 * second out of step with the graphs, and the graphs' own redraw each second brings it along. */
struct shown {
    unsigned type;
    uint16_t colors[4];
    uint64_t gpu_memory_bytes;
    uint32_t percents[4];
    double cpu;
    double memory;
    bool zombie_or_denied;
    const char *command;
};

static double shown_tenths(double value) {
    return isnan(value) ? -1.0 : nearbyint(value * 10.0);
}

static struct shown shown_of(const struct metrics_process *p) {
    struct shown out;
    memset(&out, 0, sizeof(out));
    out.type = p->type;
    out.colors[0] = p->device_color;
    out.colors[1] = p->memory_color;
    out.colors[2] = p->bandwidth_color;
    out.colors[3] = p->gpu_color;
    out.gpu_memory_bytes = p->gpu_memory_bytes;
    out.percents[0] = p->sm_pct;
    out.percents[1] = p->bandwidth_pct;
    out.percents[2] = p->encoder_pct;
    out.percents[3] = p->decoder_pct;
    out.cpu = shown_tenths(p->cpu_percent);
    out.memory = shown_tenths(p->memory_percent);
    out.zombie_or_denied = p->zombie_or_denied;
    out.command = p->command;
    return out;
}

static bool same_shown(const struct shown *a, const struct shown *b) {
    return a->type == b->type && memcmp(a->colors, b->colors, sizeof(a->colors)) == 0 &&
           a->gpu_memory_bytes == b->gpu_memory_bytes &&
           memcmp(a->percents, b->percents, sizeof(a->percents)) == 0 && a->cpu == b->cpu &&
           a->memory == b->memory && a->zombie_or_denied == b->zombie_or_denied &&
           a->command == b->command;
}

static size_t buckets(const struct metrics_screen *screen) {
    size_t count = history_count(&screen->cpu.history) +
                   history_count(&screen->host_memory.history) +
                   history_count(&screen->gpu_memory.history);
    for (int i = 0; i < METRICS_LOWER_COUNT; i++) {
        count += history_count(&screen->lower_graphs[i].history);
    }
    return count;
}

static void record_values(struct metrics_screen *screen, const struct watch_sample *sample,
                          const struct view_thresholds *thresholds, double now_s, int cols);

bool metrics_screen_record(struct metrics_screen *screen, const struct watch_sample *sample,
                           const struct view_thresholds *thresholds, double now_s, double wall_s,
                           int cols) {
    if (!screen->open || screen->exited || sample->generation != screen->generation) {
        return false;
    }
    if (sample->exited) {
        /* Keep everything as it was at the exit; the sampler stops watching. */
        screen->exited = true;
        screen->exited_wall_s = wall_s;
        return true;
    }
    struct shown before = shown_of(&screen->process);
    size_t buckets_before = buckets(screen);
    record_values(screen, sample, thresholds, now_s, cols);
    struct shown after = shown_of(&screen->process);
    /* Until a first bucket completes the labels show running means, which change each time. */
    return buckets_before == 0 || buckets(screen) != buckets_before || !same_shown(&before, &after);
}

static void record_values(struct metrics_screen *screen, const struct watch_sample *sample,
                          const struct view_thresholds *thresholds, double now_s, int cols) {
    struct metrics_process *process = &screen->process;
    record_device(screen, &sample->device, thresholds);
    const struct nvt_gpu_process *gpu = &sample->gpu;
    process->gpu_memory_bytes = sample->on_device ? gpu->gpu_memory_bytes : NVT_NA_U64;
    process->sm_pct = sample->on_device ? gpu->sm_util_pct : NVT_NA_U32;
    process->bandwidth_pct = sample->on_device ? gpu->memory_util_pct : NVT_NA_U32;
    process->encoder_pct = sample->on_device ? gpu->encoder_util_pct : NVT_NA_U32;
    process->decoder_pct = sample->on_device ? gpu->decoder_util_pct : NVT_NA_U32;
    if (sample->on_device && gpu->type != 0) {
        process->type = gpu->type;
    }
    record_host(process, sample->host);

    history_add(&screen->cpu.history, now_s, process->cpu_percent);
    double rss = sample->host != NULL ? u64_value(sample->host->rss_bytes) : NAN;
    history_add(&screen->host_memory.history, now_s, rss);
    history_add(&screen->gpu_memory.history, now_s, u64_value(process->gpu_memory_bytes));
    const uint32_t lower[METRICS_LOWER_COUNT] = {process->sm_pct, process->bandwidth_pct,
                                                 process->encoder_pct, process->decoder_pct};
    for (int i = 0; i < METRICS_LOWER_COUNT; i++) {
        history_add(&screen->lower_graphs[i].history, now_s, u32_value(lower[i]));
    }

    struct metrics_layout layout;
    metrics_layout_of(24, cols, &layout);
    update_bound(&screen->cpu, layout.left, now_s);
    update_bound(&screen->host_memory, layout.left, now_s);
    update_bound(&screen->gpu_memory, layout.right, now_s);
    for (int i = 0; i < METRICS_LOWER_COUNT; i++) {
        update_bound(&screen->lower_graphs[i], layout.right, now_s);
    }
}

bool metrics_screen_key(struct metrics_screen *screen, int key) {
    switch (key) {
    case 'g':
        screen->lower = (enum metrics_lower)((screen->lower + 1) % METRICS_LOWER_COUNT);
        return true;
    case 'G':
        screen->lower =
            (enum metrics_lower)((screen->lower + METRICS_LOWER_COUNT - 1) % METRICS_LOWER_COUNT);
        return true;
    default:
        return false;
    }
}

/* The height (rows above the baseline row, fractional) at which p % of the graph's scale falls. */
static double tick_height(const struct metrics_graph *graph, int height, int percent) {
    if (graph->bound <= 0.0) {
        return 0.0;
    }
    return 0.01 * graph->scale * percent * graph->upper * (height - 1) / graph->bound;
}

size_t metrics_graph_ticks(const struct metrics_graph *graph, int height, bool upside_down,
                           int rows[3], int percents[3]) {
    static const int candidates[] = {1,  2,  4,   5,   8,   10,  20,  40,
                                     50, 80, 100, 200, 400, 500, 800, 1000};
    enum {
        CANDIDATES = ARRAY_SIZE(candidates)
    };
    /* For each whole height, the candidate that falls closest to it (relative to its size). */
    int best[CANDIDATES];
    double error[CANDIDATES];
    int heights[CANDIDATES];
    size_t used = 0;
    int max_height = height - 2;
    for (size_t c = 0; c < CANDIDATES; c++) {
        double h_f = tick_height(graph, height, candidates[c]);
        int h = (int)h_f;
        double e = fabs(h_f - h) / candidates[c];
        size_t k = 0;
        while (k < used && heights[k] != h) {
            k++;
        }
        if (k == used) {
            if (h < max_height) {
                heights[used] = h;
                best[used] = candidates[c];
                error[used] = e;
                used++;
            }
        } else if (e < error[k]) {
            best[k] = candidates[c];
            error[k] = e;
        }
    }
    /* Sort by height (insertion sort: at most 16 entries). */
    for (size_t i = 1; i < used; i++) {
        for (size_t j = i; j > 0 && heights[j - 1] > heights[j]; j--) {
            int th = heights[j];
            heights[j] = heights[j - 1];
            heights[j - 1] = th;
            int tb = best[j];
            best[j] = best[j - 1];
            best[j - 1] = tb;
            double te = error[j];
            error[j] = error[j - 1];
            error[j - 1] = te;
        }
    }
    size_t n = 0;
    if (used >= 2) {
        size_t a = used - 2;
        size_t b = used - 1;
        if (height < 12) {
            size_t pick = error[a] < error[b] ? a : b;
            rows[n] = heights[pick];
            percents[n++] = best[pick];
        } else {
            rows[n] = heights[b];
            percents[n++] = best[b];
            if (best[b] % 2 == 0) {
                int p1 = best[b] / 2;
                int p3 = 3 * p1;
                int h1 = (int)tick_height(graph, height, p1);
                int h3 = (int)tick_height(graph, height, p3);
                if (p1 >= 3) {
                    rows[n] = h1;
                    percents[n++] = p1;
                    if (heights[b] < h3 && h3 < max_height) {
                        rows[n] = h3;
                        percents[n++] = p3;
                    }
                }
            }
        }
    } else {
        for (size_t i = 0; i < used && n < 3; i++) {
            rows[n] = heights[i];
            percents[n++] = best[i];
        }
    }
    if (!upside_down) {
        for (size_t i = 0; i < n; i++) {
            rows[i] = height - 1 - rows[i];
        }
    }
    return n;
}
