/*
 * The internal host back-end: everything libnvitop reads from the proc file system, relative to a
 * configurable root so tests can use fixture trees.  Implemented for Linux in linux_*.c; other
 * systems get unsupported.c.  Only src/lib/ includes this header.
 *
 * Thread-safety: a host_ctx belongs to one context and, like it, is used by one thread at a time;
 * distinct host_ctx objects are independent.  Nothing here prints, exits or aborts.
 */
#ifndef NVITOP_SRC_LIB_HOST_HOST_H
#define NVITOP_SRC_LIB_HOST_HOST_H

#include <nvitop/common.h>
#include <nvitop/host.h>
#include <nvitop/process.h>
#include <nvitop/status.h>

/* Opaque host state: proc root, previous CPU counters (system-wide, per CPU, per process with a
 * two-generation pid cache), uid -> name cache, boot time, clock ticks, page size. */
struct host_ctx;

/* proc_root NULL means "/proc".  Fails with NVT_ERR_NO_MEMORY only (a missing /proc shows as N/A
 * values later). */
nvt_status host_open(const char *proc_root, struct host_ctx **out);
void host_close(struct host_ctx *host);

/* From now on, host processes read carry no argument list (cmdline NULL, cmdline_count 0), only
 * the command joined from it (nvt_options.command_only).  Set once, before the first reading. */
void host_set_command_only(struct host_ctx *host, bool command_only);

/* Set every field of *out to N/A (no CPUs, empty hostname).  Pure; thread-safe. */
void host_state_init_na(struct nvt_host_state *out);

/* Set every field of *out to N/A ("" strings, no command line) but pid and status.  Pure. */
void host_process_init_na(struct nvt_host_process *out, uint32_t pid, enum nvt_host_status status);

/* Number of CPUs the last host_sample() saw (0 before the first). */
uint32_t host_cpu_count(const struct host_ctx *host);

/*
 * Sample host metrics into *out.  per_cpu receives up to per_cpu_cap per-CPU percentages (the
 * caller points out->cpu_percent_per_cpu at it afterwards; out->cpu_count says how many were
 * written).  N/A fields stay N/A; never fails except for NVT_ERR_INVALID_ARGUMENT.  Percentages
 * are rounded to one decimal as psutil does.  The uptime comes from <proc root>/uptime (nvitop
 * computes now - boot time, which differs by under a second), the host name from
 * <proc root>/sys/kernel/hostname (the UTS node name; fixture trees can set it), else uname().
 */
nvt_status host_sample(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                       uint32_t per_cpu_cap);

/*
 * host_sample() into *out with a per-CPU array allocated here, big enough for CPUs brought online
 * since the last sample; out->cpu_percent_per_cpu points into *per_cpu, which the caller frees.
 * Unreadable host data leaves *out N/A.  NVT_OK or NVT_ERR_NO_MEMORY.
 */
nvt_status host_sample_owned(struct host_ctx *host, struct nvt_host_state *out, double **per_cpu);

/* The Linux back-end's reference-counted strings of one process identity (linux_internal.h). */
struct process_strings;

/* Host data of one process, holding its strings (unlike the public struct, which borrows) until
 * host_process_fini().  The pub string pointers point at the members below, or at "" when those
 * are NULL (N/A).  The members are owned, except where shared is set: then they point into that
 * block, which the Linux back-end keeps with the process's identity and shares between the reads
 * of one identity, and the process holds one reference to it. */
struct host_process {
    struct nvt_host_process pub; /* string pointers below are mirrored into pub */
    char *user;
    char *name;
    char *command;
    char **cmdline; /* cmdline_count + 1 pointers (NULL-terminated), in one allocation with the
                       strings they point to (or in shared); NULL when there are no arguments */
    struct process_strings *shared; /* NULL, or what the members point into (Linux only) */
    bool cpu_percent_first; /* first read of this process: pub.cpu_percent is 0.0 (no interval) */
};

/*
 * Read one process.  Always fills *out (status NVT_HOST_GONE / ZOMBIE / NO_PERMISSION /
 * NOT_IN_NAMESPACE with N/A fields when data is missing) and returns NVT_OK, or NVT_ERR_NO_MEMORY.
 * The CPU percentage is against the previous read of the same (pid, create time) in this host_ctx,
 * and 0.0 on the first read (as psutil's first cpu_percent(), which nvitop shows).  Call
 * host_generation_end() once per sampling pass to drop counters of processes not read in the last
 * two passes.
 */
nvt_status host_process_read(struct host_ctx *host, uint32_t pid, struct host_process *out);
void host_process_fini(struct host_process *process);

/*
 * The last reading of pid in this pass without reading /proc (nvt_snapshot_focus()): its
 * identity's strings and uids, its create and running time, its resident memory as last read;
 * cpu_percent, state, ppid and num_threads N/A.  The reading is kept for the next passes as if
 * read in this one, and the next host_process_read() measures the CPU percentage against it.
 * Returns false, with *out untouched, when there is no such reading (the caller reads the process
 * instead).  The back-ends other than Linux keep none.
 */
bool host_process_keep(struct host_ctx *host, uint32_t pid, struct host_process *out);
void host_generation_end(struct host_ctx *host);

/* Physical memory total (bytes) from the last host_sample() or a fresh read; NVT_NA_U64. */
uint64_t host_memory_total(struct host_ctx *host);

/* Host virtual memory for unified-memory GPUs, as nvitop 1.7 reports it for them (psutil's
 * virtual_memory()): total, free (MemFree) and used (total - free - buffers - cached) bytes, all
 * NVT_NA_U64 on error.  free + used is below total by the buffers and caches. */
void host_virtual_memory(struct host_ctx *host, uint64_t *total, uint64_t *free, uint64_t *used);

#endif /* NVITOP_SRC_LIB_HOST_HOST_H */
