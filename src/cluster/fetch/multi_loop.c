/* A curl multi handle driven through epoll (multi_loop.h). */
#include "cluster/fetch/multi_loop.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "cluster/fetch/curl_api.h"
#include "util/array.h"
#include "util/sys/clock.h"
#include "util/xalloc.h"

struct multi_loop {
    const struct curl_api *curl;
    CURLM *multi;
    int epoll_fd;
    double timer_at; /* clock_monotonic_s() when curl wants its timeout action; < 0: none */
};

/* An epoll entry's data: the socket, and what curl waits for on it (CURL_POLL_IN/OUT). */
static uint64_t entry_data(curl_socket_t s, int what) {
    return (uint64_t)(uint32_t)what << 32 | (uint32_t)s;
}

/* CURLMOPT_SOCKETFUNCTION: curl starts, changes or stops waiting on socket s.  A socket curl
 * starts waiting on has no data assigned yet (curl forgets it at the removal): it is added to the
 * epoll set and marked, later changes modify it. */
static int on_socket(CURL *easy, curl_socket_t s, int what, void *user, void *socket_data) {
    (void)easy;
    struct multi_loop *loop = user;
    if (what == CURL_POLL_REMOVE) {
        /* EBADF when it was closed already (which removed it): nothing more to do. */
        epoll_ctl(loop->epoll_fd, EPOLL_CTL_DEL, s, NULL);
        return 0;
    }
    struct epoll_event event = {
        .events = ((what & CURL_POLL_IN) != 0 ? EPOLLIN : 0u) |
                  ((what & CURL_POLL_OUT) != 0 ? EPOLLOUT : 0u),
        .data.u64 = entry_data(s, what),
    };
    /* The other operation when the first fails: a socket closed without a removal (which took
     * it out of the set) and its number reused.  curl removes a socket before closing it, so this
     * is only a guard. */
    int op = socket_data != NULL ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(loop->epoll_fd, op, s, &event) != 0 &&
        epoll_ctl(loop->epoll_fd, op == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, s, &event) !=
            0) {
        return -1; /* curl fails the transfers on this socket */
    }
    if (socket_data == NULL) {
        loop->curl->multi_assign(loop->multi, s, loop);
    }
    return 0;
}

/* CURLMOPT_TIMERFUNCTION: curl wants a timeout action in timeout_ms (-1: no more). */
static int on_timer(CURLM *multi, long timeout_ms, void *user) {
    (void)multi;
    struct multi_loop *loop = user;
    loop->timer_at = timeout_ms < 0 ? -1.0 : clock_monotonic_s() + (double)timeout_ms / 1000.0;
    return 0;
}

struct multi_loop *multi_loop_new(const struct curl_api *curl, long max_connects) {
    struct multi_loop *loop = xcalloc(1, sizeof *loop);
    loop->curl = curl;
    loop->timer_at = -1.0;
    loop->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    loop->multi = curl->multi_init();
    if (loop->epoll_fd < 0 || loop->multi == NULL) {
        fputs(loop->multi == NULL ? "nvitop: out of memory (curl_multi_init)\n"
                                  : "nvitop: cannot create an epoll set for the cluster reads\n",
              stderr);
        abort();
    }
    curl->multi_setopt(loop->multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl->multi_setopt(loop->multi, CURLMOPT_SOCKETDATA, loop);
    curl->multi_setopt(loop->multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl->multi_setopt(loop->multi, CURLMOPT_TIMERDATA, loop);
    if (max_connects > 0) {
        curl->multi_setopt(loop->multi, CURLMOPT_MAXCONNECTS, max_connects);
    }
    return loop;
}

void *multi_loop_multi(const struct multi_loop *loop) {
    return loop->multi;
}

/* What curl is told of a ready socket: an error or hang-up is given as what it waits for, so
 * that its own read or connect check finds the cause. */
static int ready_bits(uint32_t events, int what) {
    int bits = 0;
    if ((what & CURL_POLL_IN) != 0 && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0) {
        bits |= CURL_CSELECT_IN;
    }
    if ((what & CURL_POLL_OUT) != 0 && (events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) != 0) {
        bits |= CURL_CSELECT_OUT;
    }
    return bits;
}

void multi_loop_run(struct multi_loop *loop, int max_ms) {
    int wait_ms = max_ms < 0 ? 0 : max_ms;
    if (loop->timer_at >= 0) {
        double left_ms = ceil((loop->timer_at - clock_monotonic_s()) * 1000.0);
        wait_ms = left_ms <= 0 ? 0 : left_ms < wait_ms ? (int)left_ms : wait_ms;
    }
    struct epoll_event events[64];
    int n = epoll_wait(loop->epoll_fd, events, (int)ARRAY_SIZE(events), wait_ms);
    int running;
    for (int i = 0; i < n; i++) {
        curl_socket_t s = (curl_socket_t)(uint32_t)events[i].data.u64;
        int what = (int)(events[i].data.u64 >> 32);
        loop->curl->multi_socket_action(loop->multi, s, ready_bits(events[i].events, what),
                                        &running);
    }
    if (loop->timer_at >= 0 && clock_monotonic_s() >= loop->timer_at) {
        loop->timer_at = -1.0; /* the action may set it again */
        loop->curl->multi_socket_action(loop->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
}

void multi_loop_free(struct multi_loop *loop) {
    if (loop == NULL) {
        return;
    }
    loop->curl->multi_cleanup(loop->multi);
    close(loop->epoll_fd);
    free(loop);
}
