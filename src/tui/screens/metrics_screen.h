/*
 * The process metrics screen (docs/nvitop-behaviour.md §3.10): `Enter` on a selected process shows
 * its header and value rows and four live graphs (CPU, host memory, GPU memory, and SM
 * utilisation), fed by the sampler's half-second readings of that one process (tui/live/watch.h).
 * Beyond nvitop: %DEC shows the decoder; a process that exits keeps its graphs, frozen, under an
 * "exited" mark; `g`/`G` switch the lower-right graph between SM, memory bandwidth, encoder and
 * decoder.
 *
 * UI thread only.
 */
#ifndef NVITOP_SRC_TUI_SCREENS_METRICS_SCREEN_H
#define NVITOP_SRC_TUI_SCREENS_METRICS_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/canvas.h"
#include "tui/history.h"
#include "tui/live/watch.h"
#include "view/config.h"
#include "view/draw/line.h"

/* What the lower-right graph shows (the `g` key cycles). */
enum metrics_lower {
    METRICS_LOWER_SM = 0,
    METRICS_LOWER_BANDWIDTH,
    METRICS_LOWER_ENCODER,
    METRICS_LOWER_DECODER,
    METRICS_LOWER_COUNT
};

/* One graph's history with nvitop's dynamic bound (docs/nvitop-behaviour.md §3.4). */
struct metrics_graph {
    struct history history;
    double upper;     /* the largest bound, e.g. 1000 % CPU or the total memory */
    double min_bound; /* the bound never goes below this */
    double bound;
    double next_bound_s; /* monotonic time the bound may change again */
    double scale;        /* y-tick percentages are of upper × scale */
    size_t seen;         /* completed buckets when the bound was last considered */
};

/* The process as the value row shows it. */
struct metrics_process {
    uint32_t pid;
    unsigned type;
    char display_index[16]; /* "0" or "0:1" */
    uint16_t device_color;  /* display colour of the device */
    uint16_t memory_color;  /* the device's memory and bandwidth colours */
    uint16_t bandwidth_color;
    uint16_t gpu_color;
    uint64_t gpu_memory_bytes;
    uint32_t sm_pct;
    uint32_t bandwidth_pct;
    uint32_t encoder_pct;
    uint32_t decoder_pct;
    char user[64];
    char *command; /* owned */
    double cpu_percent;
    double memory_percent;
    double running_time_s;
    bool zombie_or_denied; /* command drawn yellow */
};

struct metrics_screen {
    bool open;
    struct watch_target target;
    unsigned generation; /* of the sampler's watch: readings of others are ignored */
    struct metrics_process process;
    uint64_t device_memory_total;
    uint64_t host_memory_total;
    bool exited;
    double exited_wall_s; /* when the exit was seen (seconds since the epoch) */
    enum metrics_lower lower;
    struct metrics_graph cpu;
    struct metrics_graph host_memory;
    struct metrics_graph gpu_memory;
    struct metrics_graph lower_graphs[METRICS_LOWER_COUNT];
};

/* Everything the drawing needs besides the screen itself. */
struct metrics_draw_context {
    const struct view_config *view;
    const char *host_name;
    bool gradients;
    int rows; /* the canvas rows the screen may use (a replay's time line has the last); 0: all */
};

/* The four areas of the layout for a terminal of rows x cols (docs/nvitop-behaviour.md §3.10). */
struct metrics_layout {
    int width;
    int left;  /* max(20, (W - 3) // 2) */
    int right; /* max(20, (W - 2) // 2) */
    int upper; /* max(5, (H - 8) // 2) */
    int lower; /* max(5, (H - 7) // 2) */
};

void metrics_layout_of(int rows, int cols, struct metrics_layout *out);

/* Open the screen on a process (the row the main screen has selected): target says what to watch,
 * initial and command what to show until the first reading (initial's command is ignored;
 * command is copied).  Returns false when out of memory (the screen stays closed). */
bool metrics_screen_open(struct metrics_screen *screen, const struct watch_target *target,
                         const struct metrics_process *initial, const char *command,
                         uint64_t host_memory_total, uint64_t device_memory_total);

/* Close the screen and free its histories (safe when closed). */
void metrics_screen_close(struct metrics_screen *screen);

/* Record a reading taken at monotonic now_s and wall time wall_s.  Readings of another watch
 * generation are ignored.  The sample stays the caller's.  Returns true when what the screen
 * shows may have changed (a graph moved, a figure of the value row changed at the precision
 * shown, the process exited), false when a redraw would draw the same screen. */
bool metrics_screen_record(struct metrics_screen *screen, const struct watch_sample *sample,
                           const struct view_thresholds *thresholds, double now_s, double wall_s,
                           int cols);

/* The screen's own keys (`g`, `G`).  Returns true when the key was one of them. */
bool metrics_screen_key(struct metrics_screen *screen, int key);

/* Draw the whole screen on a canvas of the terminal's size. */
void metrics_screen_draw(const struct metrics_screen *screen,
                         const struct metrics_draw_context *ctx, struct canvas *canvas);

/* Y-axis ticks of a graph (nvitop's choice): up to three (row offset from the graph's top,
 * percentage) pairs; returns how many. */
size_t metrics_graph_ticks(const struct metrics_graph *graph, int height, bool upside_down,
                           int rows[3], int percents[3]);

struct tui_app;

/* Hand a reading of the watched process to the metrics screen, if it is open (tui.c).  now_s:
 * monotonic seconds; wall_s: seconds since the epoch.  Returns true when the screen must be
 * redrawn. */
bool app_metrics_sample(struct tui_app *app, const struct watch_sample *sample, double now_s,
                        double wall_s);

/* The source jumped to another moment (a replay): the open metrics screen starts its graphs anew
 * and watches its process again, so that the source reads them up to the new moment. */
void app_metrics_jumped(struct tui_app *app);

#endif /* NVITOP_SRC_TUI_SCREENS_METRICS_SCREEN_H */
