/*
 * The collector's daemon (nvitop's collect_in_background): a thread that activates a tag and hands
 * a collect to a callback at fixed-rate ticks until told to stop.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/collector.h>

#include "abi.h"
#include "collector/collector_internal.h"
#include "util/sys/clock.h"
#include "util/text/str.h"

#define DEFAULT_TAG "metrics-daemon"

static bool should_stop(nvt_collector *c) {
    pthread_mutex_lock(&c->lock);
    bool stop = c->daemon.stop;
    pthread_mutex_unlock(&c->lock);
    return stop;
}

/* Wait for the next tick after now (ticks at start + k * interval); false when asked to stop. */
static bool wait_tick(nvt_collector *c, double start, double interval) {
    double now = clock_monotonic_s();
    double ticks = floor((now - start) / interval) + 1.0;
    double deadline = start + ticks * interval;
    pthread_mutex_lock(&c->lock);
    while (!c->daemon.stop && clock_monotonic_s() < deadline) {
        collector_wait_until(&c->daemon.wake, &c->lock, deadline);
    }
    bool go_on = !c->daemon.stop;
    pthread_mutex_unlock(&c->lock);
    return go_on;
}

static void *daemon_thread(void *arg) {
    nvt_collector *c = arg;
    const struct nvt_collector_daemon_options *o = &c->daemon.opts;
    if (o->on_start != NULL) {
        o->on_start(o->user);
    }
    double interval =
        o->interval_s > 0.0 && o->interval_s < c->interval_s ? o->interval_s : c->interval_s;
    bool active = nvt_collector_activate(c, c->daemon.tag) == NVT_OK;
    double start = clock_monotonic_s();
    while (active && !should_stop(c)) {
        struct nvt_metric *metrics = NULL;
        size_t count = 0;
        /* A failed collect (out of memory) skips one tick. */
        if (nvt_collector_collect(c, &metrics, &count) == NVT_OK) {
            bool go_on = o->on_collect(metrics, count, o->user);
            nvt_metrics_free(metrics);
            if (!go_on) {
                break;
            }
        }
        if (!wait_tick(c, start, interval)) {
            break;
        }
    }
    if (active) {
        (void)nvt_collector_deactivate(c, c->daemon.tag);
    }
    if (o->on_stop != NULL) {
        o->on_stop(o->user);
    }
    pthread_mutex_lock(&c->lock);
    c->daemon.done = true;
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Join a daemon thread that exists; the caller does not hold the lock. */
static void join_daemon(nvt_collector *c) {
    pthread_mutex_lock(&c->lock);
    bool exists = c->daemon.exists;
    c->daemon.stop = true;
    pthread_cond_broadcast(&c->daemon.wake);
    pthread_mutex_unlock(&c->lock);
    if (exists) {
        pthread_join(c->daemon.thread, NULL);
    }
    pthread_mutex_lock(&c->lock);
    c->daemon.exists = false;
    free(c->daemon.tag);
    c->daemon.tag = NULL;
    pthread_mutex_unlock(&c->lock);
}

nvt_status nvt_collector_daemon_start(nvt_collector *c,
                                      const struct nvt_collector_daemon_options *opts) {
    if (c == NULL || opts == NULL || opts->struct_size < ABI_DAEMON_OPTIONS_SIZE_1) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    /* Only what the caller's struct_size covers is read; the rest keeps its default. */
    struct nvt_collector_daemon_options options;
    nvt_collector_daemon_options_init(&options);
    abi_copy(&options, opts, opts->struct_size, sizeof(options));
    opts = &options;
    if (opts->on_collect == NULL || opts->interval_s < 0.0 || isnan(opts->interval_s) ||
        (opts->tag != NULL && opts->tag[0] == '\0')) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->lock);
    bool busy = c->daemon.exists && !c->daemon.done;
    bool finished = c->daemon.exists && c->daemon.done;
    pthread_mutex_unlock(&c->lock);
    if (busy) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    if (finished) { /* it stopped by itself: reap it first */
        join_daemon(c);
    }
    const char *tag = opts->tag != NULL ? opts->tag : DEFAULT_TAG;
    char *copy = str_dup_n(tag, strlen(tag));
    if (copy == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    pthread_mutex_lock(&c->lock);
    c->daemon.opts = *opts;
    c->daemon.opts.tag = copy;
    c->daemon.tag = copy;
    c->daemon.stop = false;
    c->daemon.done = false;
    int rc = pthread_create(&c->daemon.thread, NULL, daemon_thread, c);
    c->daemon.exists = rc == 0;
    if (rc != 0) {
        free(copy);
        c->daemon.tag = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    return rc == 0 ? NVT_OK : NVT_ERR_NO_MEMORY;
}

nvt_status nvt_collector_daemon_stop(nvt_collector *c) {
    if (c == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    join_daemon(c);
    return NVT_OK;
}

void collector_daemon_fini(nvt_collector *c) {
    join_daemon(c);
}
