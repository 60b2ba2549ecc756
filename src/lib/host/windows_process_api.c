/*
 * The Windows side of the public process API (include/nvitop/process.h) that goes beyond one
 * process read: the environment block, signals, the parent map.  Every call that acts on a pid
 * first opens a handle to it and, when a creation time is known, compares it: a handle keeps the
 * process object alive, so a pid cannot be reused while it is open (the PID-reuse guard the Linux
 * back-end gets from pidfds).
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <tlhelp32.h>

#include <nvitop/process.h>

#include "internal.h"
#include "windows_internal.h"

/* Two create times denote the same process when they differ by less than this. */
#define IDENTITY_TOLERANCE_S 0.01

static nvt_status status_of_error(DWORD error) {
    switch (error) {
    case ERROR_ACCESS_DENIED:
        return NVT_ERR_NO_PERMISSION;
    case ERROR_INVALID_PARAMETER:
        return NVT_ERR_NO_SUCH_PROCESS; /* what OpenProcess says of a pid that does not exist */
    case ERROR_NOT_ENOUGH_MEMORY:
        return NVT_ERR_NO_MEMORY;
    default:
        return NVT_ERR_IO;
    }
}

static double creation_time(HANDLE process) {
    FILETIME created;
    FILETIME exited;
    FILETIME kernel;
    FILETIME user;
    return GetProcessTimes(process, &created, &exited, &kernel, &user) ? win_filetime_epoch(created)
                                                                       : NAN;
}

/* A handle to pid with access, or NULL with *status set; when create_time is a number, the
 * process must have been created then (else NVT_ERR_NO_SUCH_PROCESS: the pid was reused). */
static HANDLE open_same_process(uint32_t pid, DWORD access, double create_time,
                                nvt_status *status) {
    HANDLE process = OpenProcess(access | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (process == NULL) {
        *status = status_of_error(GetLastError());
        return NULL;
    }
    DWORD exit_code = 0;
    double seen = creation_time(process);
    if ((GetExitCodeProcess(process, &exit_code) && exit_code != STILL_ACTIVE) ||
        (!isnan(create_time) &&
         (isnan(seen) || fabs(seen - create_time) >= IDENTITY_TOLERANCE_S))) {
        CloseHandle(process);
        *status = NVT_ERR_NO_SUCH_PROCESS;
        return NULL;
    }
    *status = NVT_OK;
    return process;
}

nvt_status nvt_host_process_environ(nvt_context *ctx, uint32_t pid, char ***out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL || pid == 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    nvt_status st = NVT_OK;
    HANDLE process = open_same_process(pid, PROCESS_VM_READ, NAN, &st);
    if (process == NULL) {
        return st;
    }
    wchar_t *block = NULL;
    size_t bytes = 0;
    DWORD err = win_read_peb(process, WIN_PEB_ENVIRONMENT, &block, &bytes);
    CloseHandle(process);
    if (err != 0) {
        return err == ERROR_NOT_ENOUGH_MEMORY ? NVT_ERR_NO_MEMORY : NVT_ERR_NO_PERMISSION;
    }
    /* "NAME=value" entries up to the first empty one; Windows' hidden "=C:=C:\..." entries
     * (no name before the '=') are skipped, as psutil does. */
    size_t chars = bytes / sizeof(wchar_t);
    size_t n = 0;
    size_t total = 0;
    char **utf8 = NULL;
    for (size_t pos = 0; pos < chars && block[pos] != L'\0';) {
        size_t len = wcsnlen(block + pos, chars - pos);
        if (block[pos] != L'=') {
            char **grown = realloc(utf8, (n + 1) * sizeof(*grown));
            char *entry = grown != NULL ? win_utf8(block + pos, (int)len) : NULL;
            if (grown != NULL) {
                utf8 = grown;
            }
            if (entry == NULL) {
                st = NVT_ERR_NO_MEMORY;
                break;
            }
            utf8[n++] = entry;
            total += strlen(entry) + 1;
        }
        pos += len + 1;
    }
    free(block);
    char **result = st == NVT_OK ? malloc((n + 1) * sizeof(char *) + total) : NULL;
    if (st == NVT_OK && result == NULL) {
        st = NVT_ERR_NO_MEMORY;
    }
    if (result != NULL) {
        char *cursor = (char *)(result + n + 1);
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(utf8[i]) + 1;
            memcpy(cursor, utf8[i], len);
            result[i] = cursor;
            cursor += len;
        }
        result[n] = NULL;
        *out = result;
        *count = n;
    }
    for (size_t i = 0; i < n; i++) {
        free(utf8[i]);
    }
    free(utf8);
    return st;
}

nvt_status nvt_host_process_cwd(nvt_context *ctx, uint32_t pid, char *buf, size_t size) {
    (void)ctx;
    (void)pid;
    if (buf != NULL && size > 0) {
        buf[0] = '\0';
    }
    return NVT_ERR_NOT_SUPPORTED;
}

/*
 * Signals as nvitop sends them on Windows (through psutil and Python's os.kill): SIGINT becomes
 * CTRL_C_EVENT and SIGBREAK CTRL_BREAK_EVENT, generated for the process group pid, which reaches a
 * process only when it shares our console and leads its group; anything else (SIGTERM, SIGKILL)
 * terminates the process with TerminateProcess, exit code 15 as psutil uses.
 */
nvt_status nvt_process_signal(nvt_context *ctx, uint32_t pid, double create_time,
                              int signal_number) {
    if (ctx == NULL || pid == 0 || pid > INT32_MAX || isnan(create_time)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    bool console_event = signal_number == SIGINT || signal_number == SIGBREAK;
    nvt_status st = NVT_OK;
    HANDLE process =
        open_same_process(pid, console_event ? SYNCHRONIZE : PROCESS_TERMINATE, create_time, &st);
    if (process == NULL) {
        return st;
    }
    BOOL ok;
    if (console_event) {
        /* The handle stays open across the call, so pid still names the process checked. */
        ok = GenerateConsoleCtrlEvent(signal_number == SIGINT ? CTRL_C_EVENT : CTRL_BREAK_EVENT,
                                      pid);
    } else {
        ok = TerminateProcess(process, 15);
    }
    DWORD err = ok ? 0 : GetLastError();
    CloseHandle(process);
    return ok ? NVT_OK : status_of_error(err);
}

nvt_status nvt_host_ppid_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids, size_t *count) {
    if (ctx == NULL || pids == NULL || ppids == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *pids = NULL;
    *ppids = NULL;
    *count = 0;
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE) {
        return NVT_ERR_IO;
    }
    size_t n = 0;
    size_t capacity = 256;
    uint32_t *pairs = malloc(capacity * 2 * sizeof(uint32_t));
    nvt_status st = pairs != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
    PROCESSENTRY32W entry = {.dwSize = sizeof(entry)};
    for (BOOL more = st == NVT_OK && Process32FirstW(snapshot, &entry); more;
         more = Process32NextW(snapshot, &entry)) {
        if (entry.th32ProcessID == 0) {
            continue; /* the idle process, which psutil lists but nothing descends from */
        }
        if (n == capacity) {
            uint32_t *grown = realloc(pairs, capacity * 4 * sizeof(uint32_t));
            if (grown == NULL) {
                st = NVT_ERR_NO_MEMORY;
                break;
            }
            pairs = grown;
            capacity *= 2;
        }
        pairs[2 * n] = entry.th32ProcessID;
        pairs[2 * n + 1] = entry.th32ParentProcessID;
        n++;
    }
    CloseHandle(snapshot);
    uint32_t *block = st == NVT_OK ? malloc((n > 0 ? n : 1) * 2 * sizeof(uint32_t)) : NULL;
    if (st == NVT_OK && block == NULL) {
        st = NVT_ERR_NO_MEMORY;
    }
    if (block != NULL) {
        for (size_t i = 0; i < n; i++) {
            block[i] = pairs[2 * i];
            block[n + i] = pairs[2 * i + 1];
        }
        *pids = block;
        *ppids = block + n;
        *count = n;
    }
    free(pairs);
    return st;
}
