/*
 * poll() for the Windows build (see compat.h), for the monitor's event loop: a descriptor whose
 * handle is the console input is ready when the console has input records; a pipe's read end when
 * PeekNamedPipe sees bytes or its writer has gone.  The console and the pipes of pipe2() are
 * waited on together (each such pipe has an event that its writes set; src/util/sys/win/poll.c),
 * so the call sleeps until one of them or the timeout; any other pipe is looked at every 100 ms
 * meanwhile (Windows cannot wait on an anonymous pipe).
 */
#ifndef NVITOP_SRC_UTIL_SYS_WIN_POLL_H
#define NVITOP_SRC_UTIL_SYS_WIN_POLL_H

#define POLLIN   0x001
#define POLLPRI  0x002
#define POLLOUT  0x004
#define POLLERR  0x008
#define POLLHUP  0x010
#define POLLNVAL 0x020

struct pollfd {
    int fd;
    short events;
    short revents;
};

typedef unsigned long nfds_t;

int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms);

#endif /* NVITOP_SRC_UTIL_SYS_WIN_POLL_H */
