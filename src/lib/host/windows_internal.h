/*
 * What the Windows host back-end's files share (windows_host.c, windows_process.c,
 * windows_process_api.c; docs/windows.md says what each reads and why).  Nothing outside
 * src/lib/host/ includes this.
 */
#ifndef NVITOP_SRC_LIB_HOST_WINDOWS_INTERNAL_H
#define NVITOP_SRC_LIB_HOST_WINDOWS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <windows.h>

#include "host.h"

/* The previous CPU reading of one process, for its CPU percentage (two-generation ageing). */
struct win_cpu_entry {
    uint32_t pid;
    double create_time;
    double cpu_s;  /* kernel + user time */
    double wall_s; /* when it was read (monotonic) */
    unsigned generation;
};

struct host_ctx {
    /* system-wide and per-CPU busy and total times of the previous sample (100 ns units) */
    uint64_t cpu_busy;
    uint64_t cpu_total;
    uint64_t *per_cpu_busy;
    uint64_t *per_cpu_total;
    uint32_t cpu_count;
    uint64_t memory_total;
    /* The DNS host name, read at the first sample: Windows applies a new name at the next
     * restart, and under wine each read is three registry round trips to wineserver. */
    char hostname[NVT_NAME_LEN];
    bool hostname_read;
    bool command_only; /* processes keep no argument list (host_set_command_only()) */
    struct win_cpu_entry *procs;
    size_t proc_count;
    size_t proc_capacity;
    unsigned generation;
};

/* Seconds since the epoch of a FILETIME (100 ns ticks since 1601). */
double win_filetime_epoch(FILETIME ft);

/* Seconds of a FILETIME duration. */
double win_filetime_seconds(FILETIME ft);

/* UTF-16 to a malloc'ed UTF-8 string (len -1: NUL-terminated); NULL without memory or on bad
 * input. */
char *win_utf8(const wchar_t *text, int len);

/* The process's PEB fields (x64 layout): its command line and environment block, read with
 * ReadProcessMemory.  *out is malloc'ed UTF-16 (bytes in *size).  0 or a Win32 error code. */
enum win_peb_field {
    WIN_PEB_COMMAND_LINE,
    WIN_PEB_ENVIRONMENT
};
DWORD win_read_peb(HANDLE process, enum win_peb_field field, wchar_t **out, size_t *size);

/* The parent pid from NtQueryInformationProcess(ProcessBasicInformation); NVT_NA_U32. */
uint32_t win_parent_pid(HANDLE process);

#endif /* NVITOP_SRC_LIB_HOST_WINDOWS_INTERNAL_H */
