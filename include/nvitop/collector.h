/*
 * The resource metric collector (nvitop's ResourceMetricCollector, docs/nvitop-behaviour.md §5.10):
 * host, device and per-process metrics sampled in the background and summarised per tag as
 * time-weighted mean, min, max and last value.
 *
 * A collector owns its own context (a context is one thread at a time) and a sampling thread.
 * Every function below may be called from any thread at any time, concurrently, unless it says
 * otherwise; results are handed out as copies the caller owns.
 *
 * Keys look like "<prefix>/<scope>/<metric (unit)>/<mean|min|max|last>" where the prefix is the
 * active tags joined by "/" ("train/epoch"), and the scope is "host", a device ("gpu:0",
 * "gpu:(0, 1)" for a MIG device, "cuda:0 (gpu:3)" in CUDA order) or a process
 * ("pid:1234/host", "pid:1234/gpu:0").  Each collect also gives "<prefix>/duration (s)" and
 * "<prefix>/timestamp".  docs/api.md lists every metric.
 *
 * Manual: nvt_collector(3); overview libnvitop(3).
 */
#ifndef NVITOP_COLLECTOR_H
#define NVITOP_COLLECTOR_H

#include <nvitop/common.h>
#include <nvitop/context.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nvt_collector nvt_collector;

/* The shortest sampling interval accepted (seconds), and the default one. */
#define NVT_COLLECTOR_MIN_INTERVAL_S     0.25
#define NVT_COLLECTOR_DEFAULT_INTERVAL_S 1.0

/* A clock: seconds since the epoch.  Called from any thread that samples or collects, with a lock
 * of the collector held: it must not call the collector. */
typedef double (*nvt_collector_clock_fn)(void *clock_data);

/* Set up with nvt_collector_options_init(), which records this program's struct size in
 * struct_size, then change the fields you need: a library of a later minor version may have more
 * fields and reads only the ones your struct_size covers (docs/api.md, "ABI and versioning"). */
struct nvt_collector_options {
    size_t struct_size; /* sizeof(struct nvt_collector_options) of the caller: _init() sets it */
    /* Options of the collector's own context; NULL for defaults. */
    const struct nvt_options *context;
    /* Physical GPUs to follow, by NVML index (their MIG devices are followed too), named
     * "gpu:<index>".  NULL with device_count 0: every GPU. */
    const uint32_t *devices;
    size_t device_count;
    /* When not NULL, follow the devices CUDA would see for this CUDA_VISIBLE_DEVICES value
     * instead (nvt_cuda_visible_devices), named "cuda:<cuda index> (gpu:<index>)". */
    const char *cuda_visible_devices;
    /* Processes to follow: GPU processes that are one of these or a descendant of one, re-read as
     * processes fork and exit.  NULL with root_pid_count 0: this process.  {1}: every process.
     * no_processes: none at all (host and devices only). */
    const uint32_t *root_pids;
    size_t root_pid_count;
    bool no_processes;
    /* Seconds between samples: 0 for NVT_COLLECTOR_DEFAULT_INTERVAL_S, else at least
     * NVT_COLLECTOR_MIN_INTERVAL_S. */
    double interval_s;
    /* No sampling thread: samples are taken only by nvt_collector_sample() and by a collect that
     * finds the last sample older than the interval (or none since a tag was activated).  For tests
     * that need to know exactly when samples happen, and for callers with their own timer. */
    bool manual_sampling;
    /* The clock of the statistics and of "<prefix>/timestamp".  NULL: CLOCK_MONOTONIC for the
     * statistics (immune to clock changes) and CLOCK_REALTIME for the timestamp.  Tests pass a
     * frozen one.  The sampling thread still waits on the real monotonic clock. */
    nvt_collector_clock_fn clock;
    void *clock_data;
    /* Since 0.2.  With devices: when not NULL, mig_indices[i] is the MIG index (nvt_device_info's
     * mig_index) of one MIG device of GPU devices[i] to follow instead of the whole GPU, named
     * "gpu:(<index>, <mig index>)" as nvitop names a MIG device it is given; NVT_NA_U32 follows
     * the whole GPU.  A MIG index the GPU does not have: NVT_ERR_INVALID_ARGUMENT. */
    const uint32_t *mig_indices;
};

/* Defaults for every field (all NULL / 0 / false: every GPU, this process and its descendants,
 * NVT_COLLECTOR_DEFAULT_INTERVAL_S, a sampling thread) and struct_size for this program's headers.
 * Inline, so that the size is the caller's; pure. */
static inline void nvt_collector_options_init(struct nvt_collector_options *opts) {
    memset(opts, 0, sizeof(*opts));
    opts->struct_size = sizeof(struct nvt_collector_options);
}

/* One collected value.  value is NaN when the metric was never available. */
struct nvt_metric {
    const char *key; /* points into the same allocation */
    double value;
};

/*
 * Create a collector: opens its own context and resolves the devices.  opts may be NULL for the
 * defaults (every GPU, this process and its descendants, 1 s); otherwise it is set up with
 * nvt_collector_options_init().  Nothing is sampled until a tag is activated.  On success *out
 * receives a collector freed with nvt_collector_destroy().  Failures: NVT_ERR_INVALID_ARGUMENT
 * (a struct_size smaller than the first release's struct, interval below the minimum, a device
 * index out of range), the statuses of nvt_open() and nvt_cuda_visible_devices(),
 * NVT_ERR_NO_MEMORY.  Thread-safe.
 */
NVT_API nvt_status nvt_collector_create(const struct nvt_collector_options *opts,
                                        nvt_collector **out);

/*
 * Stop the sampling thread and any daemon (waiting for their callbacks to return), close the
 * context and free everything.  Accepts NULL.  Call it once, when no other thread uses the
 * collector, and never from a daemon callback.
 */
NVT_API void nvt_collector_destroy(nvt_collector *collector);

/*
 * Push a tag: a new statistics buffer whose keys are prefixed by the enclosing tags and this one
 * ("train" then "batch" gives "train/batch/...").  Samples go to every buffer on the stack.  As in
 * nvitop, the next collect takes a fresh sample; the sampling thread is started (or woken).  tag
 * must be non-empty.  NVT_ERR_INVALID_ARGUMENT for an empty tag or one already on the stack,
 * NVT_ERR_NO_MEMORY.
 */
NVT_API nvt_status nvt_collector_activate(nvt_collector *collector, const char *tag);

/*
 * Pop tags from the top down to and including tag (NULL: the top one).  When the stack empties
 * the sampling thread pauses.  NVT_ERR_UNINITIALIZED when no tag is active and tag is not NULL
 * (NULL then does nothing and returns NVT_OK), NVT_ERR_NOT_FOUND for a tag not on the stack.
 */
NVT_API nvt_status nvt_collector_deactivate(nvt_collector *collector, const char *tag);

/*
 * Restart the statistics of the buffers from the top down to and including tag (NULL: the top
 * one); the next collect takes a fresh sample (unlike nvitop, whose collect right after a clear
 * can return no metric at all).  Same errors as nvt_collector_deactivate().  Any thread.
 */
NVT_API nvt_status nvt_collector_clear(nvt_collector *collector, const char *tag);

/*
 * The statistics of the innermost tag, taking a sample first when the last one is older than the
 * interval.  On success *out is one allocation of *count metrics (keys included) the caller frees
 * with nvt_metrics_free().  NVT_ERR_UNINITIALIZED when no tag is active, NVT_ERR_NO_MEMORY.
 * Any thread, also several at once (each gets its own copy).
 */
NVT_API nvt_status nvt_collector_collect(nvt_collector *collector, struct nvt_metric **out,
                                         size_t *count);

/* Free what nvt_collector_collect() returned.  Accepts NULL.  Any thread, once per result. */
NVT_API void nvt_metrics_free(struct nvt_metric *metrics);

/*
 * Take one sample now and add it to every active buffer (nothing is kept when no tag is active).
 * Fails only with NVT_ERR_NO_MEMORY.  Any thread.
 */
NVT_API nvt_status nvt_collector_sample(nvt_collector *collector);

/* The sampling interval in seconds.  Never fails.  Any thread. */
NVT_API double nvt_collector_interval(const nvt_collector *collector);

/*
 * A daemon (nvitop's collect_in_background / daemonize): a thread of the collector's that calls
 * on_start(user) once, activates tag, then every interval_s seconds (fixed-rate ticks) calls
 * on_collect(metrics, count, user) with the results of a collect, until on_collect returns false
 * or nvt_collector_daemon_stop() is called; it then deactivates tag and calls on_stop(user).
 * The metrics passed to on_collect are valid only during the call.  on_start and on_stop may be
 * NULL.  Callbacks run on the daemon thread and must not call nvt_collector_destroy() or
 * nvt_collector_daemon_stop().
 */
typedef bool (*nvt_collector_on_collect_fn)(const struct nvt_metric *metrics, size_t count,
                                            void *user);
typedef void (*nvt_collector_hook_fn)(void *user);

/* Set up with nvt_collector_daemon_options_init() (struct_size as for nvt_collector_options), then
 * set on_collect and the fields you need.
 *
 * **The daemon's period is min(interval_s, the collector's interval), as in nvitop: an interval_s
 * longer than the collector's does not slow the daemon down; 0 means the collector's.** */
struct nvt_collector_daemon_options {
    size_t struct_size; /* sizeof(struct nvt_collector_daemon_options) of the caller */
    const char *tag;    /* NULL: "metrics-daemon" */
    double interval_s;  /* 0: the collector's interval; else min(this, the collector's), > 0 */
    nvt_collector_on_collect_fn on_collect; /* required */
    nvt_collector_hook_fn on_start;
    nvt_collector_hook_fn on_stop;
    void *user;
};

/* Defaults for every field (NULL / 0: tag "metrics-daemon", the collector's interval, no
 * callbacks) and struct_size for this program's headers.  Inline, so that the size is the
 * caller's; pure. */
static inline void nvt_collector_daemon_options_init(struct nvt_collector_daemon_options *opts) {
    memset(opts, 0, sizeof(*opts));
    opts->struct_size = sizeof(struct nvt_collector_daemon_options);
}

/*
 * Start the daemon.  opts is required (set up with nvt_collector_daemon_options_init(), with
 * on_collect set).  One daemon per collector: NVT_ERR_INVALID_ARGUMENT when one is running (or
 * for bad options, a struct_size smaller than the first release's struct included),
 * NVT_ERR_NO_MEMORY when the thread cannot be created.
 */
NVT_API nvt_status nvt_collector_daemon_start(nvt_collector *collector,
                                              const struct nvt_collector_daemon_options *opts);

/*
 * Ask the daemon to stop and wait for it (its last on_collect and on_stop return first).  Returns
 * NVT_OK also when no daemon runs (or it stopped by itself).  Any thread but the daemon's own
 * (a callback must not call it).
 */
NVT_API nvt_status nvt_collector_daemon_stop(nvt_collector *collector);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_COLLECTOR_H */
