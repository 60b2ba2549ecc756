/* The cluster monitor's background reader (poller.h). */
#include "cluster/fetch/poller.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h> /* mallopt */
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/fetch/curl_api.h"
#include "cluster/fetch/multi_loop.h"
#include "cluster/prometheus/prom_api.h"
#include "cluster/prometheus/prom_node.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/xalloc.h"

/* How often the thread looks at the stop flag while it waits. */
#define STOP_CHECK_MS 100

struct poller {
    pthread_t thread;
    atomic_bool stop;
    int pipe_fds[2]; /* [0] polled by the UI, [1] written by the thread */
    struct fetch_options options;
    double interval_s;
    double history_step_s;
    const char *prometheus_url;

    pthread_mutex_t lock; /* guards what follows */
    struct node *shared;  /* the nodes as last published */
    size_t shared_count;
    bool changed;
    char error[256];
    size_t watched;             /* --hosts: the node whose body is kept (count: none) */
    char watched_instance[256]; /* --prometheus: the node read for its view ("": none) */
    bool watch_new;             /* --prometheus: read it now (it was just chosen) */
    char *body;                 /* its newest body, until taken */
    size_t body_len;
};

static void wake(struct poller *p) {
    char byte = 1;
    ssize_t n = write(p->pipe_fds[1], &byte, 1);
    (void)n; /* a full pipe already says "something changed" */
}

/* Wake the UI only when it has taken everything published before: one byte in the pipe says
 * "something changed", however many nodes answered since (200 nodes would otherwise wake it, and
 * make it redraw, 100 times a second). */
static void publish_node(struct poller *p, size_t i, const struct node *node) {
    pthread_mutex_lock(&p->lock);
    p->shared[i] = *node;
    bool was = p->changed;
    p->changed = true;
    pthread_mutex_unlock(&p->lock);
    if (!was) {
        wake(p);
    }
}

/* Keep the watched node's answer for the node view (parsed by the UI thread when it wants it).
 * Only a read that got metrics is an answer: a refused connection, a timeout or an HTTP error
 * has no body to show, and the view keeps the last good one with the node's problem below. */
static void keep_body(struct poller *p, size_t i, const struct fetch_transfer *t,
                      const struct node *node) {
    size_t len;
    const char *body = fetch_transfer_body(t, &len);
    if (body == NULL || node->state != NODE_OK) { /* not watched, or no answer */
        return;
    }
    pthread_mutex_lock(&p->lock);
    if (i == p->watched) {
        free(p->body);
        p->body = xmalloc(len + 1);
        memcpy(p->body, body, len);
        p->body[len] = '\0';
        p->body_len = len;
    }
    pthread_mutex_unlock(&p->lock);
}

static size_t watched_node(struct poller *p) {
    pthread_mutex_lock(&p->lock);
    size_t watched = p->watched;
    pthread_mutex_unlock(&p->lock);
    return watched;
}

/* The watched node's answers are parsed from a copy and kept; the others are parsed in their
 * buffer (no copy of a 37 KB body per read). */
static void keep_body_of(struct fetch_transfer **transfers, size_t count, size_t i, bool keep) {
    if (i < count && transfers[i] != NULL) {
        fetch_transfer_keep_body(transfers[i], keep);
    }
}

/* Connections kept alive between reads (one per node, up to this): a new TCP (and TLS)
 * connection per read costs more than the read; past it the oldest idle one is closed. */
#define KEEP_CONNECTIONS 256

/* --hosts: each node read again interval_s after its previous answer.  Reads that fall due
 * within `slack` of each other start together, so that the thread wakes a few times per interval
 * rather than once per node. */
static void run_hosts(struct poller *p) {
    size_t count = p->shared_count;
    struct node *nodes = xcalloc(count, sizeof *nodes);
    memcpy(nodes, p->shared, count * sizeof *nodes);
    struct fetch_transfer **transfers = xcalloc(count, sizeof *transfers);
    bool *busy = xcalloc(count, sizeof *busy);
    double *due = xcalloc(count, sizeof *due); /* 0: now */
    double slack = p->interval_s / 10 < 0.2 ? p->interval_s / 10 : 0.2;
    const struct curl_api *curl = p->options.curl;
    struct multi_loop *loop =
        multi_loop_new(curl, (long)(count < KEEP_CONNECTIONS ? count : KEEP_CONNECTIONS));
    void *multi = multi_loop_multi(loop);
    size_t kept = count; /* the node whose body is kept (count: none) */
    while (!atomic_load(&p->stop)) {
        double now = clock_monotonic_s();
        double next = now + STOP_CHECK_MS / 1000.0;
        for (size_t i = 0; i < count; i++) {
            if (!busy[i] && due[i] <= now + slack) {
                /* The published copy keeps its last state until this read ends. */
                enum node_state keep = nodes[i].state;
                if (transfers[i] == NULL) {
                    transfers[i] = fetch_transfer_begin(multi, &nodes[i], &p->options);
                    fetch_transfer_keep_body(transfers[i], i == kept);
                } else {
                    fetch_transfer_restart(multi, transfers[i]);
                }
                busy[i] = true;
                nodes[i].state = keep;
            } else if (!busy[i] && due[i] < next) {
                next = due[i];
            }
        }
        int wait_ms = (int)((next - clock_monotonic_s()) * 1000.0);
        wait_ms = wait_ms < 1 ? 1 : wait_ms > STOP_CHECK_MS ? STOP_CHECK_MS : wait_ms;
        multi_loop_run(loop, wait_ms);
        size_t watched = watched_node(p);
        if (watched != kept) {
            keep_body_of(transfers, count, kept, false);
            keep_body_of(transfers, count, watched, true);
            kept = watched;
        }
        struct fetch_transfer *done;
        while ((done = fetch_transfer_done(curl, multi)) != NULL) {
            for (size_t i = 0; i < count; i++) {
                if (transfers[i] == done) {
                    keep_body(p, i, done, &nodes[i]);
                    if (nodes[i].state == NODE_OK) {
                        node_history_add(&nodes[i].history, p->history_step_s, nodes[i].data_time,
                                         nodes[i].summary.util_mean);
                    }
                    busy[i] = false;
                    /* A read of the watched node begun before it was watched asked for the
                     * summary's series only (fetch.h): the whole answer is read at once. */
                    size_t len;
                    bool missed = i == kept && fetch_transfer_body(done, &len) == NULL;
                    due[i] = clock_monotonic_s() + (missed ? 0 : p->interval_s);
                    publish_node(p, i, &nodes[i]);
                    break;
                }
            }
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (transfers[i] != NULL) {
            fetch_transfer_abort(multi, transfers[i]);
        }
    }
    multi_loop_free(loop);
    free(due);
    free(busy);
    free(transfers);
    free(nodes);
}

/* --prometheus, with a node view open: that node's series, as its body (a failed read leaves
 * the view as it was: the fleet's own read reports Prometheus's problems). */
static void read_watched(struct poller *p) {
    char instance[sizeof p->watched_instance];
    pthread_mutex_lock(&p->lock);
    memcpy(instance, p->watched_instance, sizeof instance);
    p->watch_new = false;
    pthread_mutex_unlock(&p->lock);
    char *text, error[256];
    size_t len;
    if (instance[0] == '\0' || !prom_node_read(p->prometheus_url, &p->options, instance, &text,
                                               &len, error, sizeof error)) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    if (strcmp(instance, p->watched_instance) == 0) { /* still the one watched */
        free(p->body);
        p->body = text;
        p->body_len = len;
        text = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    free(text);
    wake(p);
}

static bool watch_new(struct poller *p) {
    pthread_mutex_lock(&p->lock);
    bool now = p->watch_new;
    pthread_mutex_unlock(&p->lock);
    return now;
}

/* The nodes just read (sorted by address) take their history from the previous read's (sorted
 * too), and their utilization is added to it. */
static void carry_history(struct node *nodes, size_t count, const struct node *old,
                          size_t old_count, double step_s) {
    size_t j = 0;
    for (size_t i = 0; i < count; i++) {
        int cmp = -1;
        while (j < old_count && (cmp = strcmp(old[j].address, nodes[i].address)) < 0) {
            j++;
        }
        if (j < old_count && cmp == 0) {
            nodes[i].history = old[j].history;
        }
        if (nodes[i].state == NODE_OK && nodes[i].has_data) {
            node_history_add(&nodes[i].history, step_s, nodes[i].data_time,
                             nodes[i].summary.util_mean);
        }
    }
}

/* --prometheus: the fleet every interval_s, and the watched node's series with it (at once when
 * a node was just chosen).  The first read that works is followed by one range query that fills
 * the nodes' history. */
static void run_prometheus(struct poller *p) {
    bool filled = false;
    p->options.session = fetch_session_new(); /* this thread's requests, one connection */
    while (!atomic_load(&p->stop)) {
        double start = clock_monotonic_s();
        struct node *nodes;
        size_t count;
        char error[256];
        bool ok =
            prom_api_read(p->prometheus_url, &p->options, &nodes, &count, error, sizeof error);
        if (ok && !filled) {
            char ignored[256]; /* no history is no error: the column fills as the screen runs */
            filled = true;
            prom_api_history(p->prometheus_url, &p->options, nodes, count, p->history_step_s,
                             clock_wall_s(), ignored, sizeof ignored);
        }
        pthread_mutex_lock(&p->lock);
        if (ok) {
            /* p->shared is only written by this thread: read here without a copy. */
            carry_history(nodes, count, p->shared, p->shared_count, p->history_step_s);
            free(p->shared);
            p->shared = nodes;
            p->shared_count = count;
            p->error[0] = '\0';
        } else {
            str_copy(p->error, sizeof p->error, error);
        }
        p->changed = true;
        pthread_mutex_unlock(&p->lock);
        wake(p);
        read_watched(p);
        while (!atomic_load(&p->stop) && clock_monotonic_s() - start < p->interval_s) {
            if (watch_new(p)) {
                read_watched(p);
            }
            usleep(STOP_CHECK_MS * 1000);
        }
    }
    fetch_session_free(p->options.curl, p->options.session);
    p->options.session = NULL;
}

static void *thread_main(void *arg) {
    struct poller *p = arg;
    if (p->prometheus_url != NULL) {
        run_prometheus(p);
    } else {
        run_hosts(p);
    }
    return NULL;
}

/* A refresh of direct nodes allocates and frees some 64 KiB a node: libcurl's receive buffer,
 * which it frees when each transfer ends.  glibc gave those pages back to the system at the end of
 * each refresh (the heap's free top above 128 KiB) and took them again, zeroed, at the next: the
 * page faults were 15 % of the screen's CPU at 200 nodes.  They are kept instead, up to what the
 * nodes need, so the resident set stays at a refresh's peak, which it reaches every interval
 * anyway (docs/cluster.md, "Cost").  Fixing the trim threshold also stops glibc's moving mmap
 * threshold, so that is set too: allocations up to 4 MiB (a node table, an answer) from the heap,
 * as the moving threshold would have made them.  Nothing changes with --prometheus, whose
 * memory is answers of its one server, read one after the other. */
static void keep_refresh_memory(size_t nodes) {
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
    if (nodes > 0) {
        size_t keep = nodes < (size_t)INT_MAX / (128 << 10) ? nodes * (128 << 10) : (size_t)INT_MAX;
        (void)mallopt(M_MMAP_THRESHOLD, 4 << 20);
        (void)mallopt(M_TRIM_THRESHOLD, (int)keep);
    }
#else
    (void)nodes;
#endif
}

struct poller *poller_start(const struct node *nodes, size_t count, const char *prometheus_url,
                            const struct fetch_options *options, double interval_s,
                            double history_step_s) {
    keep_refresh_memory(count);
    struct poller *p = xcalloc(1, sizeof *p);
    atomic_init(&p->stop, false);
    p->options = *options;
    p->options.cancel = &p->stop;
    p->interval_s = interval_s;
    p->history_step_s = history_step_s;
    p->prometheus_url = prometheus_url;
    p->shared = xcalloc(count + 1, sizeof *p->shared);
    if (count > 0) { /* nodes is NULL with --prometheus */
        memcpy(p->shared, nodes, count * sizeof *nodes);
    }
    p->shared_count = count;
    p->changed = true;
    p->watched = count;
    if (pipe2(p->pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(p->shared);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    if (pthread_create(&p->thread, NULL, thread_main, p) != 0) {
        close(p->pipe_fds[0]);
        close(p->pipe_fds[1]);
        pthread_mutex_destroy(&p->lock);
        free(p->shared);
        free(p);
        return NULL;
    }
    return p;
}

int poller_fd(const struct poller *poller) {
    return poller->pipe_fds[0];
}

bool poller_take(struct poller *p, struct node **nodes, size_t *count, char *error,
                 size_t error_size) {
    char drain[64];
    while (read(p->pipe_fds[0], drain, sizeof drain) > 0) {
    }
    pthread_mutex_lock(&p->lock);
    bool changed = p->changed;
    if (changed) {
        *nodes = xcalloc(p->shared_count + 1, sizeof **nodes);
        if (p->shared_count > 0) { /* shared may be NULL: a Prometheus with no nodes */
            memcpy(*nodes, p->shared, p->shared_count * sizeof **nodes);
        }
        *count = p->shared_count;
        str_copy(error, error_size, p->error);
        p->changed = false;
    }
    pthread_mutex_unlock(&p->lock);
    return changed;
}

bool poller_watch(struct poller *p, const char *address) {
    pthread_mutex_lock(&p->lock);
    p->watched = p->shared_count;
    for (size_t i = 0; p->prometheus_url == NULL && address != NULL && i < p->shared_count; i++) {
        if (strcmp(p->shared[i].address, address) == 0) {
            p->watched = i;
        }
    }
    str_copy(p->watched_instance, sizeof p->watched_instance,
             p->prometheus_url != NULL && address != NULL ? address : "");
    p->watch_new = p->watched_instance[0] != '\0';
    free(p->body);
    p->body = NULL;
    pthread_mutex_unlock(&p->lock);
    return true;
}

bool poller_take_body(struct poller *p, char **body, size_t *len) {
    pthread_mutex_lock(&p->lock);
    bool some = p->body != NULL;
    if (some) {
        *body = p->body;
        *len = p->body_len;
        p->body = NULL;
    }
    pthread_mutex_unlock(&p->lock);
    return some;
}

void poller_stop(struct poller *p) {
    if (p == NULL) {
        return;
    }
    atomic_store(&p->stop, true);
    pthread_join(p->thread, NULL);
    close(p->pipe_fds[0]);
    close(p->pipe_fds[1]);
    pthread_mutex_destroy(&p->lock);
    free(p->body);
    free(p->shared);
    free(p);
}
