/*
 * nvitop: the once report and the monitor, with nvitop 1.7's start-up order, messages and exit
 * codes (docs/nvitop-behaviour.md §1.4–§1.7).
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "cmd/nvitop/cli/options.h"
#include "cmd/nvitop/cli/settings_resolve.h"
#include "cmd/nvitop/modes/cluster_main.h"
#include "cmd/nvitop/modes/replay.h"
#include "cmd/nvitop/modes/run_config.h"
#include "cmd/nvitop/output/console.h"
#include "cmd/nvitop/output/messages.h"
#include "cmd/nvitop/output/output.h"
#include "cmd/nvitop/output/report.h"
#include "record/file/writer.h"
#include "tui/tui.h"
#include "util/array.h"
#include "util/sys/nofile.h"
#include "util/xalloc.h"
#include "view/config.h"

/* nvitop's colour decision: stdout is a TTY (or --force-color), then termcolor's environment
 * rules. */
static bool decide_color(bool force) {
    if (force) {
        setenv("FORCE_COLOR", "1", 1);
        unsetenv("NO_COLOR");
    }
    bool tty = isatty(STDOUT_FILENO) != 0;
    if (!tty && !force) {
        return false;
    }
    if (getenv("ANSI_COLORS_DISABLED") != NULL || getenv("NO_COLOR") != NULL) {
        return false;
    }
    if (getenv("FORCE_COLOR") != NULL) {
        return true;
    }
    const char *term = getenv("TERM");
    if (term != NULL && strcmp(term, "dumb") == 0) {
        return false;
    }
    return tty;
}

/* The physical devices to show, as sorted unique indices (docs/nvitop-behaviour.md §1.5 step 7). */
static void select_devices(nvt_context *ctx, const struct nvitop_options *options,
                           struct messages *messages, uint32_t **indices, size_t *count) {
    uint32_t device_count = nvt_device_count(ctx);
    bool *wanted = xcalloc(device_count + 1, sizeof(*wanted));
    if (options->only_given) {
        long long *invalid = xcalloc(options->only_count + 1, sizeof(*invalid));
        size_t invalid_count = 0;
        for (size_t i = 0; i < options->only_count; i++) {
            long long index = options->only[i];
            if (index >= 0 && index < (long long)device_count) {
                wanted[index] = true;
            } else {
                invalid[invalid_count++] = index;
            }
        }
        messages_invalid_indices(messages, invalid, invalid_count);
        free(invalid);
    } else if (options->only_visible) {
        struct nvt_cuda_device *visible = NULL;
        size_t visible_count = 0;
        if (nvt_cuda_visible_devices(ctx, getenv("CUDA_VISIBLE_DEVICES"), &visible,
                                     &visible_count) == NVT_OK) {
            for (size_t i = 0; i < visible_count; i++) {
                if (visible[i].index < device_count) {
                    wanted[visible[i].index] = true;
                }
            }
        }
        nvt_free(visible);
    } else {
        for (uint32_t i = 0; i < device_count; i++) {
            wanted[i] = true;
        }
    }
    *indices = xcalloc(device_count + 1, sizeof(**indices));
    *count = 0;
    for (uint32_t i = 0; i < device_count; i++) {
        if (wanted[i]) {
            (*indices)[(*count)++] = i;
        }
    }
    free(wanted);
}

/* nvitop's hint when run as `watch nvitop`: our parent is sh and its parent is watch. */
static bool under_watch(nvt_context *ctx) {
    struct nvt_host_process *parent = NULL;
    struct nvt_host_process *grandparent = NULL;
    bool result = false;
    if (nvt_host_process_read(ctx, (uint32_t)getppid(), &parent) == NVT_OK &&
        parent->name != NULL && strcmp(parent->name, "sh") == 0 &&
        nvt_host_process_read(ctx, parent->ppid, &grandparent) == NVT_OK &&
        grandparent->name != NULL && strcmp(grandparent->name, "watch") == 0) {
        result = true;
    }
    nvt_host_process_free(parent);
    nvt_host_process_free(grandparent);
    return result;
}

/* Run the monitor.  The once report is printed afterwards: after a session nvitop prints the
 * final screen once more, and when curses cannot start it falls back to the report.  Returns
 * false when the user quit while the monitor's sampling thread was stuck in a driver call: that
 * thread still uses ctx, so nothing may touch it again (no report, no nvt_close). */
static bool run_monitor(nvt_context *ctx, const struct nvitop_options *options,
                        const struct tui_settings *settings, const char *settings_path,
                        const struct view_config *config, struct messages *messages,
                        struct rec_writer *recorder) {
    /* The monitor's sampling thread borrows our context for the session, so the driver is
     * initialised once; it is ours again for the report printed after the session. */
    struct tui_config tui = {.view = *config,
                             .readonly = options->readonly,
                             .lib_options = NULL,
                             .context = ctx,
                             .settings = *settings,
                             .settings_path = settings_path,
                             .recorder = recorder};
    char reason[256] = "";
    enum tui_result result = tui_run(&tui, reason, sizeof(reason));
    if (result == TUI_FAILED) {
        messages_addf(messages, "ERROR: Failed to initialize `curses` (%s)", reason);
    }
    return result != TUI_QUIT_DRIVER_BUSY;
}

/* Sets *driver_busy when the monitor left a thread inside a stalled driver call. */
/* What --record found in an existing recording (damage it keeps, a torn record it cut). */
static void record_note(void *arg, const char *text) {
    (void)arg;
    fprintf(stderr, "nvitop: --record: note: %s\n", text);
}

static int run(struct nvitop_options *options, bool *driver_busy) {
    /* Before anything else, so that the warnings about a bad file come before curses starts. */
    struct tui_settings settings;
    char *settings_path = NULL;
    nvitop_settings_resolve(options, &settings, &settings_path);
    bool color = decide_color(options->force_color);
    struct messages messages;
    messages_init(&messages, color);
    int code = 1;
    nvt_context *ctx = NULL;
    struct rec_writer *recorder = NULL;
    uint32_t *indices = NULL;
    size_t count = 0;
    bool ctx_ours = true; /* false while a thread of ours is stuck in the driver */
    bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    /* --json and --query are one-shot outputs; without -1 or -m a terminal means the monitor. */
    bool monitor = options->monitor && options->output == NVITOP_OUTPUT_REPORT;
    if (!options->once && !options->monitor && tty && options->output == NVITOP_OUTPUT_REPORT) {
        monitor = true;
    }
    if (monitor && !tty) {
        messages_addf(&messages, "%s", "ERROR: You must run monitor mode from a TTY terminal.");
        monitor = false;
    }
    if (!console_setup_utf8()) {
        options->ascii = true;
    }
    if (options->replay != NULL) {
        /* A recording needs no driver: nothing here opens NVML.  The messages so far (-m
         * without a terminal) follow the report, as after a live one; a recording that cannot
         * be read is the only error, as a driver that cannot be opened is. */
        code = monitor ? replay_monitor(options, &settings, settings_path, color)
                       : replay_print(options, &settings, color);
        if (code == 0 && messages_print(&messages)) {
            code = 1;
        }
        goto done;
    }

    /* The text report and the monitor show each process's command, never its arguments one by
     * one (--json and the recorder do): without those, the context keeps no argument lists. */
    struct nvt_options open_options;
    nvt_options_init(&open_options);
    open_options.command_only = options->output == NVITOP_OUTPUT_REPORT && options->record == NULL;
    nvt_status status = nvt_open(&open_options, &ctx);
    if (status == NVT_ERR_LIBRARY_NOT_FOUND) {
        messages_print_nvml_not_found(color);
        messages_print_nvml_library_error(color);
        goto done;
    }
    if (status != NVT_OK) {
        messages_print_nvml_error(color, nvt_strerror(status));
        goto done;
    }
    if (options->record != NULL) {
        struct rec_writer_options record_options = {
            .interval_s = options->interval_s > 0 ? options->interval_s : 2.0, .note = record_note};
        char error[512];
        recorder = rec_writer_open(options->record, &record_options, error, sizeof(error));
        if (recorder == NULL) {
            fprintf(stderr, "nvitop: --record: %s\n", error);
            goto done;
        }
    }
    select_devices(ctx, options, &messages, &indices, &count);
    struct view_config config;
    run_config_build(options, &settings, color, geteuid() == 0, indices, count, &config);

    if (monitor && count > 0) {
        ctx_ours =
            run_monitor(ctx, options, &settings, settings_path, &config, &messages, recorder);
    } else if (!isatty(STDOUT_FILENO) && options->output == NVITOP_OUTPUT_REPORT &&
               under_watch(ctx)) {
        messages_addf(&messages, "%s",
                      "HINT: You are running `nvitop` under `watch` command. Please try "
                      "`nvitop -m` directly.");
    }
    code = 0;
    if (ctx_ours) {
        /* After a monitor session the final report is not recorded again. */
        code = output_print(ctx, &config, options->output, monitor && count > 0 ? NULL : recorder)
                   ? 0
                   : 1;
        messages_add_missing_functions(&messages, ctx);
    }
    if (messages_print(&messages)) {
        code = 1;
    }

done:
    messages_fini(&messages);
    free(indices);
    free(settings_path);
    if (ctx_ours) {
        rec_writer_close(recorder); /* else the stuck sampling thread may still append */
        nvt_close(ctx);
    }
    *driver_busy = !ctx_ours;
    return code;
}

int main(int argc, char **argv) {
    struct nvitop_options options;
    /* A descriptor kept open per GPU process (docs/performance.md, "A thousand GPU processes"). */
    nofile_raise_soft_limit();
    int code = nvitop_options_parse(&options, argc, argv);
    bool driver_busy = false;
    if (code < 0 && cluster_requested(&options)) {
        code = cluster_run(&options);
    } else if (code < 0) {
        code = run(&options, &driver_busy);
    }
    nvitop_options_fini(&options);
    if (driver_busy) {
        /* A thread of ours is still inside a stalled driver call: leave without the driver
         * library's destructors, which could wait for that call (the terminal is restored). */
        fflush(stdout);
        fflush(stderr);
        _exit(code);
    }
    return code;
}
