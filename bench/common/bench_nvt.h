/*
 * The context the benchmark programs that link the shared libnvitop open (bench_nvt; the benches
 * built on nvitop_static open theirs themselves).
 */
#ifndef NVITOP_BENCH_COMMON_BENCH_NVT_H
#define NVITOP_BENCH_COMMON_BENCH_NVT_H

#include <nvitop/nvitop.h>

/* nvt_open(NULL, ...): the context, owned by the caller (nvt_close), or NULL after printing
 * "PROGRAM: <reason>" to stderr.  Thread-safe as nvt_open is. */
nvt_context *bench_open(const char *program);

/* The floor programs' start: reads "DURATION INTERVAL" (bench_duration_interval) and opens the
 * context (bench_open, into *CTX, owned by the caller).  Returns 0, or the exit status to give
 * after a message on stderr. */
int bench_floor_start(int argc, char **argv, double *duration, double *interval, nvt_context **ctx);

/* The floor programs' loop: takes a snapshot of CTX with the flags FLAGS_AT(now, ARG) gives (now
 * from clock_monotonic_s) every PERIOD seconds for DURATION seconds, then prints the one line
 * "cpu_s=<user+system seconds> rss_kib=<VmRSS> snapshots=<count>", the CPU time counted from the
 * first snapshot on (steady state, as the programs the floors stand for are measured). */
void bench_floor_loop(nvt_context *ctx, double duration, double period,
                      unsigned (*flags_at)(double now, void *arg), void *arg);

#endif /* NVITOP_BENCH_COMMON_BENCH_NVT_H */
