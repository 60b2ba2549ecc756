/*
 * Helpers the benchmark programs of bench/ share: CPU time, resident memory, absolute sleeps,
 * medians and idle stand-in processes.  Monotonic time comes from util/sys/clock.h
 * (clock_monotonic_s).  Not thread-safe where noted; the benches call them from main.
 */
#ifndef NVITOP_BENCH_COMMON_BENCH_UTIL_H
#define NVITOP_BENCH_COMMON_BENCH_UTIL_H

#include <stddef.h>
#include <sys/types.h>

/* Reads the arguments "DURATION INTERVAL" (seconds, both positive) of a floor program.  Returns 0,
 * or 2 after printing a usage line or a message to stderr (the exit status to give). */
int bench_duration_interval(int argc, char **argv, double *duration, double *interval);

/* User plus system CPU seconds of this process from getrusage(2) (microsecond resolution). */
double bench_cpu_s(void);

/* CPU seconds of the whole process from CLOCK_PROCESS_CPUTIME_ID (nanosecond resolution; counts
 * threads that have ended too). */
double bench_process_cpu_s(void);

/* Sleeps until the CLOCK_MONOTONIC time DEADLINE (seconds, as clock_monotonic_s gives it);
 * returns at once when it has passed.  An interrupted sleep is resumed. */
void bench_sleep_until(double deadline);

/* VmRSS of this process in KiB, 0 when unknown. */
long bench_rss_kib(void);

/* Sorts COUNT (> 0) values in place and returns the middle one (the upper middle when COUNT is
 * even). */
double bench_median(double *values, size_t count);

/* Unless NVT_STANDIN_1 is set (the caller started stand-ins, scripts/standins.sh), forks up to
 * MAX idle children, stores their pids in PIDS and names them in NVT_STANDIN_<i> for the
 * simulator's scenarios.  Returns how many were forked.  Changes the environment: not
 * thread-safe. */
size_t bench_start_standins(pid_t *pids, size_t max);

/* Unless NVML_SIM_SCENARIO is set, points it at the scenario file NAME (e.g. "h100-8gpu.json") in
 * $NVT_SCENARIO_DIR, or in sim/scenarios (run from the source tree) when that is unset.  Changes
 * the environment: not thread-safe. */
void bench_default_scenario(const char *name);

/* Kills and reaps the COUNT children bench_start_standins forked. */
void bench_stop_standins(const pid_t *pids, size_t count);

#endif /* NVITOP_BENCH_COMMON_BENCH_UTIL_H */
