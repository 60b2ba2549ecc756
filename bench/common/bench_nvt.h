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

#endif /* NVITOP_BENCH_COMMON_BENCH_NVT_H */
