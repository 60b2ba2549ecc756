/*
 * Parsers for the text of proc files, separate from the reading so that tests and the fuzzer can
 * feed them any bytes.  They never allocate; text must be NUL-terminated.  Every parser accepts
 * garbage: what it cannot parse is reported as missing, never guessed.  Pure and thread-safe.
 */
#ifndef NVITOP_SRC_LIB_HOST_PROC_PARSE_H
#define NVITOP_SRC_LIB_HOST_PROC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU time counters of one "cpu" line of /proc/stat, in clock ticks. */
struct proc_cpu_times {
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
};

/* What /proc/stat tells. */
struct proc_stat {
    bool has_total;
    struct proc_cpu_times total;
    uint32_t cpu_count; /* "cpuN" lines seen, also those beyond the caller's array */
    bool has_boot_time;
    uint64_t boot_time; /* btime, seconds since the epoch */
};

/* Parse /proc/stat.  per_cpu receives up to per_cpu_cap per-CPU lines in file order. */
void proc_parse_stat(const char *text, struct proc_stat *out, struct proc_cpu_times *per_cpu,
                     uint32_t per_cpu_cap);

/* psutil's busy and total times of a CPU line (guest time is already in user and nice). */
double proc_cpu_total(const struct proc_cpu_times *t);
double proc_cpu_busy(const struct proc_cpu_times *t);

/* Fields of /proc/meminfo, in bytes; NVT_NA_U64 (UINT64_MAX) when absent or out of range. */
struct proc_meminfo {
    uint64_t mem_total, mem_free, mem_available, buffers, cached, sreclaimable;
    uint64_t active_file, inactive_file, swap_total, swap_free;
};

void proc_parse_meminfo(const char *text, struct proc_meminfo *out);

/* Sum of the "low" watermarks in /proc/zoneinfo, in pages; false when there are none. */
bool proc_parse_zoneinfo_low(const char *text, uint64_t *pages);

/* /proc/loadavg: the three averages; false when malformed. */
bool proc_parse_loadavg(const char *text, double load[3]);

/* /proc/uptime: seconds since boot (first field); false when malformed. */
bool proc_parse_uptime(const char *text, double *uptime_s);

/* What /proc/<pid>/stat tells. */
struct proc_pid_stat {
    char comm[64];
    char state;
    uint32_t ppid;
    uint64_t flags;
    uint64_t utime_ticks;
    uint64_t stime_ticks;
    uint64_t num_threads;
    uint64_t start_ticks; /* since boot */
    uint64_t rss_pages;
};

/* Parse /proc/<pid>/stat.  The command name may hold spaces and parentheses: it runs from the
 * first '(' to the LAST ')'.  Returns false (out unspecified) when malformed. */
bool proc_parse_pid_stat(const char *text, struct proc_pid_stat *out);

/* Parse /proc/<pid>/statm's resident set (its second field, in pages), the figure psutil's
 * memory_info().rss reads (stat's rss field is the kernel's cheaper, approximate count).  False
 * when malformed. */
bool proc_parse_pid_statm_resident(const char *text, uint64_t *resident_pages);

/* Parse /proc/<pid>/schedstat: the main thread's time on a CPU (nanoseconds) and how many times
 * it was put on one (its first and third fields).  False when malformed. */
bool proc_parse_pid_schedstat(const char *text, uint64_t *runtime_ns, uint64_t *slices);

/* What /proc/<pid>/status tells; a missing line leaves its has_ flag false. */
struct proc_pid_status {
    /* Name: the name stat's comm holds, as status writes it (whitespace and backslashes escaped
     * with a backslash), cut to fit. */
    bool has_name;
    char name[64];
    bool has_uid;
    uint32_t uid;           /* real */
    uint32_t uid_effective; /* valid with has_uid when the line has all its fields */
    uint32_t uid_saved;
    bool has_uid_all;
    bool has_threads;
    uint32_t threads;
    uint32_t nspid_count; /* entries on the NSpid line (PID namespaces the process is in) */
    /* VmRSS, the resident set in KiB: the same sum of the process's file, anonymous and shared
     * memory pages as statm's second field (psutil's memory_info().rss), which it is in pages.
     * Absent for a process without memory of its own (a kernel thread, a zombie). */
    bool has_rss;
    uint64_t rss_kib;
};

/* Parse /proc/<pid>/status; the scan stops once it has met every line it looks for. */
void proc_parse_pid_status(const char *text, struct proc_pid_status *out);

/*
 * The arguments in the bytes of /proc/<pid>/cmdline, split the way psutil does: NUL separators
 * when the data ends with a NUL, spaces otherwise (setproctitle), and a single NUL-terminated
 * argument holding spaces split at the spaces; then, as nvitop does, trailing empty arguments are
 * dropped.  proc_count_cmdline() returns how many there are.  proc_split_cmdline() also
 * terminates them in place (data must have len + 1 bytes, a NUL after the data) and stores up to
 * cap pointers into data in argv; it returns the same count.
 */
size_t proc_count_cmdline(const char *data, size_t len);
size_t proc_split_cmdline(char *data, size_t len, char **argv, size_t cap);

#endif /* NVITOP_SRC_LIB_HOST_PROC_PARSE_H */
