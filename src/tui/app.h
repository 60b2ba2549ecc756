/*
 * The monitor's state, shared by the screens and panels of src/tui/.  The UI thread owns all of
 * it; the sampler thread only hands over snapshots (sampler.h).
 */
#ifndef NVITOP_SRC_TUI_APP_H
#define NVITOP_SRC_TUI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

#include "tui/canvas.h"
#include "tui/event.h"
#include "tui/history.h"
#include "tui/live/watch.h"
#include "tui/selection.h"
#include "tui/source.h"
#include "tui/tui.h"
#include "tui/widgets/message_box.h"
#include "view/processes/process_table.h"

/* The two right-hand graphs of the host panel: upper and lower. */
#define APP_GRAPHS 2

/* Histories shown by the host panel's graphs; per-device ones are indexed by snapshot slot.  Only
 * the metric each right-hand graph shows is recorded (choosing another starts its history anew),
 * so that the choice costs no memory. */
struct app_histories {
    struct history cpu;
    struct history memory;
    struct history swap;
    struct history gpu[APP_GRAPHS]; /* average over the shown leaf devices */
    struct history *device[APP_GRAPHS];
    size_t device_count;
    /* When the live monitor made its graphs (monotonic seconds): their buckets count from there,
     * as nvitop's do.  NaN for a recording, whose graphs run on its own clock from its first
     * frame. */
    double start_s;
};

/* The screens (docs/nvitop-behaviour.md §3.2); screens/screen.h has their table. */
enum app_screen {
    APP_SCREEN_MAIN = 0,
    APP_SCREEN_HELP,
    APP_SCREEN_TREE,
    APP_SCREEN_ENVIRON,
    APP_SCREEN_METRICS,
    APP_SCREEN_COUNT
};

/* How deep screens can stack: main, tree, environment, help. */
#define APP_SCREEN_DEPTH 6

/* The process a screen was entered with: its identity as seen in a snapshot, so that a screen
 * never shows a recycled pid's stranger (the environment, the metrics).  set is false when the
 * screen was entered without one. */
struct app_process_ref {
    bool set;
    uint32_t pid;
    double create_time; /* seconds since the epoch, from the snapshot */
    size_t device_slot; /* leaf device in the process snapshot; SIZE_MAX for a host process */
};

/* One entry of the screen stack. */
struct app_screen_frame {
    enum app_screen screen;
    struct app_process_ref process;
};

/* The process the sampler should watch (the metrics screen sets it, tui.c forwards it). */
struct app_watch {
    bool changed; /* not yet forwarded to the sampler */
    bool active;
    struct watch_target target;
    unsigned generation; /* readings carry it back; incremented by every change */
};

/* The GPU processes whose /proc files the sampler reads (nvt_snapshot_focus()), as last handed
 * to the source: all, or the sorted pids (app_focus.c). */
struct app_focus {
    bool all;
    uint32_t *pids;
    size_t count;
};

/* Panel layout of the main screen, recomputed before every draw. */
struct app_layout {
    bool device_compact;
    bool host_compact;
    bool process_compact;
    int device_y;
    int device_height;
    int host_y;
    int host_height;
    int process_y;
    int process_height;
    int total_height;
};

struct tui_app {
    const struct tui_config *config;
    struct view_config view; /* the caller's settings; ascii may be forced */
    bool gradients;          /* --colorful on a 256-colour terminal */
    int rows; /* the screen's rows: the terminal's, less a replay's time line at the bottom */
    int cols;

    struct nvt_snapshot *snap;      /* newest snapshot, NULL before the first */
    struct nvt_snapshot *proc_snap; /* newest one with processes (often the same), or NULL */
    /* The devices of the newest one with PCIe throughput (pcie_device_count of them; NULL before
     * it): the bandwidth column reads them with the slow fields only, as before R555 the 20 ms
     * query is the costliest of all.  A copy, not the snapshot: that one also holds a process
     * list, which at a thousand processes is some 200 KiB kept for five seconds. */
    struct nvt_device_snapshot *pcie_devices;
    size_t pcie_device_count;
    struct view_process_table table; /* built from proc_snap */
    bool table_built;
    struct app_histories histories;

    enum app_screen screen; /* the screen on top of the stack (shown) */
    struct app_screen_frame stack[APP_SCREEN_DEPTH];
    size_t depth; /* entries of stack in use; stack[0] is the main screen */
    /* Private state of each screen, owned by it (allocated by its enter, freed by its leave). */
    void *screen_state[APP_SCREEN_COUNT];
    /* Counts process snapshots, so that screens rebuild what they derive from them only when a
     * new one arrived (and only while shown). */
    uint64_t proc_generation;
    /* Counts signal requests sent, so that a screen with its own selection clears it after one
     * (docs/nvitop-behaviour.md §3.7 step 5) as the main screen does. */
    uint64_t signal_generation;
    /* Where the snapshots come from: lent by tui.c (live), the replay, or a unit test's own
     * source; set before the first event or draw. */
    const struct tui_source *source;
    struct app_watch watch;
    enum view_display_mode mode;
    struct app_layout layout;
    /* Layout choices (settings [layout]; keys H, P, b, g, G, + and -). */
    bool hide_host;
    bool hide_processes;
    bool hide_bandwidth;
    enum tui_graph_metric graphs[APP_GRAPHS];
    int graph_height;
    /* The NVT_SAMPLE_* bits what is on screen needs, recomputed by every draw: the event loop
     * hands them to the sampler, so that nothing hidden is read (no host metrics without the
     * host panel, no 20 ms PCIe query when no bandwidth is shown). */
    unsigned sample_flags;
    unsigned sample_slow_flags; /* instead of NVT_SAMPLE_DEVICES_FAST every 5 s */
    unsigned sample_process_flags;
    struct app_focus focus;
    enum view_sort_order order;
    bool reverse;
    struct selection selection;
    int host_offset; /* -1: cut with ".."; else scrolled by this many cells */
    int scroll;      /* lines of the main screen scrolled off the top */
    bool pending_o;  /* `o` typed, waiting for the sort letter */
    /* Screen rows of the process rows as last drawn (stack coordinates), for the mouse. */
    int *row_y;
    size_t row_y_count;

    struct message_box box;
    char note[96]; /* a short status note (read-only mode, signal errors) */
    double note_until;

    double now_s; /* monotonic time of the event being handled */
    bool quit;
    bool refresh_requested;
    bool repaint_requested; /* clear the terminal and draw every cell (Ctrl-L, force refresh) */
    /* A key of the source moved it (a replay's time line): the keys after it wait for the new
     * frame, so that a selection key acts on the rows it shows. */
    bool source_moved;
};

/* The live monitor's graphs count their one-second buckets from now_s (monotonic seconds), the
 * moment they were made, as nvitop's do: the first value shows once a value comes a second after
 * now_s, not a second after the first value.  Before the first snapshot; in host_history.c. */
void app_start_graphs(struct tui_app *app, double now_s);

/* Choose what right-hand graph i plots; its history starts anew. */
void app_set_graph(struct tui_app *app, size_t i, enum tui_graph_metric metric);

/* The current settings, as the S key saves them. */
void app_current_settings(const struct tui_app *app, struct tui_settings *out);

/* Save the current settings to the configured path and show the outcome in a note. */
void app_save_settings(struct tui_app *app);

/* Recompute sample_flags, sample_slow_flags and sample_process_flags from what the last draw
 * showed. */
void app_update_sample_flags(struct tui_app *app);

/*
 * After a draw: the GPU processes whose host values the sampler must read from now on, when that
 * changed since the last call (false: nothing to hand over).  On the main screen, with an order
 * and filters that need no per-refresh host value of the rows off screen (natural, PID, user;
 * nvitop's other orders break ties by %CPU), those are the rows on screen and a screen's worth
 * above and below, the selected and the tagged processes; the help screen keeps what the screen
 * below asked for; elsewhere, and while --record writes the snapshots, all (*all set, *pids
 * NULL).  *pids stays valid until the next call.  *urgent
 * tells that a row on screen has no fresh reading yet: the sampler should read at once.  Aborts
 * through the program's allocator hook when out of memory.
 */
bool app_take_focus(struct tui_app *app, const uint32_t **pids, size_t *count, bool *all,
                    bool *urgent);

/* Take a new snapshot (ownership passes to the app): it replaces the newest snapshot, when it
 * has processes (NVT_SAMPLE_PROCESSES) the process snapshot, whose table and selection are then
 * rebuilt, and when it has PCIe throughput the PCIe snapshot.  Updates the histories.  now_s:
 * monotonic seconds. */
void app_set_snapshot(struct tui_app *app, struct nvt_snapshot *snap, double now_s);

/* Rebuild the process table after a change of sort order or direction. */
void app_rebuild_table(struct tui_app *app);

/* Show a status note for a few seconds. */
void app_note(struct tui_app *app, const char *text);

/* Show a screen above the current one, entered with process (NULL: none); the screen's enter
 * runs.  Nothing happens when the stack is full or the screen is already on it. */
void app_screen_push(struct tui_app *app, enum app_screen screen,
                     const struct app_process_ref *process);

/* Leave the current screen (its leave runs) and show the one below.  The main screen stays. */
void app_screen_pop(struct tui_app *app);

/* The process the current screen was entered with (set is false when none). */
const struct app_process_ref *app_screen_process(const struct tui_app *app);

/* The UI thread's /proc-only context (nvt_options.host_only, with the monitor's proc root), opened
 * on first use; NULL when it cannot be opened (out of memory). */
nvt_context *app_host_context(struct tui_app *app);

/* What the source lacks (source.h): NULL when available, else why not. */
const char *app_unavailable(const struct tui_app *app, enum tui_source_feature feature);

/* The parent map and one host process beyond the GPU processes of the process snapshot, for the
 * tree view (source.h: parent_map, host_process).  Without a source: /proc now. */
bool app_parent_map(struct tui_app *app, uint32_t **pids, uint32_t **ppids, size_t *count);
struct nvt_host_process *app_host_process(struct tui_app *app, uint32_t pid);
void app_host_pass_end(struct tui_app *app);

/* Can signals be sent?  Not with --readonly, and never from a source without signal operations
 * (a recording): the signal keys then show the read-only note. */
bool app_can_signal(const struct tui_app *app);

/* Free a snapshot the way its source allocated it. */
void app_snapshot_free(const struct tui_app *app, struct nvt_snapshot *snap);

/* The clock the screens show: the recorded moment in a replay, else now. */
double app_wall_time(const struct tui_app *app);

/* The source jumped to another moment (a replay): the graphs start anew from there. */
void app_source_jumped(struct tui_app *app);

/* The process selected on the main screen, as a screen entered from it wants it: false (and
 * out->set false) when nothing is selected. */
bool app_selected_process(const struct tui_app *app, struct app_process_ref *out);

/* Initialise and free the parts of the state that own memory (not the canvas or sampler).
 * app_init returns false when out of memory. */
bool app_init(struct tui_app *app, const struct tui_config *config);

/* The clock flag the monitor samples with: the SM and memory clocks its bars show
 * (NVT_SAMPLE_CLOCKS_SM_MEM, two NVML calls per GPU instead of four), or all four clocks while
 * --record writes the snapshots, so that a recording keeps every field.  config may be NULL. */
unsigned tui_clock_flags(const struct tui_config *config);
void app_fini(struct tui_app *app);

/* Draw the current screen onto the canvas (which has the terminal's size).  now_s: monotonic
 * seconds (status notes expire); wall_s: the clock shown on the main screen. */
void app_draw(struct tui_app *app, struct canvas *canvas, double now_s, double wall_s);

/* Handle one input event.  Returns true when the screen must be redrawn. */
bool app_handle_event(struct tui_app *app, const struct tui_event *event);

#endif /* NVITOP_SRC_TUI_APP_H */
