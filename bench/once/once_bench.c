/*
 * bench-once: wall time and peak resident memory of `nvitop -1` on the 8-GPU scenario with 20
 * stand-in processes, against a floor program measured in the same run (bench-once-floor: load
 * NVML, the same queries, print).  Prints the medians, the peaks and the ratios; never fails on
 * a time.  Targets: time ratio <= 2, peak RSS <= 6 MiB (nvitop 1.7: ~150 ms, 27 MiB).  The CPU
 * time (user and system) of each is printed too: on a shared machine it moves less with the
 * others' load than the wall time does.
 * Also the cost of reading the settings files (issue 12): `nvitop -1` with a full user file and a
 * system file against `nvitop -1 --no-config`, interleaved; target <= 0.2 ms.
 *
 *   bench-once [RUNS]          default 30 runs of each program, interleaved
 *
 * NVT_BENCH_PROCESSES=1000 or 4000 runs it on h100-8gpu-1000.json or h100-16gpu-4000.json with as
 * many stand-ins (docs/performance.md, "A thousand GPU processes"); target there: time ratio
 * <= 1.1.  Both programs also run, interleaved, on the same GPUs with no process
 * (h100-8gpu-idle.json or h100-16gpu-idle.json): their CPU time there is the fixed cost, and
 * (CPU time - fixed cost) / processes the cost a process adds ("The cost per process above the
 * fixed cost").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "settings/settings.h"
#include "util/sys/clock.h"

struct sample {
    double wall_ms;
    double cpu_ms; /* user and system time: less moved by other load than the wall time */
    long max_rss_kib;
};

/* Run argv with stdout on /dev/null; returns 0 and fills *out, or -1. */
static int run_once(char *const argv[], struct sample *out) {
    double start = clock_monotonic_s() * 1e3;
    pid_t pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    pid_t got;
    do {
        got = wait4(pid, &status, 0, &usage);
    } while (got < 0 && errno == EINTR);
    out->wall_ms = clock_monotonic_s() * 1e3 - start;
    out->cpu_ms = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
                  (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
    out->max_rss_kib = usage.ru_maxrss;
    return got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(*values), compare_double);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* Start the stand-ins and export NVT_STANDIN_<i> for the scenario. */
static void start_standins(const char *state, int count) {
    char command[1024];
    snprintf(command, sizeof(command),
             "NVT_STANDIN_STATE='%s' sh '%s/scripts/standins.sh' start %d", state, NVT_SOURCE_DIR,
             count);
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) {
        return;
    }
    char line[256];
    while (fgets(line, sizeof(line), pipe) != NULL) {
        char name[64];
        char value[64];
        if (sscanf(line, "export %63[^=]=%63s", name, value) == 2) {
            setenv(name, value, 1);
        }
    }
    pclose(pipe);
}

/* A complete settings file (every key), as the monitor's S key writes one. */
static const char settings_text[] =
    "# nvitop settings\n[monitor]\nmode = full\ntheme = dark\ncolors = plain\n"
    "interval = default\ngpu-util-thresh = 10 75\nmem-util-thresh = 10 80\nsort = natural\n"
    "sort-order = default\n\n[layout]\nhost-panel = show\nprocess-panel = show\n"
    "bandwidth = show\ngraph-upper = memory\ngraph-lower = gpu-util\ngraph-height = 5\n";

/* Write the user and system settings files under state and point nvitop at them. */
static int write_settings(const char *state) {
    char path[512];
    snprintf(path, sizeof(path), "%s/config", state);
    setenv("XDG_CONFIG_HOME", path, 1);
    mkdir(path, 0700);
    snprintf(path, sizeof(path), "%s/config/nvitop", state);
    mkdir(path, 0700);
    const char *files[] = {"config/nvitop/nvitop.conf", "system.conf"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", state, files[i]);
        FILE *f = fopen(path, "w");
        if (f == NULL || fputs(settings_text, f) < 0 || fclose(f) != 0) {
            return -1;
        }
    }
    snprintf(path, sizeof(path), "%s/system.conf", state);
    setenv("NVITOP_SYSTEM_CONFIG", path, 1);
    return 0;
}

/* The in-process cost of what nvitop does with the files: load the system and the user file
 * (open, read, parse), in microseconds per run, averaged over many runs. */
static double settings_load_us(void) {
    enum {
        LOADS = 2000
    };
    char *user = tui_settings_user_path();
    double start = clock_monotonic_s() * 1e3;
    for (int i = 0; i < LOADS; i++) {
        struct tui_settings settings;
        tui_settings_defaults(&settings);
        tui_settings_load(&settings, tui_settings_system_path(), true, NULL, NULL);
        if (user != NULL) {
            tui_settings_load(&settings, user, true, NULL, NULL);
        }
    }
    double elapsed = clock_monotonic_s() * 1e3 - start;
    free(user);
    return elapsed * 1000.0 / LOADS;
}

static void remove_settings(const char *state) {
    const char *files[] = {"config/nvitop/nvitop.conf", "system.conf", "config/nvitop", "config"};
    char path[512];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/%s", state, files[i]);
        remove(path);
    }
}

static void stop_standins(const char *state) {
    char command[1024];
    snprintf(command, sizeof(command),
             "NVT_STANDIN_STATE='%s' sh '%s/scripts/standins.sh' stop >/dev/null 2>&1", state,
             NVT_SOURCE_DIR);
    if (system(command) != 0) {
        fputs("bench-once: stopping the stand-ins failed\n", stderr);
    }
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 30;
    if (runs < 1 || runs > 10000) {
        fputs("usage: bench-once [RUNS]\n", stderr);
        return 2;
    }
    char state[] = "/tmp/nvt-bench-once.XXXXXX";
    if (mkdtemp(state) == NULL) {
        perror("bench-once: mkdtemp");
        return 1;
    }
    setenv("LD_LIBRARY_PATH", NVT_SIM_LIBRARY_DIR, 1);
    const char *count_text = getenv("NVT_BENCH_PROCESSES");
    int processes = count_text != NULL ? atoi(count_text) : 20;
    const char *name = processes == 1000   ? "h100-8gpu-1000.json"
                       : processes == 4000 ? "h100-16gpu-4000.json"
                                           : "h100-8gpu.json";
    processes = processes == 1000 || processes == 4000 ? processes : 20;
    char scenario[1024];
    snprintf(scenario, sizeof(scenario), "%s/%s", NVT_BENCH_SCENARIO_DIR, name);
    char idle_scenario[1024];
    snprintf(idle_scenario, sizeof(idle_scenario), "%s/%s", NVT_BENCH_SCENARIO_DIR,
             processes == 4000 ? "h100-16gpu-idle.json" : "h100-8gpu-idle.json");
    setenv("NVML_SIM_SCENARIO", scenario, 1);
    setenv("COLUMNS", "120", 1);
    start_standins(state, processes);
    if (write_settings(state) != 0) {
        perror("bench-once: writing the settings files");
        stop_standins(state);
        return 1;
    }

    char nvitop[] = NVT_BIN_DIR "/nvitop";
    char floor[] = NVT_BENCH_DIR "/bench-once-floor";
    char once[] = "-1";
    char *nvitop_argv[] = {nvitop, once, NULL};
    char *floor_argv[] = {floor, NULL};
    char no_config[] = "--no-config";
    char *bare_argv[] = {nvitop, once, no_config, NULL};
    /* nvitop with the files, the floor, nvitop without reading any file; then the CPU times of
     * the first two, and those of the two on the scenario with no process. */
    double *times = calloc((size_t)runs * 7, sizeof(double));
    long rss[2] = {0, 0};
    int failures = 0;
    for (int i = 0; i < runs && times != NULL; i++) {
        struct sample s;
        failures += run_once(nvitop_argv, &s) != 0;
        times[i] = s.wall_ms;
        times[3 * runs + i] = s.cpu_ms;
        rss[0] = s.max_rss_kib > rss[0] ? s.max_rss_kib : rss[0];
        failures += run_once(floor_argv, &s) != 0;
        times[runs + i] = s.wall_ms;
        times[4 * runs + i] = s.cpu_ms;
        rss[1] = s.max_rss_kib > rss[1] ? s.max_rss_kib : rss[1];
        failures += run_once(bare_argv, &s) != 0;
        times[2 * runs + i] = s.wall_ms;
        setenv("NVML_SIM_SCENARIO", idle_scenario, 1);
        failures += run_once(nvitop_argv, &s) != 0;
        times[5 * runs + i] = s.cpu_ms;
        failures += run_once(floor_argv, &s) != 0;
        times[6 * runs + i] = s.cpu_ms;
        setenv("NVML_SIM_SCENARIO", scenario, 1);
    }
    double load_us = settings_load_us();
    remove_settings(state);
    stop_standins(state);
    rmdir(state);
    if (times == NULL || failures > 0) {
        fprintf(stderr, "bench-once: %d run(s) failed\n", failures);
        free(times);
        return 1;
    }
    double t_nvitop = median(times, runs);
    double t_floor = median(times + runs, runs);
    printf("bench-once: nvitop -1 on %s, %d processes, %d runs each\n", name, processes, runs);
    printf("  wall time (median)  nvitop %8.2f ms   floor %8.2f ms   ratio %.2f  (target <= %s)\n",
           t_nvitop, t_floor, t_nvitop / t_floor, processes > 20 ? "1.1" : "2");
    printf("  per process         nvitop %8.1f us   floor %8.1f us\n", t_nvitop * 1e3 / processes,
           t_floor * 1e3 / processes);
    double c_nvitop = median(times + 3 * runs, runs);
    double c_floor = median(times + 4 * runs, runs);
    printf("  CPU time (median)   nvitop %8.2f ms   floor %8.2f ms   ratio %.2f  (user and system; "
           "less moved by other load)\n",
           c_nvitop, c_floor, c_nvitop / c_floor);
    double i_nvitop = median(times + 5 * runs, runs);
    double i_floor = median(times + 6 * runs, runs);
    printf("  fixed cost (CPU)    nvitop %8.2f ms   floor %8.2f ms   (the same GPUs, no process)\n",
           i_nvitop, i_floor);
    printf("  above it            nvitop %8.2f us   floor %8.2f us   a process (CPU time over the "
           "fixed cost / %d)\n",
           (c_nvitop - i_nvitop) * 1e3 / processes, (c_floor - i_floor) * 1e3 / processes,
           processes);
    printf(
        "  peak RSS            nvitop %8.2f MiB  floor %8.2f MiB  ratio %.2f  (target <= 6 MiB)\n",
        rss[0] / 1024.0, rss[1] / 1024.0, (double)rss[0] / (double)rss[1]);
    double t_bare = median(times + 2 * runs, runs);
    printf("  settings files      with %8.2f ms   --no-config %8.2f ms   cost %+.3f ms  "
           "(target <= 0.2 ms; noise is larger than the cost)\n",
           t_nvitop, t_bare, t_nvitop - t_bare);
    printf("  settings files      reading both in-process: %.1f us per run  (target <= 200 us)\n",
           load_us);
    free(times);
    return 0;
}
