/*
 * tui_run(): the monitor's event loop.  The UI thread waits in poll() for a key, a new snapshot
 * from the sampler, a signal or the next clock tick, handles everything that arrived, and redraws
 * when something changed; it never calls the driver.
 */
#include "tui/tui.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* mallopt */
#endif

#include "tui/app.h"
#include "tui/screens/metrics_screen.h"
#include "tui/source.h"
#include "tui/term.h"
#include "util/array.h"
#include "util/sys/clock.h"

#define MIN_INTERVAL_S         0.25
#define DEVICE_PERIOD_S        1.0
#define PROCESS_PERIOD_S       2.0
#define SLOW_FIELDS_PERIOD_S   5.0
#define WATCH_PERIOD_S         0.5
#define FIRST_SNAPSHOT_WAIT_MS 1000
#define CLOCK_TICK_S           1.2
/* How long quitting waits for a snapshot in progress.  Far more than a healthy driver needs (a
 * few milliseconds), and short enough that q still quits at once when a call has stalled. */
#define STOP_WAIT_S 0.5

/* nvitop's cadence (docs/nvitop-behaviour.md §3.16): memory, utilisation and host every second, the
 * slow device fields (fan, temperature, power, modes, ECC) every five seconds and the process list
 * every two seconds; --interval I (at least 0.25 s) sets the process period to I and, below one
 * second, the device period too. */
static void plan_schedule(const struct tui_config *config, struct sampler_schedule *schedule) {
    /* Clocks every second too: the UTL and MBW bars end in "@ <clock>MHz", as in once mode. */
    schedule->flags = NVT_SAMPLE_DEVICES_FAST | tui_clock_flags(config) | NVT_SAMPLE_HOST;
    schedule->slow_flags = NVT_SAMPLE_DEVICES;
    schedule->slow_period_s = SLOW_FIELDS_PERIOD_S;
    schedule->process_flags = NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
    /* Hidden panels are not sampled from the first snapshot on; the draws adjust the flags to
     * what is shown afterwards (app_update_sample_flags). */
    if (config->settings.hide_host) {
        schedule->flags &= ~(unsigned)NVT_SAMPLE_HOST;
    }
    if (config->settings.hide_processes) {
        schedule->process_flags = 0;
    }
    schedule->period_s = DEVICE_PERIOD_S;
    schedule->process_period_s = PROCESS_PERIOD_S;
    schedule->watch_period_s = WATCH_PERIOD_S;
    if (config->settings.interval_s > 0.0) {
        double interval = config->settings.interval_s < MIN_INTERVAL_S
                              ? MIN_INTERVAL_S
                              : config->settings.interval_s;
        schedule->process_period_s = interval;
        if (interval < WATCH_PERIOD_S) {
            /* the metrics screen (docs/nvitop-behaviour.md §3.16) */
            schedule->watch_period_s = interval / 3.0;
        }
        if (interval < DEVICE_PERIOD_S) {
            schedule->period_s = interval;
        }
    }
}

static void describe_signal_result(struct tui_app *app, const struct sampler_signal_result *r) {
    char text[96];
    if (r->denied > 0) {
        snprintf(text, sizeof(text), "Permission denied: process %u was not signalled.",
                 r->first_pid);
        app_note(app, text);
    } else if (r->gone > 0 && r->delivered == 0) {
        snprintf(text, sizeof(text), "Process %u is gone (or its pid was reused): no signal sent.",
                 r->first_pid);
        app_note(app, text);
    }
}

static void send_chosen_signal(struct tui_app *app, const struct tui_source *source) {
    int signal_number;
    if (!message_box_take_choice(&app->box, &signal_number)) {
        return;
    }
    /* A read-only source has no signal operation: the box is never opened for one (the keys show
     * the read-only note), and nothing could be sent if it were. */
    if (signal_number != 0 && source->signals != NULL) {
        struct sampler_target targets[64];
        size_t count = 0;
        for (size_t i = 0; i < app->box.target_count; i++) {
            targets[count].pid = app->box.targets[i].pid;
            targets[count].create_time = app->box.targets[i].create_time;
            count++;
            if (count == ARRAY_SIZE(targets) || i + 1 == app->box.target_count) {
                source->signals->send(source->impl, targets, count, signal_number);
                count = 0;
            }
        }
        selection_clear(&app->selection);
        app->signal_generation++;
    }
    message_box_close(&app->box);
}

/* Milliseconds until the clock line needs a redraw, or sooner for timers.  Snapshots arrive at
 * least every second and redraw the clock with everything else, so the clock's own tick waits a
 * little longer than that (a snapshot with the process list can take a few milliseconds more
 * than the last one): it only keeps the clock going while the driver stalls. */
static int next_timeout_ms(const struct tui_app *app, const struct tui_source *source, double now_s,
                           double last_draw_s) {
    double timeout = last_draw_s + CLOCK_TICK_S - now_s;
    int source_ms =
        source->ops->timeout_ms != NULL ? source->ops->timeout_ms(source->impl, now_s) : -1;
    if (source_ms >= 0 && source_ms / 1000.0 < timeout) {
        timeout = source_ms / 1000.0;
    }
    if (app->box.open && app->box.confirm_at > 0.0) {
        double until = app->box.confirm_at - now_s;
        timeout = until < timeout ? until : timeout;
    }
    if (app->note[0] != '\0' && app->note_until > 0.0) {
        double until = app->note_until - now_s;
        timeout = until < timeout ? until : timeout;
    }
    int ms = (int)ceil(timeout * 1000.0);
    return ms < 1 ? 1 : ms;
}

static bool fit_canvas(struct tui_app *app, struct canvas *canvas) {
    term_size(&app->rows, &app->cols);
    if (app->rows < 1 || app->cols < 1) {
        app->rows = app->rows < 1 ? 1 : app->rows;
        app->cols = app->cols < 1 ? 1 : app->cols;
    }
    return canvas_fit(canvas, app->rows, app->cols);
}

/* Hand the source what the screen now needs, when that changed. */
static void update_source_flags(const struct tui_app *app, const struct tui_source *source,
                                struct sampler_schedule *sent) {
    if (app->sample_flags == sent->flags && app->sample_slow_flags == sent->slow_flags &&
        app->sample_process_flags == sent->process_flags) {
        return;
    }
    sent->flags = app->sample_flags;
    sent->slow_flags = app->sample_slow_flags;
    sent->process_flags = app->sample_process_flags;
    source->ops->set_flags(source->impl, sent->flags, sent->slow_flags, sent->process_flags);
}

/* Hand the source the processes the screen needs read, when that changed (app_take_focus). */
static void update_source_focus(struct tui_app *app, const struct tui_source *source) {
    const uint32_t *pids = NULL;
    size_t count = 0;
    bool all = false;
    bool urgent = false;
    if (source->ops->focus != NULL && app_take_focus(app, &pids, &count, &all, &urgent)) {
        source->ops->focus(source->impl, all ? NULL : pids, count, urgent);
    }
}

/* glibc keeps the pages of freed memory resident unless they are at the top of the heap, and a new
 * process list is made while the older one, its table and the sampling pass's own buffers are
 * alive, so the holes they leave stay resident: at 1,000 processes some 0.9 MiB of the
 * monitor's 7 MiB.  After the first few process lists (start-up's garbage) and after each list of
 * many processes, they are handed back once the next frame is drawn (term_trim_after_draw()):
 * 0.3 ms a list at 1,000 processes; with a few processes a trim costs more than the little it
 * gives back (docs/performance.md, "Memory at 1,000 processes"). */
#define TRIM_FIRST_LISTS   3
#define TRIM_MIN_PROCESSES 256

static void trim_after_list(const struct nvt_snapshot *snap, unsigned *lists) {
    if ((snap->flags & NVT_SAMPLE_PROCESSES) == 0) {
        return;
    }
    if (*lists < TRIM_FIRST_LISTS) {
        ++*lists;
        term_trim_after_draw();
    } else if (snap->process_count >= TRIM_MIN_PROCESSES) {
        term_trim_after_draw();
    }
}

static void run_loop(struct tui_app *app, struct canvas *canvas, const struct tui_source *source,
                     const struct sampler_schedule *schedule) {
    bool dirty = true;
    double last_draw = 0.0;
    struct sampler_schedule sent = *schedule; /* the flags the source has */
    unsigned process_lists = 0;
    while (!app->quit) {
        double now = clock_monotonic_s();
        app->now_s = now;
        bool jumped = false;
        struct nvt_snapshot *snap = source->ops->take(source->impl, &jumped);
        if (snap != NULL) {
            if (jumped) {
                app_source_jumped(app); /* graphs of another moment */
            }
            /* A recording's graphs run on its own clock, whatever the playing speed. */
            app_set_snapshot(app, snap, source->ops->shown_time != NULL ? snap->timestamp : now);
            trim_after_list(snap, &process_lists);
            /* The metrics screen shows its own readings only (below): nothing to redraw. */
            dirty = dirty || app->screen != APP_SCREEN_METRICS;
        }
        struct sampler_signal_result result;
        if (source->signals != NULL && source->signals->result(source->impl, &result)) {
            describe_signal_result(app, &result);
            dirty = true;
        }
        if (message_box_tick(&app->box, now)) {
            dirty = true;
        }
        send_chosen_signal(app, source);
        if (app->watch.changed) {
            app->watch.changed = false;
            source->ops->watch(source->impl, app->watch.active ? &app->watch.target : NULL,
                               app->watch.generation);
        }
        struct watch_sample reading;
        while (source->ops->take_watch(source->impl, &reading)) {
            /* Half the readings change nothing shown (the graphs move once a second). */
            dirty = app_metrics_sample(app, &reading, reading.taken_s, app_wall_time(app)) || dirty;
            watch_sample_fini(&reading);
        }
        if (app->refresh_requested) {
            app->refresh_requested = false;
            source->ops->refresh(source->impl);
        }
        if (app->repaint_requested) {
            app->repaint_requested = false;
            term_repaint();
            dirty = true;
        }
        if (dirty && fit_canvas(app, canvas)) {
            app_draw(app, canvas, now, app_wall_time(app));
            term_draw(canvas);
            canvas_release(canvas);
            term_frame_done();
            dirty = false;
            last_draw = now;
            update_source_flags(app, source, &sent);
            update_source_focus(app, source);
        }
        int fds[3];
        size_t nfds = term_poll_fds(fds, 2);
        size_t term_fds = nfds;
        int source_fd = source->ops->fd(source->impl);
        if (source_fd >= 0) {
            fds[nfds++] = source_fd;
        }
        struct pollfd pfds[3];
        for (size_t i = 0; i < nfds; i++) {
            pfds[i].fd = fds[i];
            pfds[i].events = POLLIN;
            pfds[i].revents = 0;
        }
        int rc = poll(pfds, (nfds_t)nfds, next_timeout_ms(app, source, now, last_draw));
        term_polled(pfds, rc > 0 ? term_fds : 0);
        if (rc == 0) {
            dirty = true; /* a clock tick or a timer */
        }
        app->now_s = clock_monotonic_s();
        struct tui_event event;
        while (!app->quit && term_read_event(&event)) {
            if (app_handle_event(app, &event)) {
                dirty = true;
            }
            if (app->box.decided || app->source_moved) {
                app->source_moved = false;
                break; /* send, or take the new frame, before reading further keys */
            }
        }
    }
}

/* One malloc arena for the process: glibc gives the sampling thread an arena of its own, whose
 * pages (some 160 KiB of the monitor's 5 MiB) hold little more than the snapshots it makes and the
 * UI thread frees.  The two threads allocate a few hundred times a second in all: sharing a lock
 * costs nothing measurable.  Other C libraries have one arena, or their own rules. */
static void one_malloc_arena(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    (void)mallopt(M_ARENA_MAX, 1);
#endif
}

enum tui_result tui_run(const struct tui_config *config, char *error, size_t error_size) {
    one_malloc_arena();
    struct tui_app app;
    if (!app_init(&app, config)) {
        snprintf(error, error_size, "out of memory");
        return TUI_FAILED;
    }
    struct sampler_schedule schedule;
    plan_schedule(config, &schedule);
    schedule.recorder = config->recorder;
    if (config->source == NULL) {
        /* Made before the first reading, as nvitop's are; a recording's run on its own clock. */
        app_start_graphs(&app, clock_monotonic_s());
    }
    struct tui_source source;
    if (config->source != NULL) {
        source = *config->source; /* a recording's, opened by the caller: ours from here on */
    } else if (!source_live_start(&source, config->context, config->lib_options, &schedule, error,
                                  error_size)) {
        app_fini(&app);
        return TUI_FAILED;
    }
    app.source = &source;
    struct term_options options = {.light = config->view.light, .colorful = config->view.colorful};
    struct canvas *canvas = term_session_start(&options, error, error_size);
    if (canvas == NULL) {
        app_fini(&app);
        /* The caller prints the once report instead, with the driver: wait for it. */
        source.ops->stop(source.impl, -1.0);
        return TUI_FAILED;
    }
    app.gradients = term_has_gradients();
    source_wait_first(&source, FIRST_SNAPSHOT_WAIT_MS);
    run_loop(&app, canvas, &source, &schedule);
    /* The terminal first: the user has their shell back even if the driver keeps us a while. */
    term_session_stop(canvas);
    app_fini(&app);
    bool stopped = source.ops->stop(source.impl, STOP_WAIT_S);
    return stopped ? TUI_QUIT : TUI_QUIT_DRIVER_BUSY;
}
