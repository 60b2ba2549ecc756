/*
 * openat() and pread() for the Windows build (see compat.h).
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include "util/sys/win/compat.h"

#include <errno.h>
#include <io.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/sys/win/pwd.h"
#include "util/sys/win/sys/ioctl.h"

static int is_absolute(const char *path) {
    return path[0] == '\\' || path[0] == '/' ||
           (path[0] != '\0' && path[1] == ':' && (path[2] == '\\' || path[2] == '/'));
}

int openat(int dirfd, const char *path, int flags, ...) {
    if (dirfd != AT_FDCWD && !is_absolute(path)) {
        errno = EBADF;
        return -1;
    }
    int mode = 0;
    if ((flags & O_CREAT) != 0) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return _open(path, flags | O_BINARY, mode);
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
    if (_lseeki64(fd, offset, SEEK_SET) < 0) {
        return -1;
    }
    unsigned chunk = count > 0x7fffffffU ? 0x7fffffffU : (unsigned)count;
    return _read(fd, buf, chunk);
}

int ioctl(int fd, unsigned long request, ...) {
    if (request != TIOCGWINSZ) {
        errno = EINVAL;
        return -1;
    }
    va_list ap;
    va_start(ap, request);
    struct winsize *ws = va_arg(ap, struct winsize *);
    va_end(ap);
    CONSOLE_SCREEN_BUFFER_INFO info;
    HANDLE handle = (HANDLE)_get_osfhandle(fd);
    if (handle == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(handle, &info)) {
        errno = ENOTTY;
        return -1;
    }
    ws->ws_col = (unsigned short)(info.srWindow.Right - info.srWindow.Left + 1);
    ws->ws_row = (unsigned short)(info.srWindow.Bottom - info.srWindow.Top + 1);
    ws->ws_xpixel = 0;
    ws->ws_ypixel = 0;
    return 0;
}

long sysconf(int name) {
    if (name != _SC_NPROCESSORS_CONF && name != _SC_NPROCESSORS_ONLN) {
        errno = EINVAL;
        return -1;
    }
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return (long)info.dwNumberOfProcessors;
}

struct passwd *getpwuid(uid_t uid) {
    (void)uid;
    static _Thread_local char name[512];
    static _Thread_local struct passwd entry;
    wchar_t wide[257];
    DWORD n = 257;
    if (!GetUserNameW(wide, &n) ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, name, sizeof(name), NULL, NULL) <= 0) {
        return NULL;
    }
    entry.pw_name = name;
    entry.pw_dir = getenv("USERPROFILE");
    return &entry;
}

/* Windows has no uids: 0 stands for an elevated (administrator) process, as root does on Linux,
 * and 1000 for any other. */
uid_t getuid(void) {
    return geteuid();
}

uid_t geteuid(void) {
    HANDLE token = NULL;
    TOKEN_ELEVATION elevation = {0};
    DWORD size = sizeof(elevation);
    bool elevated = OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token) &&
                    GetTokenInformation(token, TokenElevation, &elevation, size, &size) &&
                    elevation.TokenIsElevated != 0;
    if (token != NULL) {
        CloseHandle(token);
    }
    return elevated ? 0 : 1000;
}

/* The parent from the process's basic information (ntdll, looked up once per call): a process
 * snapshot would cost a walk of every process and thread. */
pid_t getppid(void) {
    typedef LONG(NTAPI * query_fn)(HANDLE, ULONG, PVOID, ULONG, PULONG);
    query_fn query = NULL;
    FARPROC proc = GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQueryInformationProcess");
    memcpy(&query, &proc, sizeof(query));
    ULONG_PTR info[6] = {0}; /* PROCESS_BASIC_INFORMATION; the parent is the last member */
    ULONG got = 0;
    if (query == NULL || query(GetCurrentProcess(), 0, info, sizeof(info), &got) < 0) {
        return 0;
    }
    return (pid_t)info[5];
}

char *strcasestr(const char *haystack, const char *needle) {
    size_t n = strlen(needle);
    for (; *haystack != '\0'; haystack++) {
        if (_strnicmp(haystack, needle, n) == 0) {
            return (char *)(uintptr_t)haystack;
        }
    }
    return n == 0 ? (char *)(uintptr_t)haystack : NULL;
}

int setenv(const char *name, const char *value, int overwrite) {
    if (!overwrite && getenv(name) != NULL) {
        return 0;
    }
    int err = _putenv_s(name, value);
    if (err != 0) {
        errno = err;
        return -1;
    }
    return 0;
}

int unsetenv(const char *name) {
    return _putenv_s(name, "") == 0 ? 0 : -1;
}

struct qsort_r_call {
    int (*compare)(const void *, const void *, void *);
    void *arg;
};

static int qsort_r_trampoline(void *context, const void *a, const void *b) {
    const struct qsort_r_call *call = context;
    return call->compare(a, b, call->arg);
}

void qsort_r(void *base, size_t count, size_t size,
             int (*compare)(const void *, const void *, void *), void *arg) {
    struct qsort_r_call call = {compare, arg};
    qsort_s(base, count, size, qsort_r_trampoline, &call);
}

#undef rename
int compat_rename(const char *from, const char *to) {
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        return 0;
    }
    errno = GetLastError() == ERROR_ACCESS_DENIED ? EACCES : EIO;
    return -1;
}

int mkostemp(char *template_path, int flags) {
    size_t len = strlen(template_path);
    if (len < 6 || strcmp(template_path + len - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return -1;
    }
    char *suffix = template_path + len - 6;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        unsigned long long seed = GetTickCount64() ^
                                  ((unsigned long long)GetCurrentProcessId() << 20) ^
                                  (attempt * 0x9E3779B97F4A7C15ULL);
        for (int i = 0; i < 6; i++) {
            suffix[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[seed % 36];
            seed /= 36;
        }
        int fd = _open(template_path, flags | O_RDWR | O_CREAT | O_EXCL | O_BINARY,
                       _S_IREAD | _S_IWRITE);
        if (fd >= 0 || errno != EEXIST) {
            return fd;
        }
    }
    errno = EEXIST;
    return -1;
}

int gethostname(char *name, size_t size) {
    DWORD n = size > 0xFFFF ? 0xFFFF : (DWORD)size;
    if (!GetComputerNameExA(ComputerNameDnsHostname, name, &n)) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int wcwidth(wchar_t c) {
    unsigned cp = (unsigned)c;
    if (cp == 0) {
        return 0;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
        return -1;
    }
    if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F) ||
        (cp >= 0xFE00 && cp <= 0xFE0F)) {
        return 0;
    }
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6)) {
        return 2;
    }
    return 1;
}

#undef pthread_cond_timedwait
int compat_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                          const struct timespec *monotonic_deadline) {
    struct timespec now_mono;
    struct timespec now_real;
    clock_gettime(CLOCK_MONOTONIC, &now_mono);
    clock_gettime(CLOCK_REALTIME, &now_real);
    long long left_ns = (long long)(monotonic_deadline->tv_sec - now_mono.tv_sec) * 1000000000LL +
                        (monotonic_deadline->tv_nsec - now_mono.tv_nsec);
    if (left_ns < 0) {
        left_ns = 0;
    }
    long long at_ns = (long long)now_real.tv_sec * 1000000000LL + now_real.tv_nsec + left_ns;
    struct timespec deadline = {(time_t)(at_ns / 1000000000LL), (long)(at_ns % 1000000000LL)};
    return pthread_cond_timedwait(cond, mutex, &deadline);
}
