/*
 * nvt_collector: the tag stack, the sampling thread and collect (the daemon is in
 * collector_daemon.c).  Locking rules are in collector_internal.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvitop/collector.h>
#include <nvitop/cuda.h>
#include <nvitop/device.h>
#include <nvitop/snapshot.h>

#include "abi.h"
#include "collector/collector_internal.h"
#include "util/sys/clock.h"

double collector_now(const nvt_collector *c) {
    return c->clock != NULL ? c->clock(c->clock_data) : clock_monotonic_s();
}

double collector_wall(const nvt_collector *c) {
    return c->clock != NULL ? c->clock(c->clock_data) : clock_wall_s();
}

int collector_cond_init(pthread_cond_t *cond) {
    pthread_condattr_t attr;
    int rc = pthread_condattr_init(&attr);
    if (rc != 0) {
        return rc;
    }
    rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (rc == 0) {
        rc = pthread_cond_init(cond, &attr);
    }
    pthread_condattr_destroy(&attr);
    return rc;
}

void collector_wait_until(pthread_cond_t *cond, pthread_mutex_t *mutex, double deadline) {
    struct timespec ts;
    double whole = floor(deadline);
    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((deadline - whole) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_nsec = 999999999L;
    }
    (void)pthread_cond_timedwait(cond, mutex, &ts);
}

/* ---- devices ---------------------------------------------------------------------------- */

static nvt_status resolve_cuda(nvt_context *ctx, const char *value, struct sampler_device **out,
                               size_t *count) {
    struct nvt_cuda_device *cuda = NULL;
    size_t n = 0;
    nvt_status st = nvt_cuda_visible_devices(ctx, value, &cuda, &n);
    if (st != NVT_OK) {
        return st;
    }
    struct sampler_device *devices = malloc((n > 0 ? n : 1) * sizeof(*devices));
    if (devices == NULL) {
        free(cuda);
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        devices[i] = (struct sampler_device){cuda[i].index, cuda[i].mig_index, cuda[i].cuda_index};
    }
    free(cuda);
    *out = devices;
    *count = n;
    return NVT_OK;
}

/* Whether GPU index has a MIG device of MIG index mig (as nvt_device_info() numbers them). */
static bool has_mig(nvt_context *ctx, uint32_t index, uint32_t mig) {
    nvt_device *gpu = NULL;
    if (nvt_device_by_index(ctx, index, &gpu) != NVT_OK) {
        return false;
    }
    uint32_t count = nvt_device_mig_count(gpu);
    for (uint32_t k = 0; k < count; k++) {
        nvt_device *child = NULL;
        if (nvt_device_mig(gpu, k, &child) == NVT_OK) {
            const struct nvt_device_info *info = nvt_device_info(child);
            if (info != NULL && info->mig_index == mig) {
                return true;
            }
        }
    }
    return false;
}

static nvt_status resolve_devices(nvt_context *ctx, const struct nvt_collector_options *opts,
                                  struct sampler_device **out, size_t *count) {
    if (opts->cuda_visible_devices != NULL) {
        return resolve_cuda(ctx, opts->cuda_visible_devices, out, count);
    }
    uint32_t available = nvt_device_count(ctx);
    size_t n = opts->devices != NULL ? opts->device_count : available;
    struct sampler_device *devices = malloc((n > 0 ? n : 1) * sizeof(*devices));
    if (devices == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t index = opts->devices != NULL ? opts->devices[i] : (uint32_t)i;
        uint32_t mig =
            opts->devices != NULL && opts->mig_indices != NULL ? opts->mig_indices[i] : NVT_NA_U32;
        if (index >= available || (!nvt_is_na_u32(mig) && !has_mig(ctx, index, mig))) {
            free(devices);
            return NVT_ERR_INVALID_ARGUMENT;
        }
        devices[i] = (struct sampler_device){index, mig, NVT_NA_U32};
    }
    *out = devices;
    *count = n;
    return NVT_OK;
}

/* ---- create / destroy ------------------------------------------------------------------- */

static nvt_status init_sync(nvt_collector *c) {
    if (pthread_mutex_init(&c->sample_lock, NULL) != 0) {
        return NVT_ERR_NO_MEMORY;
    }
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        pthread_mutex_destroy(&c->sample_lock);
        return NVT_ERR_NO_MEMORY;
    }
    if (collector_cond_init(&c->wake) != 0) {
        pthread_mutex_destroy(&c->lock);
        pthread_mutex_destroy(&c->sample_lock);
        return NVT_ERR_NO_MEMORY;
    }
    if (collector_cond_init(&c->daemon.wake) != 0) {
        pthread_cond_destroy(&c->wake);
        pthread_mutex_destroy(&c->lock);
        pthread_mutex_destroy(&c->sample_lock);
        return NVT_ERR_NO_MEMORY;
    }
    return NVT_OK;
}

nvt_status nvt_collector_create(const struct nvt_collector_options *opts, nvt_collector **out) {
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    /* Only what the caller's struct_size covers is read; the rest keeps its default. */
    struct nvt_collector_options options;
    nvt_collector_options_init(&options);
    if (opts != NULL) {
        if (opts->struct_size < ABI_COLLECTOR_OPTIONS_SIZE_1) {
            return NVT_ERR_INVALID_ARGUMENT;
        }
        abi_copy(&options, opts, opts->struct_size, sizeof(options));
    }
    opts = &options;
    double interval = opts->interval_s == 0.0 ? NVT_COLLECTOR_DEFAULT_INTERVAL_S : opts->interval_s;
    if (!(interval >= NVT_COLLECTOR_MIN_INTERVAL_S) || isinf(interval) ||
        (opts->devices == NULL && opts->device_count > 0) ||
        (opts->root_pids == NULL && opts->root_pid_count > 0) || opts->device_count > UINT32_MAX ||
        opts->root_pid_count > UINT32_MAX) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    nvt_collector *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    c->interval_s = interval;
    c->manual = opts->manual_sampling;
    c->clock = opts->clock;
    c->clock_data = opts->clock_data;
    c->last_sample = -INFINITY;
    nvt_status st = nvt_open(opts->context, &c->ctx);
    if (st != NVT_OK) {
        free(c);
        return st;
    }
    struct sampler_device *devices = NULL;
    size_t device_count = 0;
    st = resolve_devices(c->ctx, opts, &devices, &device_count);
    if (st == NVT_OK) {
        st = sampler_init(&c->sampler, devices, device_count, opts->root_pids, opts->root_pid_count,
                          opts->no_processes);
        free(devices);
    }
    if (st == NVT_OK) {
        st = init_sync(c);
    }
    if (st != NVT_OK) {
        sampler_fini(&c->sampler);
        nvt_close(c->ctx);
        free(c);
        return st;
    }
    *out = c;
    return NVT_OK;
}

void nvt_collector_destroy(nvt_collector *c) {
    if (c == NULL) {
        return;
    }
    collector_daemon_fini(c);
    pthread_mutex_lock(&c->lock);
    c->quit = true;
    pthread_cond_broadcast(&c->wake);
    bool joined = c->thread_started;
    pthread_mutex_unlock(&c->lock);
    if (joined) {
        pthread_join(c->thread, NULL);
    }
    for (size_t i = 0; i < c->depth; i++) {
        metric_buffer_fini(&c->stack[i]);
    }
    free(c->stack);
    sampler_fini(&c->sampler);
    nvt_close(c->ctx);
    pthread_cond_destroy(&c->daemon.wake);
    pthread_cond_destroy(&c->wake);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->sample_lock);
    free(c);
}

double nvt_collector_interval(const nvt_collector *c) {
    return c != NULL ? c->interval_s : NAN;
}

/* ---- sampling --------------------------------------------------------------------------- */

nvt_status nvt_collector_sample(nvt_collector *c) {
    if (c == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->sample_lock);
    struct nvt_snapshot *snap = NULL;
    nvt_status st = nvt_snapshot_take(c->ctx, sampler_flags(&c->sampler), &snap);
    struct metric_sample_view view = {0};
    if (st == NVT_OK) {
        st = sampler_build(&c->sampler, c->ctx, snap, &view);
    }
    if (st == NVT_OK) {
        double now = collector_now(c);
        pthread_mutex_lock(&c->lock);
        for (size_t i = 0; i < c->depth; i++) {
            /* Out of memory in one buffer: the others still get the sample. */
            nvt_status added = metric_buffer_add(&c->stack[i], &view, now);
            st = st == NVT_OK ? added : st;
        }
        c->last_sample = now;
        pthread_mutex_unlock(&c->lock);
    }
    nvt_snapshot_free(snap);
    pthread_mutex_unlock(&c->sample_lock);
    return st;
}

static void *sampling_thread(void *arg) {
    nvt_collector *c = arg;
    pthread_mutex_lock(&c->lock);
    while (!c->quit) {
        if (c->depth == 0) {
            pthread_cond_wait(&c->wake, &c->lock); /* paused: no tag is active */
            continue;
        }
        pthread_mutex_unlock(&c->lock);
        /* A failed sample (out of memory) is skipped; the next one may succeed. */
        (void)nvt_collector_sample(c);
        double deadline = clock_monotonic_s() + c->interval_s;
        pthread_mutex_lock(&c->lock);
        while (!c->quit && c->depth > 0 && clock_monotonic_s() < deadline) {
            collector_wait_until(&c->wake, &c->lock, deadline);
        }
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* ---- tags ------------------------------------------------------------------------------- */

/* Index of tag on the stack, or SIZE_MAX. */
static size_t find_tag(const nvt_collector *c, const char *tag) {
    for (size_t i = 0; i < c->depth; i++) {
        if (strcmp(c->stack[i].tag, tag) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static nvt_status push_tag(nvt_collector *c, const char *tag) {
    if (find_tag(c, tag) != SIZE_MAX) {
        return NVT_ERR_INVALID_ARGUMENT; /* nvitop: "already started with tag" */
    }
    if (c->depth == c->stack_cap) {
        size_t cap = c->stack_cap > 0 ? c->stack_cap * 2 : 4;
        struct metric_buffer *stack = realloc(c->stack, cap * sizeof(*stack));
        if (stack == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        c->stack = stack;
        c->stack_cap = cap;
    }
    const char *parent = c->depth > 0 ? c->stack[c->depth - 1].prefix : NULL;
    struct metric_buffer *b = &c->stack[c->depth];
    nvt_status st = metric_buffer_init(b, parent, tag, collector_now(c));
    if (st != NVT_OK) {
        metric_buffer_fini(b);
        return st;
    }
    c->depth++;
    /* Force a sample at the next collect, as nvitop does. */
    c->last_sample = -INFINITY;
    return NVT_OK;
}

nvt_status nvt_collector_activate(nvt_collector *c, const char *tag) {
    if (c == NULL || tag == NULL || tag[0] == '\0') {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->lock);
    nvt_status st = push_tag(c, tag);
    if (st == NVT_OK && !c->manual && !c->thread_started) {
        if (pthread_create(&c->thread, NULL, sampling_thread, c) != 0) {
            c->depth--;
            metric_buffer_fini(&c->stack[c->depth]);
            st = NVT_ERR_NO_MEMORY;
        } else {
            c->thread_started = true;
        }
    }
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* Where a tag operation applies: the stack index of tag (NULL: the top), or an error. */
static nvt_status locate(const nvt_collector *c, const char *tag, size_t *index) {
    if (c->depth == 0) {
        return tag != NULL ? NVT_ERR_UNINITIALIZED : NVT_ERR_NOT_FOUND;
    }
    *index = tag != NULL ? find_tag(c, tag) : c->depth - 1;
    return *index != SIZE_MAX ? NVT_OK : NVT_ERR_NOT_FOUND;
}

nvt_status nvt_collector_deactivate(nvt_collector *c, const char *tag) {
    if (c == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->lock);
    size_t index = 0;
    nvt_status st = locate(c, tag, &index);
    if (st == NVT_OK) {
        while (c->depth > index) {
            metric_buffer_fini(&c->stack[--c->depth]);
        }
    } else if (st == NVT_ERR_NOT_FOUND && c->depth == 0) {
        st = NVT_OK; /* nothing active and no tag named: nothing to do */
    }
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&c->lock);
    return st;
}

nvt_status nvt_collector_clear(nvt_collector *c, const char *tag) {
    if (c == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->lock);
    size_t index = 0;
    nvt_status st = locate(c, tag, &index);
    if (st == NVT_OK) {
        double now = collector_now(c);
        for (size_t i = index; i < c->depth; i++) {
            metric_buffer_clear(&c->stack[i], now);
        }
        /* An emptied buffer has no keys until the next sample: take one at the next collect. */
        c->last_sample = -INFINITY;
    } else if (st == NVT_ERR_NOT_FOUND && c->depth == 0) {
        st = NVT_OK;
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* ---- collect ---------------------------------------------------------------------------- */

nvt_status nvt_collector_collect(nvt_collector *c, struct nvt_metric **out, size_t *count) {
    if (c == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&c->lock);
    bool active = c->depth > 0;
    bool stale = collector_now(c) - c->last_sample > c->interval_s;
    pthread_mutex_unlock(&c->lock);
    if (!active) {
        return NVT_ERR_UNINITIALIZED;
    }
    if (stale) {
        nvt_status st = nvt_collector_sample(c);
        if (st != NVT_OK) {
            return st;
        }
    }
    pthread_mutex_lock(&c->lock);
    nvt_status st = NVT_ERR_UNINITIALIZED; /* another thread may have popped every tag */
    if (c->depth > 0) {
        st = metric_buffer_collect(&c->stack[c->depth - 1], collector_now(c), collector_wall(c),
                                   out, count);
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}

void nvt_metrics_free(struct nvt_metric *metrics) {
    free(metrics);
}
