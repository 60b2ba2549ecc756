#include "bench_util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int bench_duration_interval(int argc, char **argv, double *duration, double *interval) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s DURATION INTERVAL\n", argv[0]);
        return 2;
    }
    *duration = strtod(argv[1], NULL);
    *interval = strtod(argv[2], NULL);
    if (!(*duration > 0.0) || !(*interval > 0.0)) {
        fprintf(stderr, "%s: DURATION and INTERVAL must be positive numbers\n", argv[0]);
        return 2;
    }
    return 0;
}

double bench_cpu_s(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

double bench_process_cpu_s(void) {
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bench_sleep_until(double deadline) {
    if (!(deadline > 0.0)) {
        return;
    }
    struct timespec ts = {(time_t)deadline, (long)((deadline - (double)(time_t)deadline) * 1e9)};
    /* Absolute, so a resumed sleep still ends on time; only a signal makes it return early. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

long bench_rss_kib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) {
        return 0;
    }
    char line[256];
    long kib = 0;
    while (fgets(line, sizeof(line), status) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(status);
    return kib;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, size_t count) {
    qsort(values, count, sizeof(*values), compare_double);
    return values[count / 2];
}

size_t bench_start_standins(pid_t *pids, size_t max) {
    if (getenv("NVT_STANDIN_1") != NULL) {
        return 0;
    }
    size_t count = 0;
    for (size_t i = 0; i < max; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;) {
                pause();
            }
        }
        if (pid < 0) {
            break;
        }
        pids[count++] = pid;
        char name[48]; /* "NVT_STANDIN_" and any size_t */
        char value[32];
        snprintf(name, sizeof(name), "NVT_STANDIN_%zu", i + 1);
        snprintf(value, sizeof(value), "%d", (int)pid);
        setenv(name, value, 1);
    }
    return count;
}

void bench_stop_standins(const pid_t *pids, size_t count) {
    for (size_t i = 0; i < count; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
}

void bench_default_scenario(const char *name) {
    if (getenv("NVML_SIM_SCENARIO") == NULL) {
        const char *dir = getenv("NVT_SCENARIO_DIR");
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir != NULL ? dir : "sim/scenarios", name);
        setenv("NVML_SIM_SCENARIO", path, 1);
    }
}
