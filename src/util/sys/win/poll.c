/*
 * pipe2(), write(), close() and poll() for the Windows build (see poll.h): the monitor's event
 * loop sleeps in one wait on the console input and on the events of its pipes until a key, a
 * byte in a pipe or the timeout, without looking at the pipes in between.
 */
/* <windows.h> first: the other Windows headers need its types. */
/* clang-format off */
#include <windows.h>
/* clang-format on */
#include "util/sys/win/poll.h"

#include <errno.h>
#include <io.h>
#include <stdbool.h>

#include "util/sys/win/compat.h"

#undef write
#undef close

/*
 * Windows cannot wait on an anonymous pipe, and the portable code names a pipe by its two
 * descriptors only (the sampler's, src/tui/live/sampler.c): so pipe2() pairs each pipe with an
 * event, compat_write() to its write end sets the event, and poll() finds the event from the read
 * end's descriptor.  That lookup needs a table for the whole module: the one mutable global of
 * the compatibility layer.  Each module (nvitop.exe, nvitop.dll) links its own copy, so a pipe
 * is written, polled and closed in the module that made it.  The lock guards every field: poll()
 * and write() read the table from any thread; pipe2() and close() change it (close() also
 * closes the descriptor under the lock, so that a descriptor number reused at once by another
 * thread is never taken for the pipe).  The table also remembers the last descriptor found to be
 * the console input, with its handle: asking the console (GetConsoleMode) is a round trip to
 * wine's console host at every poll(), while the event loop polls the same descriptor each time.
 */
struct pipe_event {
    int read_fd;  /* -1 once closed */
    int write_fd; /* -1 once closed */
    HANDLE event; /* auto-reset (the wait that it ends resets it); NULL: the entry is free */
};

enum {
    PIPE_EVENTS_MAX = 16,
    POLL_MAX_FDS = 8,
    /* How long an unregistered pipe waits to be looked at again, and how long a console handle
     * that is signalled without input records is left out of the wait. */
    POLL_SLICE_MS = 100
};

static struct {
    SRWLOCK lock;
    struct pipe_event pipes[PIPE_EVENTS_MAX];
    int console_fd; /* -1: none known */
    HANDLE console;
} pipe_table = {SRWLOCK_INIT, {{0, 0, NULL}}, -1, NULL};

/* The entry whose read or write end is fd, or NULL; the caller holds the lock. */
static struct pipe_event *find_pipe(int fd, bool read_end) {
    if (fd < 0) {
        return NULL;
    }
    for (size_t i = 0; i < PIPE_EVENTS_MAX; i++) {
        struct pipe_event *p = &pipe_table.pipes[i];
        if (p->event != NULL && (read_end ? p->read_fd : p->write_fd) == fd) {
            return p;
        }
    }
    return NULL;
}

int pipe2(int fds[2], int flags) {
    (void)flags; /* not inherited (_O_NOINHERIT); reads are checked with PeekNamedPipe first */
    if (_pipe(fds, 65536, _O_BINARY | _O_NOINHERIT) != 0) {
        return -1;
    }
    HANDLE event = CreateEventW(NULL, FALSE, FALSE, NULL);
    if (event == NULL) {
        return 0; /* poll() looks at the pipe every slice instead */
    }
    AcquireSRWLockExclusive(&pipe_table.lock);
    struct pipe_event *free_entry = NULL;
    for (size_t i = 0; i < PIPE_EVENTS_MAX && free_entry == NULL; i++) {
        if (pipe_table.pipes[i].event == NULL) {
            free_entry = &pipe_table.pipes[i];
        }
    }
    if (free_entry != NULL) {
        *free_entry = (struct pipe_event){fds[0], fds[1], event};
    }
    ReleaseSRWLockExclusive(&pipe_table.lock);
    if (free_entry == NULL) {
        CloseHandle(event); /* a full table: the pipe is looked at every slice */
    }
    return 0;
}

int compat_write(int fd, const void *buf, unsigned int count) {
    int written = _write(fd, buf, count);
    if (written > 0) {
        AcquireSRWLockShared(&pipe_table.lock);
        const struct pipe_event *p = find_pipe(fd, false);
        if (p != NULL) {
            SetEvent(p->event);
        }
        ReleaseSRWLockShared(&pipe_table.lock);
    }
    return written;
}

int compat_close(int fd) {
    AcquireSRWLockExclusive(&pipe_table.lock);
    int rc = _close(fd);
    if (fd == pipe_table.console_fd) {
        pipe_table.console_fd = -1;
    }
    struct pipe_event *p = find_pipe(fd, true);
    if (p != NULL) {
        p->read_fd = -1;
    } else if ((p = find_pipe(fd, false)) != NULL) {
        p->write_fd = -1;
        SetEvent(p->event); /* the reader sees the end */
    }
    if (p != NULL && p->read_fd < 0 && p->write_fd < 0) {
        CloseHandle(p->event);
        p->event = NULL;
    }
    ReleaseSRWLockExclusive(&pipe_table.lock);
    return rc;
}

enum source_kind {
    SOURCE_NONE,    /* a negative descriptor, or no POLLIN asked */
    SOURCE_INVALID, /* no handle: POLLNVAL, reported as ready so that the caller's read fails */
    SOURCE_CONSOLE, /* the console input: waited on, then its input records counted */
    SOURCE_EVENT,   /* a pipe of pipe2(): its event waited on, then the pipe looked at */
    SOURCE_PIPE     /* any other pipe: looked at every slice */
};

struct poll_source {
    enum source_kind kind;
    HANDLE handle; /* the console's or the pipe's read end */
    HANDLE event;  /* SOURCE_EVENT */
};

static void classify(const struct pollfd *pfd, struct poll_source *source) {
    *source = (struct poll_source){SOURCE_NONE, NULL, NULL};
    if (pfd->fd < 0 || (pfd->events & POLLIN) == 0) {
        return;
    }
    source->handle = (HANDLE)_get_osfhandle(pfd->fd);
    if (source->handle == INVALID_HANDLE_VALUE) {
        source->kind = SOURCE_INVALID;
        return;
    }
    AcquireSRWLockShared(&pipe_table.lock);
    const struct pipe_event *p = find_pipe(pfd->fd, true);
    if (p != NULL) {
        source->kind = SOURCE_EVENT;
        source->event = p->event;
    } else if (pfd->fd == pipe_table.console_fd && source->handle == pipe_table.console) {
        source->kind = SOURCE_CONSOLE;
    }
    ReleaseSRWLockShared(&pipe_table.lock);
    if (source->kind != SOURCE_NONE) {
        return;
    }
    DWORD mode = 0;
    source->kind = GetConsoleMode(source->handle, &mode) ? SOURCE_CONSOLE : SOURCE_PIPE;
    if (source->kind == SOURCE_CONSOLE) {
        AcquireSRWLockExclusive(&pipe_table.lock);
        pipe_table.console_fd = pfd->fd;
        pipe_table.console = source->handle;
        ReleaseSRWLockExclusive(&pipe_table.lock);
    }
}

/* Whether a pipe has something to read now; a pipe whose writer has gone counts (the read sees
 * the end). */
static bool pipe_readable(HANDLE pipe) {
    DWORD available = 0;
    if (PeekNamedPipe(pipe, NULL, 0, NULL, &available, NULL)) {
        return available > 0;
    }
    return GetLastError() == ERROR_BROKEN_PIPE;
}

/* The sources that cannot be waited on, looked at now: the number found ready. */
static int look_at_unwaitable(struct pollfd *fds, nfds_t nfds, const struct poll_source *sources) {
    int ready = 0;
    for (nfds_t i = 0; i < nfds; i++) {
        if (sources[i].kind == SOURCE_INVALID ||
            (sources[i].kind == SOURCE_PIPE && pipe_readable(sources[i].handle))) {
            fds[i].revents = POLLIN;
            ready++;
        }
    }
    return ready;
}

/* One source whose handle was signalled: whether it is ready.  The wait reset the event before
 * the pipe is looked at, so that a byte written after the look sets it again.  A console signalled
 * without input records (wine's, after events it consumed itself) would end every wait at once:
 * it is left out of the waits for a slice (*console_quiet_until). */
static bool signalled_ready(const struct poll_source *source, ULONGLONG now,
                            ULONGLONG *console_quiet_until) {
    if (source->kind == SOURCE_EVENT) {
        return pipe_readable(source->handle);
    }
    DWORD events = 0;
    if (GetNumberOfConsoleInputEvents(source->handle, &events) && events > 0) {
        return true;
    }
    *console_quiet_until = now + POLL_SLICE_MS;
    return false;
}

/* Each descriptor is classified once per call; then each turn is one wait for the console and
 * the pipes' events together, and only what woke it is looked at (each of these calls is a round
 * trip to wineserver under wine).  Ready sources after the first one signalled are reported by
 * the next call, the console first. */
int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms) {
    if (nfds > POLL_MAX_FDS) {
        errno = EINVAL;
        return -1;
    }
    ULONGLONG start = GetTickCount64();
    struct poll_source sources[POLL_MAX_FDS];
    bool unwaitable = false;
    for (nfds_t i = 0; i < nfds; i++) {
        fds[i].revents = 0;
        classify(&fds[i], &sources[i]);
        unwaitable = unwaitable || sources[i].kind == SOURCE_PIPE;
    }
    int ready = look_at_unwaitable(fds, nfds, sources);
    ULONGLONG console_quiet_until = 0;
    while (ready == 0) {
        ULONGLONG now = GetTickCount64();
        ULONGLONG waited = now - start;
        DWORD wait_ms = INFINITE;
        if (timeout_ms >= 0) {
            wait_ms = waited >= (ULONGLONG)timeout_ms ? 0 : (DWORD)((ULONGLONG)timeout_ms - waited);
        }
        HANDLE handles[POLL_MAX_FDS];
        nfds_t owners[POLL_MAX_FDS];
        DWORD count = 0;
        bool quiet_console = false;
        for (nfds_t i = 0; i < nfds; i++) {
            if (sources[i].kind == SOURCE_CONSOLE && now < console_quiet_until) {
                quiet_console = true;
            } else if (sources[i].kind == SOURCE_CONSOLE || sources[i].kind == SOURCE_EVENT) {
                handles[count] =
                    sources[i].kind == SOURCE_EVENT ? sources[i].event : sources[i].handle;
                owners[count++] = i;
            }
        }
        if ((unwaitable || quiet_console) && wait_ms > POLL_SLICE_MS) {
            wait_ms = POLL_SLICE_MS;
        }
        DWORD woke = WAIT_TIMEOUT;
        if (count > 0) {
            woke = WaitForMultipleObjects(count, handles, FALSE, wait_ms);
        } else if (wait_ms > 0) {
            Sleep(wait_ms == INFINITE ? POLL_SLICE_MS : wait_ms);
        }
        if (woke - WAIT_OBJECT_0 < count) { /* WAIT_OBJECT_0 is 0 */
            nfds_t i = owners[woke - WAIT_OBJECT_0];
            if (signalled_ready(&sources[i], GetTickCount64(), &console_quiet_until)) {
                fds[i].revents = POLLIN;
                ready++;
            }
        } else if (woke != WAIT_TIMEOUT && wait_ms > 0) {
            Sleep(wait_ms < POLL_SLICE_MS ? wait_ms : POLL_SLICE_MS); /* a failed wait: no spin */
        }
        if (unwaitable) {
            ready += look_at_unwaitable(fds, nfds, sources);
        }
        if (ready == 0 && timeout_ms >= 0 && GetTickCount64() - start >= (ULONGLONG)timeout_ms) {
            return 0;
        }
    }
    return ready;
}
