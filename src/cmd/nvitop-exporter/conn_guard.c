/* Header deadlines and room for new clients (conn_guard.h). */
#include "conn_guard.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "util/sys/clock.h"

#define SWEEP_PERIOD_NS 250000000L /* how often the deadlines are checked */

/* One connection, in a list oldest first. */
struct guard_conn {
    struct guard_conn *prev;
    struct guard_conn *next;
    int fd;
    double deadline; /* monotonic seconds; meaningless while answering */
    bool answering;  /* its request header is complete */
    bool dropping;   /* shut down, waiting for the server to close it */
};

struct conn_guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stopping;         /* guarded by lock */
    struct guard_conn all; /* the list's head (guarded by lock) */
    unsigned count;        /* connections in the list (guarded by lock) */
    unsigned dropping;     /* of which shut down (guarded by lock) */
    unsigned limit;
    unsigned reserve;
    double header_deadline_s;
};

/* Shut the connection's socket down; the server's event loop closes it.  Called with the lock
 * held: the socket cannot be closed (and its number reused) meanwhile, since the server removes
 * a connection from the guard before closing its socket. */
static void drop(struct conn_guard *guard, struct guard_conn *conn) {
    conn->dropping = true;
    guard->dropping++;
    shutdown(conn->fd, SHUT_RDWR);
}

static void *sweep(void *arg) {
    struct conn_guard *guard = arg;
    pthread_mutex_lock(&guard->lock);
    while (!guard->stopping) {
        double now = clock_monotonic_s();
        for (struct guard_conn *c = guard->all.next; c != &guard->all; c = c->next) {
            if (!c->answering && !c->dropping && now >= c->deadline) {
                drop(guard, c);
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += SWEEP_PERIOD_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (!guard->stopping && rc != ETIMEDOUT) {
            rc = pthread_cond_timedwait(&guard->wake, &guard->lock, &until);
        }
    }
    pthread_mutex_unlock(&guard->lock);
    return NULL;
}

struct conn_guard *conn_guard_start(unsigned limit, unsigned reserve, double header_deadline_s) {
    struct conn_guard *guard = calloc(1, sizeof(*guard));
    if (guard == NULL) {
        return NULL;
    }
    guard->limit = limit;
    guard->reserve = reserve;
    guard->header_deadline_s = header_deadline_s;
    guard->all.next = guard->all.prev = &guard->all;
    pthread_condattr_t attr;
    bool ok = pthread_condattr_init(&attr) == 0;
    if (ok) {
        ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&guard->wake, &attr) == 0;
        pthread_condattr_destroy(&attr);
    }
    if (!ok) {
        free(guard);
        return NULL;
    }
    pthread_mutex_init(&guard->lock, NULL);
    if (pthread_create(&guard->thread, NULL, sweep, guard) != 0) {
        pthread_cond_destroy(&guard->wake);
        pthread_mutex_destroy(&guard->lock);
        free(guard);
        return NULL;
    }
    return guard;
}

bool conn_guard_admit(struct conn_guard *guard) {
    pthread_mutex_lock(&guard->lock);
    if (guard->count - guard->dropping >= guard->limit) {
        for (struct guard_conn *c = guard->all.next; c != &guard->all; c = c->next) {
            if (!c->answering && !c->dropping) {
                drop(guard, c);
                break;
            }
        }
    }
    bool admit = guard->count - guard->dropping < guard->limit &&
                 guard->count < guard->limit + guard->reserve;
    pthread_mutex_unlock(&guard->lock);
    return admit;
}

struct guard_conn *conn_guard_add(struct conn_guard *guard, int fd) {
    struct guard_conn *conn = calloc(1, sizeof(*conn));
    if (conn == NULL) {
        shutdown(fd, SHUT_RDWR);
        return NULL;
    }
    conn->fd = fd;
    conn->deadline = clock_monotonic_s() + guard->header_deadline_s;
    pthread_mutex_lock(&guard->lock);
    conn->prev = guard->all.prev;
    conn->next = &guard->all;
    conn->prev->next = conn;
    guard->all.prev = conn;
    guard->count++;
    pthread_mutex_unlock(&guard->lock);
    return conn;
}

void conn_guard_answering(struct conn_guard *guard, struct guard_conn *conn) {
    pthread_mutex_lock(&guard->lock);
    conn->answering = true;
    pthread_mutex_unlock(&guard->lock);
}

void conn_guard_answered(struct conn_guard *guard, struct guard_conn *conn) {
    double deadline = clock_monotonic_s() + guard->header_deadline_s;
    pthread_mutex_lock(&guard->lock);
    conn->answering = false;
    conn->deadline = deadline;
    pthread_mutex_unlock(&guard->lock);
}

void conn_guard_remove(struct conn_guard *guard, struct guard_conn *conn) {
    if (conn == NULL) {
        return;
    }
    pthread_mutex_lock(&guard->lock);
    conn->prev->next = conn->next;
    conn->next->prev = conn->prev;
    guard->count--;
    if (conn->dropping) {
        guard->dropping--;
    }
    pthread_mutex_unlock(&guard->lock);
    free(conn);
}

void conn_guard_stop(struct conn_guard *guard) {
    if (guard == NULL) {
        return;
    }
    pthread_mutex_lock(&guard->lock);
    guard->stopping = true;
    pthread_cond_signal(&guard->wake);
    pthread_mutex_unlock(&guard->lock);
    pthread_join(guard->thread, NULL);
    struct guard_conn *c = guard->all.next;
    while (c != &guard->all) {
        struct guard_conn *next = c->next;
        free(c);
        c = next;
    }
    pthread_cond_destroy(&guard->wake);
    pthread_mutex_destroy(&guard->lock);
    free(guard);
}
