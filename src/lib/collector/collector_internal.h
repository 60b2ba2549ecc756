/*
 * The collector's private state, shared by collector.c (tags, sampling, collect) and
 * collector_daemon.c (the callback thread).
 *
 * Locks: sample_lock serialises use of the context and the sampler (a context is one thread at a
 * time) and is held across a whole sample, so samples reach the buffers in time order; lock guards
 * everything else.  Order: sample_lock before lock.  Neither is held while a user callback runs.
 */
#ifndef NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_INTERNAL_H
#define NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include <nvitop/collector.h>

#include "collector/collector_sample.h"
#include "collector/metric_buffer.h"

struct collector_daemon {
    pthread_t thread;
    bool exists; /* created and not yet joined */
    bool done;   /* the thread has finished (joinable without waiting) */
    bool stop;   /* asked to stop */
    pthread_cond_t wake;
    struct nvt_collector_daemon_options opts;
    char *tag;
};

struct nvt_collector {
    nvt_context *ctx;
    double interval_s;
    bool manual;
    nvt_collector_clock_fn clock;
    void *clock_data;

    pthread_mutex_t sample_lock;
    struct sampler sampler;

    pthread_mutex_t lock;
    pthread_cond_t wake;         /* the sampling thread: a tag was pushed, or quit */
    struct metric_buffer *stack; /* stack[0] is the outermost tag */
    size_t depth;
    size_t stack_cap;
    double last_sample; /* clock time of the last sample; -inf forces one */
    bool thread_started;
    bool quit;
    pthread_t thread;
    struct collector_daemon daemon;
};

/* The collector's clock (monotonic by default) and wall clock (the epoch; the same injected clock
 * when one is given). */
double collector_now(const nvt_collector *c);
double collector_wall(const nvt_collector *c);

/* A timed wait on a condition created with the monotonic clock: until deadline (seconds of
 * CLOCK_MONOTONIC).  The mutex is held on entry and exit. */
void collector_wait_until(pthread_cond_t *cond, pthread_mutex_t *mutex, double deadline);

/* Initialise a condition variable that waits on CLOCK_MONOTONIC.  Returns 0 or an errno. */
int collector_cond_init(pthread_cond_t *cond);

/* Stop and join the daemon if one exists (from destroy). */
void collector_daemon_fini(nvt_collector *c);

#endif /* NVITOP_SRC_LIB_COLLECTOR_COLLECTOR_INTERNAL_H */
