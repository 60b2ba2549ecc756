#include "driver/sim_state.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver/sim_branch.h"
#include "driver/sim_handle.h"
#include "driver/sim_latency.h"
#include "driver/sim_reload.h"
#include "scenario/scenario.h"

/*
 * The one piece of process-wide state.  The NVML ABI has no context argument, so a driver keeps
 * its state in the library (NVIDIA's does the same).  Everything lives in this struct, guarded
 * by `lock`; the call counters (sim_calls.c) are separate because they are lock-free.
 */
struct sim_driver {
    pthread_rwlock_t lock;
    unsigned int refcount;
    struct sim_model *model;
    struct sim_watch watch;
    double origin_s; /* monotonic time of the first successful init: simulated time 0 */
    bool origin_set;
    unsigned long epoch; /* counts first inits, so a reload never outlives its session */
    bool env_time_set;   /* NVML_SIM_TIME freezes the clock */
    double env_time_s;
    /* Queries each GPU has answered since its model was installed ("lost_after_queries"). */
    atomic_uint device_queries[SIM_MAX_DEVICES];
};

static struct sim_driver sim_driver = {
    .lock = PTHREAD_RWLOCK_INITIALIZER,
    .watch = {.busy = ATOMIC_FLAG_INIT},
};

static void reset_device_queries(struct sim_driver *d) {
    for (size_t i = 0; i < SIM_MAX_DEVICES; i++) {
        atomic_store_explicit(&d->device_queries[i], 0, memory_order_relaxed);
    }
}

static double monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads NVML_SIM_TIME (seconds from the simulator's start, as the scenario's t); a malformed
 * value is reported and ignored. */
static void read_env_time(struct sim_driver *d) {
    const char *text = getenv("NVML_SIM_TIME");
    d->env_time_set = false;
    if (text == NULL || text[0] == '\0') {
        return;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (*end == '\0' && errno == 0 && v > 1e9) {
        /* Most likely `date +%s`: say what the clock counts rather than just the range. */
        fprintf(stderr,
                "nvml-sim: ignoring NVML_SIM_TIME=%s: it counts seconds from the simulator's start "
                "(the first nvmlInit), 0..1e9, not a Unix time\n",
                text);
        return;
    }
    if (*end != '\0' || errno != 0 || !(v >= 0.0 && v <= 1e9)) {
        fprintf(stderr,
                "nvml-sim: ignoring NVML_SIM_TIME=%s (expected seconds from the simulator's start, "
                "0..1e9)\n",
                text);
        return;
    }
    d->env_time_set = true;
    d->env_time_s = v;
}

/* Loads the scenario for the first init; the caller holds the lock exclusively. */
static nvmlReturn_t load_first(struct sim_driver *d) {
    const char *path = getenv("NVML_SIM_SCENARIO");
    if (path == NULL || path[0] == '\0') {
        fprintf(stderr, "nvml-sim: NVML_SIM_SCENARIO is not set; point it at a scenario file "
                        "(see docs/scenarios.md)\n");
        return NVML_ERROR_DRIVER_NOT_LOADED;
    }
    struct sim_file_id id;
    memset(&id, 0, sizeof(id));
    sim_file_identity(path, &id);
    struct sim_model *model = NULL;
    char *message = NULL;
    nvmlReturn_t ret = sim_branch_load(path, &model, &message);
    if (ret != NVML_SUCCESS) {
        fprintf(stderr, "%s\n", message != NULL ? message : "nvml-sim: out of memory");
        free(message);
        if (ret == NVML_ERROR_MEMORY || ret == NVML_ERROR_LIB_RM_VERSION_MISMATCH) {
            return ret;
        }
        return NVML_ERROR_UNKNOWN;
    }
    if (model->init_error != NVML_SUCCESS) {
        ret = model->init_error;
        sim_model_free(model);
        return ret;
    }
    char *copy = strdup(path);
    if (copy == NULL) {
        sim_model_free(model);
        return NVML_ERROR_MEMORY;
    }
    free(d->watch.path);
    d->watch.path = copy;
    d->watch.loaded = id;
    d->watch.has_rejected = false;
    atomic_store(&d->watch.next_check_ns, 0);
    d->model = model;
    reset_device_queries(d);
    d->epoch++;
    read_env_time(d);
    if (!d->origin_set) {
        d->origin_s = monotonic_s();
        d->origin_set = true;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t sim_init(enum sim_call_id id) {
    struct sim_driver *d = &sim_driver;
    sim_calls_count(id);
    pthread_rwlock_wrlock(&d->lock);
    nvmlReturn_t ret = NVML_SUCCESS;
    if (d->refcount == 0) {
        ret = load_first(d);
    }
    double latency_s = 0.0;
    if (ret == NVML_SUCCESS) {
        d->refcount++;
        latency_s = d->model->call_latency_s[id];
    }
    pthread_rwlock_unlock(&d->lock);
    sim_latency_wait(latency_s);
    return ret;
}

static void release_model(struct sim_driver *d) {
    sim_model_free(d->model);
    d->model = NULL;
    free(d->watch.path);
    d->watch.path = NULL;
}

nvmlReturn_t sim_shutdown(void) {
    struct sim_driver *d = &sim_driver;
    sim_calls_count(SIM_CALL_nvmlShutdown);
    pthread_rwlock_wrlock(&d->lock);
    nvmlReturn_t ret = NVML_SUCCESS;
    bool last = false;
    double latency_s = 0.0;
    if (d->refcount == 0) {
        ret = NVML_ERROR_UNINITIALIZED;
    } else {
        latency_s = d->model->call_latency_s[SIM_CALL_nvmlShutdown];
        if (--d->refcount == 0) {
            release_model(d);
            last = true;
        }
    }
    pthread_rwlock_unlock(&d->lock);
    sim_latency_wait(latency_s);
    if (last) {
        sim_calls_dump();
    }
    return ret;
}

/* Installs a reloaded model, unless the session it was read for has ended meanwhile.  Called
 * without the lock; takes it exclusively. */
static void install(struct sim_driver *d, struct sim_model *model, unsigned long epoch) {
    pthread_rwlock_wrlock(&d->lock);
    if (d->refcount > 0 && d->epoch == epoch) {
        struct sim_model *old = d->model;
        d->model = model;
        model = old;
        reset_device_queries(d);
    }
    pthread_rwlock_unlock(&d->lock);
    sim_model_free(model);
}

nvmlReturn_t sim_begin(struct sim_query *q, enum sim_call_id id) {
    struct sim_driver *d = &sim_driver;
    memset(q, 0, sizeof(*q));
    sim_calls_count(id);
    pthread_rwlock_rdlock(&d->lock);
    if (d->refcount > 0) {
        struct sim_model *fresh = sim_watch_poll(&d->watch);
        if (fresh != NULL) {
            unsigned long epoch = d->epoch;
            pthread_rwlock_unlock(&d->lock);
            install(d, fresh, epoch);
            pthread_rwlock_rdlock(&d->lock);
        }
    }
    q->locked = true;
    if (d->refcount == 0) {
        return NVML_ERROR_UNINITIALIZED;
    }
    q->model = d->model;
    q->latency_s = d->model->call_latency_s[id];
    if (d->model->call_error[id] != NVML_SUCCESS) {
        return d->model->call_error[id];
    }
    q->elapsed_s = monotonic_s() - d->origin_s;
    q->frozen = d->env_time_set || d->model->clock_frozen;
    if (d->env_time_set) {
        q->t_s = d->env_time_s;
    } else if (d->model->clock_frozen) {
        q->t_s = d->model->frozen_at_s;
    } else {
        q->t_s = q->elapsed_s;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t sim_begin_device(struct sim_query *q, enum sim_call_id id, nvmlDevice_t device,
                              bool args_ok) {
    nvmlReturn_t ret = sim_begin(q, id);
    if (ret != NVML_SUCCESS) {
        return ret;
    }
    unsigned int index = 0;
    unsigned int slot = 0;
    unsigned int generation = 0;
    if (!sim_handle_decode(device, &index, &slot, &generation) || !args_ok) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    if (index >= q->model->device_count) {
        return NVML_ERROR_GPU_IS_LOST;
    }
    q->index = index;
    q->mig_slot = slot;
    q->device = &q->model->devices[index];
    /* A handle from before the GPU's last reset stays invalid (a reset GPU gets new handles). */
    if (q->device->lost || generation != q->device->resets) {
        return NVML_ERROR_GPU_IS_LOST;
    }
    /* A GPU that falls off the bus in the middle of a snapshot: its first queries answer. */
    if (q->device->lost_after_queries > 0 &&
        atomic_fetch_add_explicit(&sim_driver.device_queries[index], 1, memory_order_relaxed) >=
            q->device->lost_after_queries) {
        return NVML_ERROR_GPU_IS_LOST;
    }
    /* This GPU's own faults: a stall (the longer of the two latencies) and an injected error. */
    if (q->device->has_call_faults) {
        if (q->device->call_latency_s[id] > q->latency_s) {
            q->latency_s = q->device->call_latency_s[id];
        }
        if (q->device->call_error[id] != NVML_SUCCESS) {
            return q->device->call_error[id];
        }
    }
    if (slot > 0) {
        q->mig = &q->device->mig[slot - 1];
        if (!q->mig->present) {
            return NVML_ERROR_GPU_IS_LOST;
        }
    }
    return NVML_SUCCESS;
}

nvmlReturn_t sim_begin_gpu(struct sim_query *q, enum sim_call_id id, nvmlDevice_t device,
                           bool args_ok) {
    nvmlReturn_t ret = sim_begin_device(q, id, device, args_ok);
    if (ret == NVML_SUCCESS && q->mig != NULL) {
        ret = NVML_ERROR_NOT_SUPPORTED;
    }
    return ret;
}

bool sim_device_gone(const struct sim_query *q, unsigned int index) {
    const struct sim_device *dev = &q->model->devices[index];
    return dev->lost || (dev->lost_after_queries > 0 &&
                         atomic_load_explicit(&sim_driver.device_queries[index],
                                              memory_order_relaxed) >= dev->lost_after_queries);
}

unsigned int sim_device_resets(unsigned int index) {
    const struct sim_model *model = sim_driver.model;
    return model != NULL && index < model->device_count ? model->devices[index].resets : 0;
}

nvmlReturn_t sim_end(struct sim_query *q, nvmlReturn_t ret) {
    if (q->locked) {
        pthread_rwlock_unlock(&sim_driver.lock);
        q->locked = false;
    }
    /* After the unlock: a stalled call must not hold up reloads, shutdowns or other threads. */
    sim_latency_wait(q->latency_s);
    q->latency_s = 0.0;
    return ret;
}

/* At exit, dump the counters (a client may never call nvmlShutdown) and free what is left. */
__attribute__((destructor)) static void sim_state_fini(void) {
    struct sim_driver *d = &sim_driver;
    sim_calls_dump();
    pthread_rwlock_wrlock(&d->lock);
    release_model(d);
    d->refcount = 0;
    pthread_rwlock_unlock(&d->lock);
}
