/*
 * The few POSIX names the portable code uses that mingw-w64 lacks, for the Windows build only
 * (cmake/NvtWindows.cmake includes this header first in every file; compat.c implements the
 * functions).  Nothing here changes behaviour on Linux, where this file is never seen.
 */
#ifndef NVITOP_SRC_UTIL_SYS_WIN_COMPAT_H
#define NVITOP_SRC_UTIL_SYS_WIN_COMPAT_H

#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Windows has no set-user-id programs, so the environment is always the caller's own. */
static inline char *secure_getenv(const char *name) {
    return getenv(name);
}

/* Handles are not inherited unless asked for; the proc file system does not exist. */
#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#ifndef AT_FDCWD
#define AT_FDCWD (-100)
#endif
#ifndef CLOCK_MONOTONIC_COARSE
#define CLOCK_MONOTONIC_COARSE CLOCK_MONOTONIC
#endif

/* sysconf() for the processor counts only (GetSystemInfo). */
#define _SC_NPROCESSORS_CONF 83
#define _SC_NPROCESSORS_ONLN 84
long sysconf(int name);

/* setenv() and unsetenv() over _putenv_s (an empty value removes the variable there). */
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);

/* glibc's qsort_r() (the argument last in the comparison) over the C runtime's qsort_s(). */
void qsort_r(void *base, size_t count, size_t size,
             int (*compare)(const void *, const void *, void *), void *arg);

/* The file calls of the settings writer (src/tui/settings/settings_file.c): Windows has no
 * permission bits or symbolic links to keep, and rename() there must be told to replace. */
#define mkdir(path, mode)        _mkdir(path)
#define fchmod(fd, mode)         0
#define fsync(fd)                _commit(fd)
#define realpath(path, resolved) _fullpath((resolved), (path), 0)
#define rename(from, to)         compat_rename((from), (to))
int compat_rename(const char *from, const char *to);
/* mkostemp(): template ends in XXXXXX; created exclusively, binary, not inherited. */
int mkostemp(char *template_path, int flags);

/* Process identity: getppid() from a process snapshot; geteuid() is 0 for an elevated process
 * (what root means to nvitop), 1000 otherwise (pwd.h declares both uid functions). */
pid_t getppid(void);
unsigned geteuid(void);
unsigned getuid(void);

char *strcasestr(const char *haystack, const char *needle);

/* pipe2() over the C runtime's _pipe (flags: the pipe is never inherited; O_NONBLOCK is not
 * available, and poll() tells when a read will not block).  Each pipe is paired with an event
 * that write() to it sets and close() of its write end sets too, which poll() waits on
 * (src/util/sys/win/poll.c): the matching write() and close() are these wrappers, the C
 * runtime's functions for every other descriptor. */
int pipe2(int fds[2], int flags);
int compat_write(int fd, const void *buf, unsigned int count);
int compat_close(int fd);
#define write(fd, buf, count) compat_write((fd), (buf), (unsigned int)(count))
#define close(fd)             compat_close(fd)
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif

/* The signal numbers the monitor's confirmation box names; Windows' C runtime lacks SIGKILL,
 * which nvt_process_signal() turns into TerminateProcess as it does SIGTERM. */
#ifndef SIGKILL
#define SIGKILL 9
#endif

/* gethostname() as the DNS host name (GetComputerNameExA), without Winsock. */
int gethostname(char *name, size_t size);

/* wcwidth() for the canvas's characters outside Latin text and box drawing: combining marks 0,
 * the East Asian wide ranges 2, everything else 1 (the C runtime has no wcwidth). */
#include <wchar.h>
int wcwidth(wchar_t c);

/* Every condition variable of the project waits for deadlines on CLOCK_MONOTONIC
 * (pthread_condattr_setclock), which winpthreads accepts but ignores, measuring deadlines on
 * CLOCK_REALTIME: a monotonic deadline then lies decades in the past and every wait returns at
 * once.  This wrapper turns the monotonic deadline into a real-time one. */
int compat_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                          const struct timespec *monotonic_deadline);
#define pthread_cond_timedwait(cond, mutex, deadline)                                              \
    compat_cond_timedwait((cond), (mutex), (deadline))

/* openat() for dirfd AT_FDCWD (or an absolute path) only: EBADF otherwise.  Binary mode. */
int openat(int dirfd, const char *path, int flags, ...);

/* pread() as lseek() then read(): the descriptor's offset moves, so one thread per descriptor. */
ssize_t pread(int fd, void *buf, size_t count, off_t offset);

#endif /* NVITOP_SRC_UTIL_SYS_WIN_COMPAT_H */
