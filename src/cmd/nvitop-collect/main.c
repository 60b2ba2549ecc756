/*
 * nvitop-collect: run a job and record its resource usage with the library's collector
 * (nvitop's ResourceMetricCollector) as CSV or JSON Lines, one row every --every seconds; exit with
 * the job's status.  See nvitop-collect(1).
 *
 * Signals: the main thread blocks SIGCHLD, SIGINT, SIGTERM, SIGHUP and SIGQUIT before any thread
 * exists (so the collector's threads inherit the mask) and takes them with sigtimedwait(), which
 * also times the rows.  The job starts with the default mask and dispositions.  A signal sent to
 * nvitop-collect with kill() is passed on to the job; one the terminal sends (Ctrl-C) is not, as
 * the terminal sends it to the whole foreground process group, the job included.
 *
 * nvitop-collect is the collector's root pid and the job's parent, and a child subreaper, so the
 * whole process tree of the job descends from it even when intermediate processes exit.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "collect_options.h"
#include "collect_writer.h"

#define PROG "nvitop-collect"

extern char **environ;

struct run {
    const struct collect_options *options;
    nvt_collector *collector;
    struct collect_writer *writer;
    const char *output_name;
    bool write_failed;
};

static double monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void block_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, set, NULL);
}

static int open_output(const struct collect_options *o, FILE **out, bool *rewritable) {
    *out = stdout;
    *rewritable = false;
    if (o->output == NULL || strcmp(o->output, "-") == 0) {
        return 0;
    }
    *out = fopen(o->output, "w");
    if (*out == NULL) {
        fprintf(stderr, PROG ": cannot open '%s' for writing: %s\n", o->output, strerror(errno));
        return -1;
    }
    struct stat st;
    *rewritable = fstat(fileno(*out), &st) == 0 && S_ISREG(st.st_mode);
    return 0;
}

static nvt_status create_collector(const struct collect_options *o, nvt_collector **out) {
    uint32_t all[] = {1};
    struct nvt_collector_options co;
    nvt_collector_options_init(&co);
    co.interval_s = o->interval_s;
    if (o->all_processes) {
        co.root_pids = all;
        co.root_pid_count = 1;
    }
    /* Otherwise the root is this process: the job is its child, so its whole tree descends. */
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (o->device_count > 0) {
        co.devices = o->devices;
        co.device_count = o->device_count;
    } else if (!o->all_devices && visible != NULL) {
        co.cuda_visible_devices = visible;
    }
    return nvt_collector_create(&co, out);
}

static void write_row(struct run *r) {
    struct nvt_metric *metrics = NULL;
    size_t count = 0;
    nvt_status st = nvt_collector_collect(r->collector, &metrics, &count);
    if (st != NVT_OK) {
        fprintf(stderr, PROG ": cannot collect: %s\n", nvt_strerror(st));
        return;
    }
    if (!r->write_failed && !collect_writer_row(r->writer, metrics, count)) {
        /* The job goes on; its exit status stays the contract. */
        fprintf(stderr, PROG ": cannot write to %s: %s; no more rows are written\n", r->output_name,
                strerror(errno));
        r->write_failed = true;
    }
    nvt_metrics_free(metrics);
    if (!r->options->cumulative) {
        (void)nvt_collector_clear(r->collector, NULL);
    }
}

static int spawn_job(char *const *command, pid_t *pid) {
#ifdef PR_SET_CHILD_SUBREAPER
    /* Processes of the job whose parent exits (a launcher that double-forks its workers) are
     * reparented to us instead of init, so they still descend from the collector's root. */
    (void)prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    posix_spawnattr_t attr;
    sigset_t none;
    sigset_t defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGCHLD);
    sigaddset(&defaults, SIGPIPE);
    int rc = posix_spawnattr_init(&attr);
    if (rc == 0) {
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        rc = posix_spawnp(pid, command[0], NULL, &attr, command, environ);
        posix_spawnattr_destroy(&attr);
    }
    if (rc != 0) {
        fprintf(stderr, PROG ": cannot run '%s': %s\n", command[0], strerror(rc));
        return rc == ENOENT ? COLLECT_EXIT_NOT_FOUND : COLLECT_EXIT_CANNOT_RUN;
    }
    return 0;
}

static int exit_status_of(int status) {
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return COLLECT_EXIT_FAILURE;
}

/* Reap every child that exited: the job, and orphans of the job's tree that were reparented to
 * us (we are their subreaper).  True when the job was among them (*status then says how). */
static bool reap(pid_t job, int *status) {
    bool job_done = false;
    for (;;) {
        int st = 0;
        pid_t done = waitpid(-1, &st, WNOHANG);
        if (done <= 0) {
            return job_done || (done < 0 && errno == ECHILD);
        }
        if (done == job) {
            *status = st;
            job_done = true;
        }
    }
}

/* Write rows until the job exits; returns its wait status. */
static int follow_job(struct run *r, pid_t pid, const sigset_t *set) {
    double every = r->options->every_s;
    double next_row = monotonic_s() + every;
    for (;;) {
        int status = 0;
        if (reap(pid, &status)) {
            return status;
        }
        double now = monotonic_s();
        if (now >= next_row) {
            write_row(r);
            next_row += every;
            if (next_row <= now) { /* fell behind (a stalled driver): skip the missed rows */
                next_row = now + every;
            }
        }
        double wait = next_row - monotonic_s();
        wait = wait > 0.0 ? wait : 0.0;
        struct timespec timeout = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        siginfo_t info;
        int sig = sigtimedwait(set, &info, &timeout);
        if (sig > 0 && sig != SIGCHLD && info.si_code != SI_KERNEL) {
            kill(pid, sig);
        }
    }
}

static int run(const struct collect_options *o) {
    sigset_t set;
    block_signals(&set);
    /* A closed pipe on our output must not kill us (and orphan the job): writes fail instead,
     * which is reported, and the job's status is still returned.  The job gets the default. */
    signal(SIGPIPE, SIG_IGN);
    FILE *out = NULL;
    bool rewritable = false;
    if (open_output(o, &out, &rewritable) != 0) {
        return COLLECT_EXIT_FAILURE;
    }
    nvt_collector *collector = NULL;
    nvt_status st = create_collector(o, &collector);
    if (st == NVT_OK) {
        st = nvt_collector_activate(collector, o->tag);
    }
    if (st != NVT_OK) {
        fprintf(
            stderr, PROG ": %s%s\n",
            st == NVT_ERR_INVALID_ARGUMENT ? "invalid device: " : "NVML ERROR: ", nvt_strerror(st));
        nvt_collector_destroy(collector);
        if (out != stdout) {
            fclose(out);
        }
        return COLLECT_EXIT_FAILURE;
    }
    struct run r = {.options = o,
                    .collector = collector,
                    .writer = collect_writer_new(out, rewritable, o->format, PROG),
                    .output_name = out == stdout ? "standard output" : o->output};
    pid_t pid = 0;
    int status = spawn_job(o->command, &pid);
    if (status == 0) {
        status = exit_status_of(follow_job(&r, pid, &set));
        write_row(&r); /* the end of the run */
    }
    collect_writer_free(r.writer);
    nvt_collector_destroy(collector);
    if (out != stdout && fclose(out) != 0 && !r.write_failed) {
        fprintf(stderr, PROG ": cannot write to %s: %s\n", o->output, strerror(errno));
    }
    return status;
}

static void print_warning(void *context, const char *file, unsigned line, const char *message) {
    (void)context;
    if (line > 0) {
        fprintf(stderr, "%s:%u: %s\n", file, line, message);
    } else {
        fprintf(stderr, "%s: %s\n", file, message);
    }
}

/* The [collect] section of the system and user settings files (nvitop(1), SETTINGS). */
static void load_settings(struct tui_settings *settings) {
    tui_settings_defaults(settings);
    tui_settings_load(settings, tui_settings_system_path(), true, print_warning, NULL);
    char *user = tui_settings_user_path();
    if (user != NULL) {
        tui_settings_load(settings, user, true, print_warning, NULL);
    }
    free(user);
}

int main(int argc, char **argv) {
    struct collect_options options;
    struct tui_settings settings;
    load_settings(&settings);
    switch (collect_options_parse(argc, argv, &settings.collect, &options)) {
    case COLLECT_PARSE_EXIT_OK:
        collect_options_fini(&options);
        return 0;
    case COLLECT_PARSE_EXIT_USAGE:
        collect_options_fini(&options);
        return COLLECT_EXIT_FAILURE;
    case COLLECT_PARSE_OK:
        break;
    }
    int status = run(&options);
    collect_options_fini(&options);
    return status;
}
