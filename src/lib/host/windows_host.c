/*
 * Host metrics on Windows (host.h): CPU times from GetSystemTimes and, per CPU,
 * NtQuerySystemInformation(SystemProcessorPerformanceInformation) as psutil reads them; memory
 * and page file from GlobalMemoryStatusEx; uptime from GetTickCount64; the DNS host name.
 * Windows has no load average: psutil emulates one with a thread that samples the processor queue
 * length, and its first answer, which nvitop's once report shows, is 0.00 0.00 0.00; that is
 * what this back-end reports every time (docs/windows.md).
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <winternl.h>

#include "windows_internal.h"

double win_filetime_epoch(FILETIME ft) {
    uint64_t ticks = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (double)ticks / 1e7 - 11644473600.0;
}

double win_filetime_seconds(FILETIME ft) {
    uint64_t ticks = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (double)ticks / 1e7;
}

static uint64_t ticks_of(FILETIME ft) {
    return ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
}

char *win_utf8(const wchar_t *text, int len) {
    int n = WideCharToMultiByte(CP_UTF8, 0, text, len, NULL, 0, NULL, NULL);
    if (n < 0 || (n == 0 && len != 0)) {
        return NULL;
    }
    char *out = malloc((size_t)n + 1);
    if (out == NULL) {
        return NULL;
    }
    if (n > 0 && WideCharToMultiByte(CP_UTF8, 0, text, len, out, n, NULL, NULL) != n) {
        free(out);
        return NULL;
    }
    out[n] = '\0';
    return out;
}

nvt_status host_open(const char *proc_root, struct host_ctx **out) {
    (void)proc_root;
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = calloc(1, sizeof(**out));
    return *out != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
}

void host_set_command_only(struct host_ctx *host, bool command_only) {
    if (host != NULL) {
        host->command_only = command_only;
    }
}

void host_close(struct host_ctx *host) {
    if (host != NULL) {
        free(host->per_cpu_busy);
        free(host->per_cpu_total);
        free(host->procs);
        free(host);
    }
}

uint32_t host_cpu_count(const struct host_ctx *host) {
    return host->cpu_count;
}

static double busy_percent(uint64_t busy_before, uint64_t total_before, uint64_t busy,
                           uint64_t total) {
    if (total <= total_before || busy < busy_before) {
        return 0.0;
    }
    double pct = (double)(busy - busy_before) * 100.0 / (double)(total - total_before);
    pct = pct < 0.0 ? 0.0 : pct > 100.0 ? 100.0 : pct;
    return round(pct * 10.0) / 10.0;
}

/* The per-CPU times: busy (kernel + user - idle; kernel time includes idle) and total. */
struct win_cpu_times {
    LARGE_INTEGER idle;
    LARGE_INTEGER kernel;
    LARGE_INTEGER user;
    LARGE_INTEGER dpc;
    LARGE_INTEGER interrupt;
    ULONG interrupt_count;
};

typedef LONG(NTAPI *nt_query_system_information_fn)(ULONG, PVOID, ULONG, PULONG);

static void sample_per_cpu(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                           uint32_t per_cpu_cap) {
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    uint32_t count = info.dwNumberOfProcessors;
    if (count == 0 || count > 4096) {
        return;
    }
    nt_query_system_information_fn query = NULL;
    FARPROC proc = GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQuerySystemInformation");
    memcpy(&query, &proc, sizeof(query));
    struct win_cpu_times *times = calloc(count, sizeof(*times));
    if (query == NULL || times == NULL) {
        free(times);
        return;
    }
    ULONG got = 0;
    /* 8 = SystemProcessorPerformanceInformation */
    LONG status = query(8, times, (ULONG)(count * sizeof(*times)), &got);
    uint32_t n = status >= 0 ? (uint32_t)(got / sizeof(*times)) : 0;
    if (n != host->cpu_count) {
        uint64_t *busy = realloc(host->per_cpu_busy, (n > 0 ? n : 1) * sizeof(*busy));
        if (busy != NULL) {
            host->per_cpu_busy = busy;
        }
        uint64_t *total = realloc(host->per_cpu_total, (n > 0 ? n : 1) * sizeof(*total));
        if (total != NULL) {
            host->per_cpu_total = total;
        }
        if (busy == NULL || total == NULL) {
            free(times);
            return;
        }
        memset(host->per_cpu_busy, 0, n * sizeof(uint64_t));
        memset(host->per_cpu_total, 0, n * sizeof(uint64_t));
        host->cpu_count = n;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t total = (uint64_t)times[i].kernel.QuadPart + (uint64_t)times[i].user.QuadPart;
        uint64_t busy = total - (uint64_t)times[i].idle.QuadPart;
        if (i < per_cpu_cap) {
            per_cpu[i] = busy_percent(host->per_cpu_busy[i], host->per_cpu_total[i], busy, total);
        }
        host->per_cpu_busy[i] = busy;
        host->per_cpu_total[i] = total;
    }
    out->cpu_count = n < per_cpu_cap ? n : per_cpu_cap;
    free(times);
}

static void sample_cpu(struct host_ctx *host, struct nvt_host_state *out) {
    FILETIME idle;
    FILETIME kernel;
    FILETIME user;
    if (!GetSystemTimes(&idle, &kernel, &user)) {
        return;
    }
    uint64_t total = ticks_of(kernel) + ticks_of(user);
    uint64_t busy = total - ticks_of(idle);
    out->cpu_percent = busy_percent(host->cpu_busy, host->cpu_total, busy, total);
    host->cpu_busy = busy;
    host->cpu_total = total;
}

static void sample_memory(struct host_ctx *host, struct nvt_host_state *out) {
    MEMORYSTATUSEX mem = {.dwLength = sizeof(mem)};
    if (!GlobalMemoryStatusEx(&mem)) {
        return;
    }
    /* psutil on Windows: free is what is available, used the rest. */
    out->memory_total_bytes = mem.ullTotalPhys;
    out->memory_available_bytes = mem.ullAvailPhys;
    out->memory_free_bytes = mem.ullAvailPhys;
    out->memory_used_bytes = mem.ullTotalPhys - mem.ullAvailPhys;
    out->memory_percent = mem.ullTotalPhys > 0
                              ? round((double)(mem.ullTotalPhys - mem.ullAvailPhys) * 1000.0 /
                                      (double)mem.ullTotalPhys) /
                                    10.0
                              : NAN;
    host->memory_total = mem.ullTotalPhys;
    /* The commit limit counts physical memory too: the page file is what lies beyond it. */
    if (mem.ullTotalPageFile >= mem.ullTotalPhys) {
        uint64_t total = mem.ullTotalPageFile - mem.ullTotalPhys;
        uint64_t free_bytes =
            mem.ullAvailPageFile > mem.ullAvailPhys ? mem.ullAvailPageFile - mem.ullAvailPhys : 0;
        free_bytes = free_bytes < total ? free_bytes : total;
        out->swap_total_bytes = total;
        out->swap_free_bytes = free_bytes;
        out->swap_used_bytes = total - free_bytes;
        out->swap_percent =
            total > 0 ? round((double)(total - free_bytes) * 1000.0 / (double)total) / 10.0 : 0.0;
    }
}

nvt_status host_sample(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                       uint32_t per_cpu_cap) {
    if (host == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    host_state_init_na(out);
    sample_cpu(host, out);
    sample_per_cpu(host, out, per_cpu, per_cpu_cap);
    sample_memory(host, out);
    out->load_1m = 0.0;
    out->load_5m = 0.0;
    out->load_15m = 0.0;
    out->uptime_s = (double)GetTickCount64() / 1000.0;
    FILETIME now;
    GetSystemTimeAsFileTime(&now);
    out->boot_time = win_filetime_epoch(now) - out->uptime_s;
    if (!host->hostname_read) {
        DWORD size = sizeof(host->hostname);
        if (!GetComputerNameExA(ComputerNameDnsHostname, host->hostname, &size)) {
            host->hostname[0] = '\0';
        }
        host->hostname_read = true;
    }
    memcpy(out->hostname, host->hostname, sizeof(out->hostname));
    return NVT_OK;
}

uint64_t host_memory_total(struct host_ctx *host) {
    if (host->memory_total == 0) {
        MEMORYSTATUSEX mem = {.dwLength = sizeof(mem)};
        if (!GlobalMemoryStatusEx(&mem)) {
            return NVT_NA_U64;
        }
        host->memory_total = mem.ullTotalPhys;
    }
    return host->memory_total;
}

void host_virtual_memory(struct host_ctx *host, uint64_t *total, uint64_t *free_bytes,
                         uint64_t *used) {
    (void)host;
    MEMORYSTATUSEX mem = {.dwLength = sizeof(mem)};
    if (!GlobalMemoryStatusEx(&mem)) {
        *total = NVT_NA_U64;
        *free_bytes = NVT_NA_U64;
        *used = NVT_NA_U64;
        return;
    }
    *total = mem.ullTotalPhys;
    *free_bytes = mem.ullAvailPhys;
    *used = mem.ullTotalPhys - mem.ullAvailPhys;
}
