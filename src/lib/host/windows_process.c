/*
 * One process on Windows (host.h's host_process_read): each field is read on its own, so that a
 * field Windows refuses (a protected process, another user's) is N/A while the others are shown.
 *   name          QueryFullProcessImageNameW (base name)
 *   command line  NtQueryInformationProcess(ProcessCommandLineInformation), else the PEB's
 *                 RTL_USER_PROCESS_PARAMETERS, split by the C runtime's rules
 *   user          the token's user as DOMAIN\user (LookupAccountSidW)
 *   CPU, created  GetProcessTimes; memory: GetProcessMemoryInfo's working set
 *   parent pid    NtQueryInformationProcess(ProcessBasicInformation)
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include <math.h>
#include <psapi.h>
#include <stdlib.h>
#include <string.h>
#include <winternl.h>

#include <nvitop/format.h>

#include "util/sys/clock.h"
#include "windows_internal.h"

typedef LONG(NTAPI *nt_query_information_process_fn)(HANDLE, ULONG, PVOID, ULONG, PULONG);

static nt_query_information_process_fn query_process(void) {
    nt_query_information_process_fn fn = NULL;
    FARPROC proc = GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQueryInformationProcess");
    memcpy(&fn, &proc, sizeof(fn));
    return fn;
}

uint32_t win_parent_pid(HANDLE process) {
    nt_query_information_process_fn query = query_process();
    PROCESS_BASIC_INFORMATION info;
    ULONG got = 0;
    if (query == NULL ||
        query(process, 0 /* ProcessBasicInformation */, &info, sizeof(info), &got) < 0) {
        return NVT_NA_U32;
    }
    return (uint32_t)info.InheritedFromUniqueProcessId;
}

/* x64 offsets: PEB.ProcessParameters, and in RTL_USER_PROCESS_PARAMETERS the command line
 * (UNICODE_STRING), the environment pointer and its size. */
enum {
    PEB_PROCESS_PARAMETERS = 0x20,
    PARAMS_COMMAND_LINE = 0x70,
    PARAMS_ENVIRONMENT = 0x80,
    PARAMS_ENVIRONMENT_SIZE = 0x3F0,
    ENVIRONMENT_CAP = 16 << 20
};

static bool read_remote(HANDLE process, uintptr_t address, void *buf, size_t size) {
    SIZE_T got = 0;
    return ReadProcessMemory(process, (LPCVOID)address, buf, size, &got) && got == size;
}

DWORD win_read_peb(HANDLE process, enum win_peb_field field, wchar_t **out, size_t *size) {
    *out = NULL;
    *size = 0;
    nt_query_information_process_fn query = query_process();
    PROCESS_BASIC_INFORMATION info;
    ULONG got = 0;
    if (query == NULL || query(process, 0, &info, sizeof(info), &got) < 0) {
        return ERROR_ACCESS_DENIED;
    }
    uintptr_t params = 0;
    if (!read_remote(process, (uintptr_t)info.PebBaseAddress + PEB_PROCESS_PARAMETERS, &params,
                     sizeof(params))) {
        return GetLastError() != 0 ? GetLastError() : ERROR_PARTIAL_COPY;
    }
    uintptr_t address = 0;
    size_t bytes = 0;
    if (field == WIN_PEB_COMMAND_LINE) {
        UNICODE_STRING line;
        if (!read_remote(process, params + PARAMS_COMMAND_LINE, &line, sizeof(line))) {
            return ERROR_PARTIAL_COPY;
        }
        address = (uintptr_t)line.Buffer;
        bytes = line.Length;
    } else {
        SIZE_T env_size = 0;
        if (!read_remote(process, params + PARAMS_ENVIRONMENT, &address, sizeof(address)) ||
            !read_remote(process, params + PARAMS_ENVIRONMENT_SIZE, &env_size, sizeof(env_size))) {
            return ERROR_PARTIAL_COPY;
        }
        bytes = env_size > ENVIRONMENT_CAP ? ENVIRONMENT_CAP : env_size;
    }
    wchar_t *text = calloc(bytes / sizeof(wchar_t) + 2, sizeof(wchar_t));
    if (text == NULL) {
        return ERROR_NOT_ENOUGH_MEMORY;
    }
    if (bytes > 0 && !read_remote(process, address, text, bytes)) {
        free(text);
        return ERROR_PARTIAL_COPY;
    }
    *out = text;
    *size = bytes;
    return 0;
}

/* The command line as one UTF-16 string: the information class first (Windows 8.1 and later; it
 * needs only PROCESS_QUERY_LIMITED_INFORMATION), the PEB where it is refused. */
static wchar_t *read_command_line(HANDLE process) {
    nt_query_information_process_fn query = query_process();
    ULONG need = 0;
    if (query != NULL) {
        (void)query(process, 60 /* ProcessCommandLineInformation */, NULL, 0, &need);
    }
    if (need >= sizeof(UNICODE_STRING) && need < (1u << 20)) {
        UNICODE_STRING *line = malloc(need);
        if (line != NULL && query(process, 60, line, need, &need) >= 0) {
            size_t chars = line->Length / sizeof(wchar_t);
            wchar_t *text = malloc((chars + 1) * sizeof(wchar_t));
            if (text != NULL) {
                memcpy(text, line->Buffer, chars * sizeof(wchar_t));
                text[chars] = L'\0';
            }
            free(line);
            return text;
        }
        free(line);
    }
    wchar_t *text = NULL;
    size_t bytes = 0;
    return win_read_peb(process, WIN_PEB_COMMAND_LINE, &text, &bytes) == 0 ? text : NULL;
}

/*
 * Split a command line (UTF-8) by the rules the Microsoft C runtime and CommandLineToArgvW
 * document, into argv in host_process's layout (pointers, NULL-terminated, then the strings; one
 * allocation).  argv[0] runs to the first blank, or between quotes, with no escapes; after it,
 * blanks separate arguments outside quotes, 2n backslashes before a quote give n and the quote
 * opens or closes quoting, 2n+1 give n and a literal quote, other backslashes are literal, and
 * "" inside quotes is a literal quote.  Done here rather than with CommandLineToArgvW so that
 * shell32 (and the user interface DLLs it loads) stays out of the process.
 */
static char **split_command_line(const char *line, size_t *count) {
    *count = 0;
    size_t len = strlen(line);
    size_t max_args = len / 2 + 2;
    /* Every argument is at most as long as the line, with a NUL: the layout fits in this. */
    char **argv = malloc((max_args + 1) * sizeof(char *) + len + max_args);
    if (argv == NULL || len == 0) {
        free(argv);
        return NULL;
    }
    char *out = (char *)(argv + max_args + 1);
    size_t argc = 0;
    const char *p = line;
    /* argv[0] */
    argv[argc++] = out;
    if (*p == '"') {
        for (p++; *p != '\0' && *p != '"'; p++) {
            *out++ = *p;
        }
        p += *p == '"';
    } else {
        for (; *p != '\0' && *p != ' ' && *p != '\t'; p++) {
            *out++ = *p;
        }
    }
    *out++ = '\0';
    for (;;) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (*p == '\0' || argc == max_args) {
            break;
        }
        argv[argc++] = out;
        bool quoted = false;
        while (*p != '\0' && (quoted || (*p != ' ' && *p != '\t'))) {
            if (*p == '\\') {
                size_t slashes = 0;
                while (*p == '\\') {
                    slashes++;
                    p++;
                }
                if (*p == '"') {
                    for (size_t i = 0; i < slashes / 2; i++) {
                        *out++ = '\\';
                    }
                    if (slashes % 2 == 1) {
                        *out++ = '"';
                        p++;
                    }
                } else {
                    for (size_t i = 0; i < slashes; i++) {
                        *out++ = '\\';
                    }
                }
            } else if (*p == '"') {
                if (quoted && p[1] == '"') {
                    *out++ = '"';
                    p += 2;
                } else {
                    quoted = !quoted;
                    p++;
                }
            } else {
                *out++ = *p++;
            }
        }
        *out++ = '\0';
    }
    argv[argc] = NULL;
    *count = argc;
    return argv;
}

static char *read_user(HANDLE process) {
    HANDLE token = NULL;
    if (!OpenProcessToken(process, TOKEN_QUERY, &token)) {
        return NULL;
    }
    union {
        TOKEN_USER user;
        char bytes[256];
    } info;
    DWORD size = 0;
    char *result = NULL;
    if (GetTokenInformation(token, TokenUser, &info, sizeof(info), &size)) {
        wchar_t name[256];
        wchar_t domain[256];
        DWORD name_len = 256;
        DWORD domain_len = 256;
        SID_NAME_USE use;
        if (LookupAccountSidW(NULL, info.user.User.Sid, name, &name_len, domain, &domain_len,
                              &use)) {
            wchar_t full[520];
            _snwprintf(full, 520, L"%ls\\%ls", domain, name);
            full[519] = L'\0';
            result = win_utf8(full, -1);
        }
    }
    CloseHandle(token);
    return result;
}

static char *read_name(HANDLE process) {
    wchar_t path[MAX_PATH * 2];
    DWORD len = MAX_PATH * 2;
    if (!QueryFullProcessImageNameW(process, 0, path, &len)) {
        return NULL;
    }
    const wchar_t *base = path;
    for (const wchar_t *c = path; *c != L'\0'; c++) {
        if (*c == L'\\' || *c == L'/') {
            base = c + 1;
        }
    }
    return win_utf8(base, -1);
}

static struct win_cpu_entry *find_entry(struct host_ctx *host, uint32_t pid, double create_time) {
    for (size_t i = 0; i < host->proc_count; i++) {
        struct win_cpu_entry *e = &host->procs[i];
        if (e->pid == pid && fabs(e->create_time - create_time) < 0.01) {
            return e;
        }
    }
    if (host->proc_count == host->proc_capacity) {
        size_t capacity = host->proc_capacity ? host->proc_capacity * 2 : 64;
        struct win_cpu_entry *grown = realloc(host->procs, capacity * sizeof(*grown));
        if (grown == NULL) {
            return NULL;
        }
        host->procs = grown;
        host->proc_capacity = capacity;
    }
    struct win_cpu_entry *e = &host->procs[host->proc_count++];
    *e = (struct win_cpu_entry){.pid = pid, .create_time = create_time, .cpu_s = NAN};
    return e;
}

static void read_times(struct host_ctx *host, HANDLE process, struct host_process *out) {
    FILETIME created;
    FILETIME exited;
    FILETIME kernel;
    FILETIME user;
    if (!GetProcessTimes(process, &created, &exited, &kernel, &user)) {
        return;
    }
    out->pub.create_time = win_filetime_epoch(created);
    FILETIME now;
    GetSystemTimeAsFileTime(&now);
    double running = win_filetime_epoch(now) - out->pub.create_time;
    out->pub.running_time_s = running > 0.0 ? running : 0.0;
    double cpu_s = win_filetime_seconds(kernel) + win_filetime_seconds(user);
    double wall = clock_monotonic_s();
    struct win_cpu_entry *e = find_entry(host, out->pub.pid, out->pub.create_time);
    out->cpu_percent_first = true;
    out->pub.cpu_percent = 0.0;
    if (e == NULL) {
        return;
    }
    if (!isnan(e->cpu_s) && wall > e->wall_s) {
        double pct = (cpu_s - e->cpu_s) * 100.0 / (wall - e->wall_s);
        out->pub.cpu_percent = round((pct > 0.0 ? pct : 0.0) * 10.0) / 10.0;
        out->cpu_percent_first = false;
    }
    e->cpu_s = cpu_s;
    e->wall_s = wall;
    e->generation = host->generation;
}

static void read_memory(struct host_ctx *host, HANDLE process, struct host_process *out) {
    PROCESS_MEMORY_COUNTERS counters = {.cb = sizeof(counters)};
    if (!GetProcessMemoryInfo(process, &counters, sizeof(counters))) {
        return;
    }
    out->pub.rss_bytes = counters.WorkingSetSize;
    uint64_t total = host_memory_total(host);
    if (total != NVT_NA_U64 && total > 0) {
        out->pub.memory_percent = (double)counters.WorkingSetSize * 100.0 / (double)total;
    }
}

static void mirror(struct host_process *out) {
    out->pub.user = out->user != NULL ? out->user : "";
    out->pub.name = out->name != NULL ? out->name : "";
    out->pub.command = out->command != NULL ? out->command : "";
    out->pub.cmdline = (const char *const *)out->cmdline;
}

static void read_command(HANDLE process, struct host_process *out) {
    wchar_t *wide = read_command_line(process);
    char *line = wide != NULL ? win_utf8(wide, -1) : NULL;
    free(wide);
    out->cmdline = line != NULL ? split_command_line(line, &out->pub.cmdline_count) : NULL;
    free(line);
    if (out->cmdline == NULL) {
        return;
    }
    size_t need =
        nvt_command_join(NULL, 0, (const char *const *)out->cmdline, out->pub.cmdline_count);
    out->command = malloc(need + 1);
    if (out->command != NULL) {
        nvt_command_join(out->command, need + 1, (const char *const *)out->cmdline,
                         out->pub.cmdline_count);
    }
}

nvt_status host_process_read(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    if (host == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    host_process_init_na(&out->pub, pid, NVT_HOST_OK);
    HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_VM_READ, FALSE, pid);
    if (process == NULL && GetLastError() == ERROR_ACCESS_DENIED) {
        /* Without the memory: no command line from the PEB.  A pid that does not exist
         * (ERROR_INVALID_PARAMETER) is not asked twice. */
        process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    }
    if (process == NULL) {
        out->pub.status =
            GetLastError() == ERROR_ACCESS_DENIED ? NVT_HOST_NO_PERMISSION : NVT_HOST_GONE;
        return NVT_OK;
    }
    DWORD exit_code = 0;
    if (GetExitCodeProcess(process, &exit_code) && exit_code != STILL_ACTIVE) {
        /* Exited but still referenced by a handle somewhere: Windows' zombie. */
        out->pub.status = NVT_HOST_ZOMBIE;
        CloseHandle(process);
        return NVT_OK;
    }
    out->pub.state = 'R'; /* psutil reports every live Windows process as running */
    out->pub.ppid = win_parent_pid(process);
    out->name = read_name(process);
    out->user = read_user(process);
    read_command(process, out);
    read_times(host, process, out);
    read_memory(host, process, out);
    CloseHandle(process);
    if (out->name == NULL && out->cmdline != NULL && out->pub.cmdline_count > 0) {
        const char *arg0 = out->cmdline[0];
        const char *base = arg0;
        for (const char *c = arg0; *c != '\0'; c++) {
            base = *c == '\\' || *c == '/' ? c + 1 : base;
        }
        out->name = strdup(base);
    }
    if (host->command_only) {
        free(out->cmdline);
        out->cmdline = NULL;
        out->pub.cmdline_count = 0;
    }
    mirror(out);
    return NVT_OK;
}

void host_process_fini(struct host_process *process) {
    if (process != NULL) {
        free(process->user);
        free(process->name);
        free(process->command);
        free(process->cmdline);
        memset(process, 0, sizeof(*process));
    }
}

bool host_process_keep(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    (void)host;
    (void)pid;
    (void)out;
    return false; /* no reading is carried here: every process is read */
}

void host_generation_end(struct host_ctx *host) {
    if (host == NULL) {
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < host->proc_count; i++) {
        if (host->generation - host->procs[i].generation < 2) {
            host->procs[kept++] = host->procs[i];
        }
    }
    host->proc_count = kept;
    host->generation++;
}
