/*
 * The context the benchmark programs that link the shared libnvitop open (bench_nvt; the benches
 * built on nvitop_static open theirs themselves).
 */
#ifndef NVITOP_BENCH_COMMON_BENCH_NVT_H
#define NVITOP_BENCH_COMMON_BENCH_NVT_H

#include <stddef.h>
#include <sys/types.h>

#include <nvitop/nvitop.h>

/* nvt_open(NULL, ...): the context, owned by the caller (nvt_close), or NULL after printing
 * "PROGRAM: <reason>" to stderr.  Thread-safe as nvt_open is. */
nvt_context *bench_open(const char *program);

/* The machine of the benches that take live snapshots of jobs: up to MAX stand-in jobs forked
 * (bench_start_standins: their pids in PIDS, their count in *STANDINS), SCENARIO unless the
 * environment names one (bench_default_scenario), and the context (bench_open, owned by the
 * caller).  Returns NULL after the message, the stand-ins stopped.  Main thread only. */
nvt_context *bench_open_machine(const char *program, const char *scenario, pid_t *pids, size_t max,
                                size_t *standins);

/* The floor programs' start: reads "DURATION INTERVAL" (bench_duration_interval) and opens the
 * context (bench_open, into *CTX, owned by the caller).  Returns 0, or the exit status to give
 * after a message on stderr. */
int bench_floor_start(int argc, char **argv, double *duration, double *interval, nvt_context **ctx);

/* The floor programs' loop: takes a snapshot of CTX with the flags FLAGS_AT(now, ARG) gives (now
 * from clock_monotonic_s) every PERIOD seconds for DURATION seconds, then prints the one line
 * "cpu_s=<user+system seconds> rss_kib=<VmRSS> snapshots=<count>", the CPU time counted from the
 * first snapshot on (steady state, as the programs the floors stand for are measured), or, where
 * the environment's NVT_BENCH_WARMUP_S gives a number of seconds below DURATION, from the first
 * snapshot taken after them (past the library's first readings of each process's identity,
 * which come 5 to 15 s after it is met). */
void bench_floor_loop(nvt_context *ctx, double duration, double period,
                      unsigned (*flags_at)(double now, void *arg), void *arg);

#endif /* NVITOP_BENCH_COMMON_BENCH_NVT_H */
