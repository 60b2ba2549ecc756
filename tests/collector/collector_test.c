/*
 * The metric collector against the simulated driver, through the real dlopen path: tags, nvitop's
 * keys and units, mean/min/max/last over known values with the simulator's time frozen and the
 * collector's clock injected, a process that exits mid-window, a forked grandchild picked up,
 * CUDA naming, a MIG subset, the daemon, and concurrent collects from several threads (run under
 * TSan too, see CMakeLists.txt).
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define EPS        1e-6
#define DEADLINE_S 10.0

struct fixture {
    char *dir;
    char path[4096];
    char *original;
    nvt_collector *collector; /* destroyed by the teardown, also when a test fails half-way */
    pid_t children[4];
    double now; /* the injected clock */
};

static double fake_clock(void *data) {
    const struct fixture *f = data;
    return f->now;
}

static char *scenario_source(void) {
    char path[4096];
    const char *src = getenv("NVT_SOURCE_DIR");
    snprintf(path, sizeof(path), "%s/tests/collector/scenarios/collector.json",
             src != NULL ? src : ".");
    return tu_read_file(path);
}

static int setup(void **state) {
    static struct fixture f;
    memset(&f, 0, sizeof(f));
    f.dir = tu_temp_dir();
    snprintf(f.path, sizeof(f.path), "%s/collector.json", f.dir);
    f.original = scenario_source();
    tu_write_file(f.path, f.original);
    tu_use_scenario(f.path);
    setenv("NVML_SIM_TIME", "100", 1);
    unsetenv("NVT_COLL_PID");
    f.now = 1000.0;
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    nvt_collector_destroy(f->collector);
    f->collector = NULL;
    for (size_t i = 0; i < sizeof(f->children) / sizeof(f->children[0]); i++) {
        if (f->children[i] > 0) {
            kill(f->children[i], SIGKILL);
            waitpid(f->children[i], NULL, 0);
        }
    }
    tu_remove_tree(f->dir);
    free(f->dir);
    free(f->original);
    return 0;
}

/* Create with the injected clock, unless real_clock (threads other than the test's then read the
 * clock, and the test's own writes of f->now would race with them). */
static nvt_collector *create_with(struct fixture *f, struct nvt_collector_options *opts,
                                  bool real_clock) {
    if (!real_clock) {
        opts->clock = fake_clock;
        opts->clock_data = f;
    }
    nvt_status st = nvt_collector_create(opts, &f->collector);
    if (st != NVT_OK) {
        fail_msg("nvt_collector_create: %s", nvt_strerror(st));
    }
    return f->collector;
}

static nvt_collector *create(struct fixture *f, struct nvt_collector_options *opts) {
    return create_with(f, opts, false);
}

/* Options set up as docs/api.md asks (nvt_collector_options_init()), for the caller to change. */
static struct nvt_collector_options options(void) {
    struct nvt_collector_options opts;
    nvt_collector_options_init(&opts);
    return opts;
}

/* The value of key in a collect, failing the test when absent. */
static double value_of(const struct nvt_metric *m, size_t n, const char *key) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(m[i].key, key) == 0) {
            return m[i].value;
        }
    }
    fail_msg("no key \"%s\" among %zu", key, n);
    return NAN;
}

static bool has_prefix(const struct nvt_metric *m, size_t n, const char *prefix) {
    for (size_t i = 0; i < n; i++) {
        if (strncmp(m[i].key, prefix, strlen(prefix)) == 0) {
            return true;
        }
    }
    return false;
}

/* Wait until the simulator (shared by every context of this process) reports this memory use on
 * GPU 0, so that the collector's next sample sees the rewrite. */
static void wait_for_memory_used(uint64_t mib) {
    nvt_context *probe = tu_open(getenv("NVML_SIM_SCENARIO"));
    nvt_device *dev = NULL;
    assert_int_equal(nvt_device_by_index(probe, 0, &dev), NVT_OK);
    double deadline = tu_now() + DEADLINE_S;
    struct nvt_device_state st;
    nvt_device_state_init(&st);
    do {
        assert_int_equal(nvt_device_state(dev, NVT_SAMPLE_DEVICES, &st), NVT_OK);
        if (st.memory_used_bytes == mib << 20) {
            break;
        }
        usleep(20000);
    } while (tu_now() < deadline);
    nvt_close(probe);
    assert_int_equal(st.memory_used_bytes, mib << 20);
}

static void rewrite(struct fixture *f, const char *from, const char *to) {
    char *changed = tu_replace(f->original, from, to);
    tu_write_file(f->path, changed);
    free(changed);
}

static void test_bad_options(void **state) {
    struct fixture *f = *state;
    struct nvt_collector_options opts = options();
    opts.interval_s = 0.1;
    nvt_collector *c = NULL;
    assert_int_equal(nvt_collector_create(&opts, &c), NVT_ERR_INVALID_ARGUMENT);
    uint32_t devices[] = {5};
    opts = options();
    opts.devices = devices;
    opts.device_count = 1;
    assert_int_equal(nvt_collector_create(&opts, &c), NVT_ERR_INVALID_ARGUMENT);
    assert_null(c);
    /* Options not set up by nvt_collector_options_init() (struct_size 0), or shorter than the first
     * release's struct, are refused even when every field is valid. */
    opts = (struct nvt_collector_options){.manual_sampling = true};
    assert_int_equal(nvt_collector_create(&opts, &c), NVT_ERR_INVALID_ARGUMENT);
    opts.struct_size = offsetof(struct nvt_collector_options, clock_data);
    assert_int_equal(nvt_collector_create(&opts, &c), NVT_ERR_INVALID_ARGUMENT);
    assert_null(c);
    opts = options();
    opts.manual_sampling = true;
    c = create(f, &opts);
    assert_float_equal(nvt_collector_interval(c), 1.0, EPS);
    assert_int_equal(nvt_collector_activate(c, ""), NVT_ERR_INVALID_ARGUMENT);
}

static void test_tags(void **state) {
    struct fixture *f = *state;
    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    nvt_collector *c = create(f, &opts);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_ERR_UNINITIALIZED);
    assert_int_equal(nvt_collector_deactivate(c, NULL), NVT_OK); /* nothing to stop */
    assert_int_equal(nvt_collector_deactivate(c, "train"), NVT_ERR_UNINITIALIZED);
    assert_int_equal(nvt_collector_clear(c, "train"), NVT_ERR_UNINITIALIZED);

    assert_int_equal(nvt_collector_activate(c, "train"), NVT_OK);
    assert_int_equal(nvt_collector_activate(c, "batch"), NVT_OK);
    assert_int_equal(nvt_collector_activate(c, "train"), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_collector_deactivate(c, "nope"), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_collector_clear(c, "nope"), NVT_ERR_NOT_FOUND);
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_float_equal(value_of(m, n, "train/batch/gpu:0/temperature (C)/mean"), 60.0, EPS);
    assert_false(has_prefix(m, n, "train/gpu:0"));
    nvt_metrics_free(m);

    assert_int_equal(nvt_collector_deactivate(c, NULL), NVT_OK); /* pops "batch" */
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_float_equal(value_of(m, n, "train/gpu:0/temperature (C)/mean"), 60.0, EPS);
    assert_false(has_prefix(m, n, "train/batch/"));
    nvt_metrics_free(m);

    /* Popping an outer tag pops the inner ones too. */
    assert_int_equal(nvt_collector_activate(c, "epoch"), NVT_OK);
    assert_int_equal(nvt_collector_activate(c, "step"), NVT_OK);
    assert_int_equal(nvt_collector_deactivate(c, "epoch"), NVT_OK);
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_true(has_prefix(m, n, "train/gpu:0/"));
    assert_false(has_prefix(m, n, "train/epoch"));
    nvt_metrics_free(m);
    assert_int_equal(nvt_collector_deactivate(c, "train"), NVT_OK);
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_ERR_UNINITIALIZED);
}

/* Every scope's keys with nvitop's names and units. */
static void test_keys_and_units(void **state) {
    struct fixture *f = *state;
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_COLL_PID", pid, 1); /* the test itself is the GPU process */
    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    nvt_collector *c = create(f, &opts);
    assert_int_equal(nvt_collector_activate(c, "t"), NVT_OK);
    f->now += 2.0;
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    static const char *const host[] = {"cpu_percent (%)", "memory_percent (%)", "swap_percent (%)",
                                       "memory_used (GiB)"};
    char key[256];
    for (size_t i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "t/host/%s/mean", host[i]);
        assert_false(isnan(value_of(m, n, key)));
    }
    assert_float_equal(value_of(m, n, "t/gpu:0/memory_used (MiB)/mean"), 1024.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/memory_total (MiB)/max"), 24576.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/memory_free (MiB)/min"), 23552.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/memory_percent (%)/last"), 4.2, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/gpu_utilization (%)/mean"), 50.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/memory_utilization (%)/mean"), 20.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/fan_speed (%)/mean"), 40.0, EPS);
    assert_float_equal(value_of(m, n, "t/gpu:0/power_usage (W)/mean"), 200.0, EPS);
    assert_true(isnan(value_of(m, n, "t/gpu:1/fan_speed (%)/mean"))); /* passively cooled */
    assert_float_equal(value_of(m, n, "t/gpu:(1, 0)/memory_used (MiB)/mean"), 10000.0, EPS);
    snprintf(key, sizeof(key), "t/pid:%s/gpu:0/gpu_memory (MiB)/mean", pid);
    assert_float_equal(value_of(m, n, key), 512.0, EPS);
    snprintf(key, sizeof(key), "t/pid:%s/gpu:0/gpu_memory_percent (%%)/mean", pid);
    assert_float_equal(value_of(m, n, key), 2.1, EPS);
    snprintf(key, sizeof(key), "t/pid:%s/gpu:0/gpu_sm_utilization (%%)/mean", pid);
    assert_float_equal(value_of(m, n, key), 30.0, EPS);
    snprintf(key, sizeof(key), "t/pid:%s/gpu:0/gpu_memory_utilization (%%)/mean", pid);
    assert_float_equal(value_of(m, n, key), 10.0, EPS);
    snprintf(key, sizeof(key), "t/pid:%s/host/host_memory (MiB)/max", pid);
    assert_true(value_of(m, n, key) > 0.0);
    snprintf(key, sizeof(key), "t/pid:%s/host/running_time (min)", pid);
    assert_true(value_of(m, n, key) >= 0.0);
    /* pid 1 is no descendant of this process. */
    assert_false(has_prefix(m, n, "t/pid:1/"));
    assert_float_equal(value_of(m, n, "t/duration (s)"), 2.0, EPS);
    assert_float_equal(value_of(m, n, "t/timestamp"), 1002.0, EPS);
    nvt_metrics_free(m);
}

/* Known values, frozen time: memory 1024 MiB from 1000 (start) to 1002, then 3072 MiB at 1006,
 * collected at 1010.  A process that exits after the first sample keeps its statistics. */
static void test_statistics_and_exit(void **state) {
    struct fixture *f = *state;
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    f->children[0] = child;
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)child);
    setenv("NVT_COLL_PID", pid, 1);
    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    opts.interval_s = 100.0;
    nvt_collector *c = create(f, &opts);
    assert_int_equal(nvt_collector_activate(c, "run"), NVT_OK);
    f->now = 1002.0;
    assert_int_equal(nvt_collector_sample(c), NVT_OK);

    /* GPU 0 now uses 3072 MiB and the child is gone. */
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    f->children[0] = 0;
    char *changed = tu_replace(f->original, "\"used_mib\": 1024", "\"used_mib\": 3072");
    char *gone = tu_replace(changed,
                            "{ \"pid\": \"${NVT_COLL_PID:-4194300}\", \"type\": \"compute\", "
                            "\"used_mib\": 512, \"sm\": 30, \"mem\": 10 },",
                            "");
    tu_write_file(f->path, gone);
    free(changed);
    free(gone);
    wait_for_memory_used(3072);
    f->now = 1006.0;
    assert_int_equal(nvt_collector_sample(c), NVT_OK);
    f->now = 1010.0;
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    /* (1024*2 + (1024+3072)/2*4 + 3072*4) / 10 */
    assert_float_equal(value_of(m, n, "run/gpu:0/memory_used (MiB)/mean"), 2252.8, EPS);
    assert_float_equal(value_of(m, n, "run/gpu:0/memory_used (MiB)/min"), 1024.0, EPS);
    assert_float_equal(value_of(m, n, "run/gpu:0/memory_used (MiB)/max"), 3072.0, EPS);
    assert_float_equal(value_of(m, n, "run/gpu:0/memory_used (MiB)/last"), 3072.0, EPS);
    assert_float_equal(value_of(m, n, "run/gpu:0/temperature (C)/mean"), 60.0, EPS);
    /* The child: one sample of 512 MiB at 1002, held since 1000, then missing. */
    char key[256];
    snprintf(key, sizeof(key), "run/pid:%s/gpu:0/gpu_memory (MiB)/mean", pid);
    assert_float_equal(value_of(m, n, key), 512.0, EPS);
    snprintf(key, sizeof(key), "run/pid:%s/gpu:0/gpu_memory (MiB)/last", pid);
    assert_float_equal(value_of(m, n, key), 512.0, EPS);
    nvt_metrics_free(m);

    /* A clear forgets the exited process. */
    assert_int_equal(nvt_collector_clear(c, NULL), NVT_OK);
    assert_int_equal(nvt_collector_sample(c), NVT_OK);
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    snprintf(key, sizeof(key), "run/pid:%s/", pid);
    assert_false(has_prefix(m, n, key));
    assert_float_equal(value_of(m, n, "run/gpu:0/memory_used (MiB)/mean"), 3072.0, EPS);
    nvt_metrics_free(m);
}

/* A grandchild forked after the collector started is followed once the driver lists it. */
static void test_forked_grandchild(void **state) {
    struct fixture *f = *state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(fds[0]);
        pid_t grandchild = fork();
        if (grandchild == 0) {
            pause();
            _exit(0);
        }
        int gc = (int)grandchild;
        (void)!write(fds[1], &gc, sizeof(gc));
        pause();
        _exit(0);
    }
    close(fds[1]);
    f->children[0] = child;
    int grandchild = 0;
    assert_int_equal(read(fds[0], &grandchild, sizeof(grandchild)), (ssize_t)sizeof(grandchild));
    close(fds[0]);
    f->children[1] = grandchild;

    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    nvt_collector *c = create(f, &opts);
    assert_int_equal(nvt_collector_activate(c, "job"), NVT_OK);
    assert_int_equal(nvt_collector_sample(c), NVT_OK);
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", grandchild);
    setenv("NVT_COLL_PID", pid, 1); /* read when the simulator reloads the file */
    rewrite(f, "\"used_mib\": 1024", "\"used_mib\": 1025");
    wait_for_memory_used(1025);
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "job/pid:%s/gpu:0/", pid);
    f->now += 1.0;
    assert_int_equal(nvt_collector_sample(c), NVT_OK);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_true(has_prefix(m, n, prefix));
    nvt_metrics_free(m);
    /* The grandchild is killed (its parent, the child, still reaps it). */
    kill(grandchild, SIGKILL);
    f->children[1] = 0;
}

static void test_all_processes_and_cuda_names(void **state) {
    struct fixture *f = *state;
    uint32_t all[] = {1};
    struct nvt_options ctx_opts;
    nvt_options_init(&ctx_opts);
    ctx_opts.cuda_library_path = ""; /* pure NVML resolution */
    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    opts.root_pids = all;
    opts.root_pid_count = 1;
    opts.cuda_visible_devices = "0";
    opts.context = &ctx_opts;
    nvt_collector *c = create(f, &opts);
    assert_int_equal(nvt_collector_activate(c, "c"), NVT_OK);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_float_equal(value_of(m, n, "c/cuda:0 (gpu:0)/memory_used (MiB)/mean"), 1024.0, EPS);
    assert_float_equal(value_of(m, n, "c/pid:1/cuda:0 (gpu:0)/gpu_memory (MiB)/mean"), 8.0, EPS);
    assert_false(has_prefix(m, n, "c/gpu:1/"));
    nvt_metrics_free(m);
}

/* A MIG device named directly (mig_indices) is followed alone, under nvitop's name for a MIG
 * device it is given; a MIG index the GPU lacks is refused. */
static void test_mig_subset(void **state) {
    struct fixture *f = *state;
    static const uint32_t gpus[] = {0, 1};
    static const uint32_t migs[] = {NVT_NA_U32, 0};
    struct nvt_collector_options opts = options();
    opts.manual_sampling = true;
    opts.no_processes = true;
    opts.devices = gpus;
    opts.device_count = 2;
    opts.mig_indices = migs;
    nvt_collector *c = create(f, &opts);
    assert_int_equal(nvt_collector_activate(c, "m"), NVT_OK);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_float_equal(value_of(m, n, "m/gpu:0/memory_used (MiB)/mean"), 1024.0, EPS);
    assert_float_equal(value_of(m, n, "m/gpu:(1, 0)/memory_used (MiB)/mean"), 10000.0, EPS);
    assert_float_equal(value_of(m, n, "m/gpu:(1, 0)/memory_total (MiB)/mean"), 19968.0, EPS);
    assert_false(has_prefix(m, n, "m/gpu:1/"));
    nvt_metrics_free(m);

    static const uint32_t missing[] = {NVT_NA_U32, 5};
    opts.mig_indices = missing;
    nvt_collector *bad = NULL;
    assert_int_equal(nvt_collector_create(&opts, &bad), NVT_ERR_INVALID_ARGUMENT);
    assert_null(bad);
    static const uint32_t not_mig[] = {0, NVT_NA_U32};
    opts.mig_indices = not_mig; /* GPU 0 has no MIG device 0 */
    assert_int_equal(nvt_collector_create(&opts, &bad), NVT_ERR_INVALID_ARGUMENT);
}

/* Written by the daemon thread, read by the test's: atomics. */
struct daemon_probe {
    atomic_int starts;
    atomic_int stops;
    atomic_int collects;
    atomic_bool prefix_ok;
};

static void probe_init(struct daemon_probe *p) {
    atomic_init(&p->starts, 0);
    atomic_init(&p->stops, 0);
    atomic_init(&p->collects, 0);
    atomic_init(&p->prefix_ok, true);
}

static bool on_collect(const struct nvt_metric *m, size_t n, void *user) {
    struct daemon_probe *p = user;
    int collects = ++p->collects;
    if (n == 0 || !has_prefix(m, n, "metrics-daemon/gpu:0/")) {
        p->prefix_ok = false;
    }
    return collects < 3;
}

static void on_start(void *user) {
    ((struct daemon_probe *)user)->starts++;
}

static void on_stop(void *user) {
    ((struct daemon_probe *)user)->stops++;
}

static void test_daemon(void **state) {
    struct fixture *f = *state;
    struct nvt_collector_options opts = options();
    opts.interval_s = 0.25;
    nvt_collector *c = create_with(f, &opts, true);
    struct daemon_probe probe;
    probe_init(&probe);
    /* Daemon options not set up by nvt_collector_daemon_options_init(), or too short, are
     * refused. */
    struct nvt_collector_daemon_options d = {
        .on_collect = on_collect, .on_start = on_start, .on_stop = on_stop, .user = &probe};
    assert_int_equal(nvt_collector_daemon_start(c, &d), NVT_ERR_INVALID_ARGUMENT);
    d.struct_size = offsetof(struct nvt_collector_daemon_options, user);
    assert_int_equal(nvt_collector_daemon_start(c, &d), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(probe.starts, 0);
    nvt_collector_daemon_options_init(&d);
    d.on_collect = on_collect;
    d.on_start = on_start;
    d.on_stop = on_stop;
    d.user = &probe;
    assert_int_equal(nvt_collector_daemon_start(c, &d), NVT_OK);
    assert_int_equal(nvt_collector_daemon_start(c, &d), NVT_ERR_INVALID_ARGUMENT);
    /* It stops by itself after its third collect (on_collect returns false). */
    double deadline = tu_now() + DEADLINE_S;
    while (tu_now() < deadline) {
        struct nvt_metric *m = NULL;
        size_t n = 0;
        if (nvt_collector_collect(c, &m, &n) == NVT_ERR_UNINITIALIZED && probe.stops == 1) {
            break;
        }
        nvt_metrics_free(m);
        usleep(20000);
    }
    assert_int_equal(nvt_collector_daemon_stop(c), NVT_OK);
    assert_int_equal(probe.starts, 1);
    assert_int_equal(probe.stops, 1);
    assert_int_equal(probe.collects, 3);
    assert_true(probe.prefix_ok);
    /* Again, stopped from outside this time. */
    probe_init(&probe);
    assert_int_equal(nvt_collector_daemon_start(c, &d), NVT_OK);
    deadline = tu_now() + DEADLINE_S;
    while (probe.collects == 0 && tu_now() < deadline) {
        usleep(10000);
    }
    assert_int_equal(nvt_collector_daemon_stop(c), NVT_OK);
    assert_int_equal(probe.stops, 1);
    assert_true(probe.collects >= 1 && probe.collects <= 3);
    /* The daemon's tag is gone with it. */
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_ERR_UNINITIALIZED);
}

/* Several threads collect while another pushes, clears and pops tags, with the sampling thread
 * running: every collect succeeds or finds no tag, and keys are whole. */
struct worker {
    nvt_collector *c;
    int ok;
    int bad;
};

static void *collect_loop(void *arg) {
    struct worker *w = arg;
    for (int i = 0; i < 60; i++) {
        struct nvt_metric *m = NULL;
        size_t n = 0;
        nvt_status st = nvt_collector_collect(w->c, &m, &n);
        if (st == NVT_OK && n > 0 && strncmp(m[0].key, "outer/", 6) == 0 &&
            strcmp(m[n - 1].key + strlen(m[n - 1].key) - 10, "/timestamp") == 0) {
            w->ok++;
        } else if (st != NVT_OK && st != NVT_ERR_UNINITIALIZED) {
            w->bad++;
        }
        nvt_metrics_free(m);
        if (i % 8 == 0) {
            (void)nvt_collector_sample(w->c);
        }
    }
    return NULL;
}

static void test_concurrent_collect(void **state) {
    struct fixture *f = *state;
    struct nvt_collector_options opts = options();
    opts.interval_s = 0.25;
    nvt_collector *c = create_with(f, &opts, true);
    assert_int_equal(nvt_collector_activate(c, "outer"), NVT_OK);
    enum {
        THREADS = 4
    };
    pthread_t threads[THREADS];
    struct worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (struct worker){.c = c};
        assert_int_equal(pthread_create(&threads[i], NULL, collect_loop, &workers[i]), 0);
    }
    for (int i = 0; i < 30; i++) {
        assert_int_equal(nvt_collector_activate(c, "inner"), NVT_OK);
        assert_int_equal(nvt_collector_clear(c, "outer"), NVT_OK);
        assert_int_equal(nvt_collector_deactivate(c, "inner"), NVT_OK);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(workers[i].bad, 0);
        assert_true(workers[i].ok > 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bad_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keys_and_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_statistics_and_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forked_grandchild, setup, teardown),
        cmocka_unit_test_setup_teardown(test_all_processes_and_cuda_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mig_subset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_daemon, setup, teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_collect, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
