/*
 * bench-once: wall time and peak resident memory of `nvitop -1` on the 8-GPU scenario with 20
 * stand-in processes, against a floor program measured in the same run (bench-once-floor: load
 * NVML, the same queries, print).  Prints the medians, the peaks and the ratios; never fails on
 * a time.  Targets: time ratio <= 2, peak RSS <= 6 MiB (nvitop 1.7: ~150 ms, 27 MiB).
 *
 *   bench-once [RUNS]          default 30 runs of each program, interleaved
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct sample {
    double wall_ms;
    long max_rss_kib;
};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Run argv with stdout on /dev/null; returns 0 and fills *out, or -1. */
static int run_once(char *const argv[], struct sample *out) {
    double start = now_ms();
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
    out->wall_ms = now_ms() - start;
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
static void start_standins(const char *state) {
    char command[1024];
    snprintf(command, sizeof(command),
             "NVT_STANDIN_STATE='%s' sh '%s/scripts/standins.sh' start 20", state, NVT_SOURCE_DIR);
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
    setenv("NVML_SIM_SCENARIO", NVT_BENCH_SCENARIO, 1);
    setenv("COLUMNS", "120", 1);
    start_standins(state);

    char nvitop[] = NVT_BIN_DIR "/nvitop";
    char floor[] = NVT_BENCH_DIR "/bench-once-floor";
    char once[] = "-1";
    char *nvitop_argv[] = {nvitop, once, NULL};
    char *floor_argv[] = {floor, NULL};
    double *times = calloc((size_t)runs * 2, sizeof(double));
    long rss[2] = {0, 0};
    int failures = 0;
    for (int i = 0; i < runs && times != NULL; i++) {
        struct sample s;
        failures += run_once(nvitop_argv, &s) != 0;
        times[i] = s.wall_ms;
        rss[0] = s.max_rss_kib > rss[0] ? s.max_rss_kib : rss[0];
        failures += run_once(floor_argv, &s) != 0;
        times[runs + i] = s.wall_ms;
        rss[1] = s.max_rss_kib > rss[1] ? s.max_rss_kib : rss[1];
    }
    stop_standins(state);
    rmdir(state);
    if (times == NULL || failures > 0) {
        fprintf(stderr, "bench-once: %d run(s) failed\n", failures);
        free(times);
        return 1;
    }
    double t_nvitop = median(times, runs);
    double t_floor = median(times + runs, runs);
    printf("bench-once: nvitop -1 on h100-8gpu.json, 20 processes, %d runs each\n", runs);
    printf("  wall time (median)  nvitop %8.2f ms   floor %8.2f ms   ratio %.2f  (target <= 2)\n",
           t_nvitop, t_floor, t_nvitop / t_floor);
    printf(
        "  peak RSS            nvitop %8.2f MiB  floor %8.2f MiB  ratio %.2f  (target <= 6 MiB)\n",
        rss[0] / 1024.0, rss[1] / 1024.0, (double)rss[0] / (double)rss[1]);
    free(times);
    return 0;
}
