/*
 * The growth promise of docs/api.md ("ABI and versioning"): this program is compiled against the
 * real headers and runs against two builds of the library, the real one ("same") and one whose
 * growable structs have members appended as a later minor version would ("grown", see
 * CMakeLists.txt).  Either way it must get the right values, through caller-allocated structs
 * sized by their struct_size and through the snapshot accessors, and the library must never write
 * past a struct the caller owns (nor read past one: options are placed right before a page the
 * process may not touch).  Runs against tests/lib/scenarios/examples-2gpu.json.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"

#define MiB      (UINT64_C(1) << 20)
#define CANARY   0xA5
#define TAIL_LEN 64

static bool grown(void) {
    const char *variant = getenv("NVT_ABI_VARIANT");
    return variant != NULL && strcmp(variant, "grown") == 0;
}

static int use_scenario(void **state) {
    (void)state;
    const char *source = getenv("NVT_SOURCE_DIR");
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/lib/scenarios/examples-2gpu.json",
             source != NULL ? source : ".");
    setenv("NVML_SIM_SCENARIO", path, 1);
    setenv("NVML_SIM_TIME", "100", 1);
    return 0;
}

static void assert_canary(const unsigned char *tail) {
    for (size_t i = 0; i < TAIL_LEN; i++) {
        assert_int_equal(tail[i], CANARY);
    }
}

static void test_version(void **state) {
    (void)state;
    assert_int_equal(NVT_VERSION_NUM,
                     (NVT_VERSION_MAJOR << 16) | (NVT_VERSION_MINOR << 8) | NVT_VERSION_PATCH);
    assert_int_equal(nvt_version_num(), NVT_VERSION_NUM);
    char text[32];
    snprintf(text, sizeof(text), "%d.%d.%d", NVT_VERSION_MAJOR, NVT_VERSION_MINOR,
             NVT_VERSION_PATCH);
    assert_string_equal(nvt_version_string(), text);
}

/* size bytes that end where a page the process may not touch begins: a library that reads past
 * them (its own, larger, sizeof instead of struct_size) crashes the test.  Freed with
 * guarded_free(). */
struct guarded {
    unsigned char *map;
    size_t map_len;
    void *data;
};

static struct guarded guarded_alloc(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (size + page - 1) / page + 1;
    struct guarded g = {.map_len = pages * page};
    g.map = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(g.map != MAP_FAILED);
    assert_int_equal(mprotect(g.map + g.map_len - page, page, PROT_NONE), 0);
    g.data = g.map + g.map_len - page - size;
    memset(g.data, CANARY, size);
    return g;
}

static void guarded_free(struct guarded *g) {
    munmap(g->map, g->map_len);
}

/* Options of this program's size: the library reads what it covers and defaults the rest. */
static void test_options(void **state) {
    (void)state;
    struct nvt_options opts;
    nvt_options_init(&opts);
    assert_int_equal(opts.struct_size, sizeof(opts));
    opts.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    opts.allow_no_gpu = true;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    assert_int_equal(nvt_context_gpu_status(ctx), NVT_ERR_LIBRARY_NOT_FOUND);
    nvt_close(ctx);

    /* A struct not set up by nvt_options_init() is refused, not misread. */
    opts.struct_size = 0;
    ctx = (nvt_context *)&ctx;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_INVALID_ARGUMENT);
    assert_null(ctx);
    opts.struct_size = offsetof(struct nvt_options, allow_no_gpu);
    assert_int_equal(nvt_open(&opts, &ctx), NVT_ERR_INVALID_ARGUMENT);

    /* A newer program's larger struct: the members this library does not know are ignored. */
    struct {
        struct nvt_options known;
        unsigned char later[TAIL_LEN];
    } newer;
    memset(&newer, 0xFF, sizeof(newer));
    nvt_options_init(&newer.known);
    newer.known.struct_size = sizeof(newer);
    newer.known.nvml_library_path = "/nonexistent/libnvidia-ml.so.1";
    assert_int_equal(nvt_open(&newer.known, &ctx), NVT_ERR_LIBRARY_NOT_FOUND);
}

/* nvt_device_state() writes exactly the caller's struct, whatever the library's size. */
static void test_device_state(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &device), NVT_OK);

    unsigned char *buffer = malloc(sizeof(struct nvt_device_state) + TAIL_LEN);
    assert_non_null(buffer);
    memset(buffer, CANARY, sizeof(struct nvt_device_state) + TAIL_LEN);
    struct nvt_device_state *live = (struct nvt_device_state *)buffer;
    nvt_device_state_init(live);
    assert_int_equal(nvt_device_state(device, NVT_SAMPLE_DEVICES, live), NVT_OK);
    assert_int_equal(live->struct_size, sizeof(*live));
    assert_int_equal(live->memory_used_bytes, 3700 * MiB);
    assert_int_equal(live->temperature_c, 34);
    assert_true(nvt_is_na_double(live->nvlink_rx_kibps[NVT_NVLINK_MAX_LINKS - 1]));
    assert_canary(buffer + sizeof(struct nvt_device_state));

    /* Too small (not set up): refused, nothing written. */
    memset(buffer, CANARY, sizeof(struct nvt_device_state) + TAIL_LEN);
    live->struct_size = offsetof(struct nvt_device_state, memory_used_bytes);
    assert_int_equal(nvt_device_state(device, NVT_SAMPLE_DEVICES, live), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(live->struct_size, offsetof(struct nvt_device_state, memory_used_bytes));
    assert_canary(buffer + sizeof(live->struct_size));
    free(buffer);
    nvt_close(ctx);
}

/* Snapshot arrays through the accessors, and criteria of this program's size. */
static void test_snapshot_and_select(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 2);
    assert_int_equal(snap->flags, NVT_SAMPLE_ALL);
    if (grown()) {
        /* The grown library's elements are larger than this program's: only the accessors (and
         * the strides) find them. */
        assert_true(snap->device_stride > sizeof(struct nvt_device_snapshot));
        assert_true(snap->process_stride > sizeof(struct nvt_gpu_process));
    } else {
        assert_int_equal(snap->device_stride, sizeof(struct nvt_device_snapshot));
        assert_int_equal(snap->process_stride, sizeof(struct nvt_gpu_process));
    }
    static const char *const uuids[] = {"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40",
                                        "GPU-a2c47f09-61d3-4b8e-b5f0-7e9d4c1a8b63"};
    static const uint64_t used_mib[] = {20110, 3700};
    for (size_t slot = 0; slot < 2; slot++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(snap, slot);
        assert_non_null(d);
        assert_ptr_equal(d, (const char *)snap->devices + slot * snap->device_stride);
        assert_string_equal(d->info.uuid, uuids[slot]);
        assert_int_equal(d->info.index, slot);
        assert_int_equal(d->parent, NVT_NA_SIZE);
        assert_int_equal(d->state.memory_used_bytes, used_mib[slot] * MiB);
    }
    assert_null(nvt_snapshot_device(snap, 2));
    assert_true(snap->process_count >= 2);
    const struct nvt_gpu_process *first = nvt_snapshot_process(snap, 0);
    const struct nvt_gpu_process *second = nvt_snapshot_process(snap, 1);
    assert_int_equal(first->device, 0);
    assert_int_equal(first->type, NVT_PROCESS_GRAPHICS);
    assert_int_equal(first->gpu_memory_bytes, 4 * MiB);
    assert_int_equal(second->device, 0);
    assert_int_equal(second->gpu_memory_bytes, 19800 * MiB);
    assert_int_equal(second->sm_util_pct, 85);
    assert_null(nvt_snapshot_process(snap, snap->process_count));
    /* The host part is the snapshot's last member, after everything above. */
    assert_true(snap->host.memory_total_bytes > 0);

    struct nvt_select_criteria criteria;
    nvt_select_criteria_init(&criteria);
    criteria.min_free_memory_bytes = 10 * 1024 * MiB;
    size_t candidates[] = {0, 1};
    size_t slots[2];
    size_t count = 0;
    bool prefer_uuid = true;
    assert_int_equal(
        nvt_select_devices(snap, candidates, 2, &criteria, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(slots[0], 1);
    assert_false(prefer_uuid);
    criteria.struct_size = 0;
    assert_int_equal(
        nvt_select_devices(snap, candidates, 2, &criteria, slots, &count, &prefer_uuid),
        NVT_ERR_INVALID_ARGUMENT);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

static double frozen_clock(void *data) {
    (void)data;
    return 100.0;
}

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

struct daemon_probe {
    atomic_int collects;
    atomic_int stops;
    double gpu1_memory_mib;
};

static bool probe_collect(const struct nvt_metric *metrics, size_t count, void *user) {
    struct daemon_probe *probe = user;
    probe->gpu1_memory_mib = value_of(metrics, count, "abi/gpu:1/memory_used (MiB)/last");
    probe->collects++;
    return false; /* one collect, then the daemon stops by itself */
}

static void probe_stop(void *user) {
    ((struct daemon_probe *)user)->stops++;
}

/* Collector and daemon options of this program's size, ending at a page the process may not touch:
 * every field is read where this program put it, and nothing beyond struct_size is read. */
/* nvt_device_processes() hands out an array of struct nvt_gpu_process, which grows with
 * struct nvt_host_process: nvt_gpu_process_at() steps by the library's element size. */
static void test_device_processes(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    nvt_device *device = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &device), NVT_OK);
    struct nvt_gpu_process *list = NULL;
    size_t count = 0;
    assert_int_equal(nvt_device_processes(device, 0, &list, &count), NVT_OK);
    assert_true(count >= 2);
    if (grown()) {
        assert_true(nvt_gpu_process_stride() > sizeof(struct nvt_gpu_process));
    } else {
        assert_int_equal(nvt_gpu_process_stride(), sizeof(struct nvt_gpu_process));
    }
    const struct nvt_gpu_process *second = nvt_gpu_process_at(list, 1);
    assert_ptr_equal(second, (const char *)list + nvt_gpu_process_stride());
    assert_int_equal(nvt_gpu_process_at(list, 0)->gpu_memory_bytes, 4 * MiB);
    assert_int_equal(second->gpu_memory_bytes, 19800 * MiB);
    assert_int_equal(second->host.pid, second->pid);
    assert_null(nvt_gpu_process_at(NULL, 0));
    nvt_free(list);
    nvt_close(ctx);
}

static void test_collector_options(void **state) {
    (void)state;
    struct guarded g = guarded_alloc(sizeof(struct nvt_collector_options));
    struct nvt_collector_options *opts = g.data;
    nvt_collector_options_init(opts);
    assert_int_equal(opts->struct_size, sizeof(*opts));
    static const uint32_t gpu1[] = {1};
    opts->devices = gpu1;
    opts->device_count = 1;
    opts->no_processes = true;
    opts->interval_s = 2.0;
    opts->manual_sampling = true;
    opts->clock = frozen_clock;
    nvt_collector *c = NULL;
    assert_int_equal(nvt_collector_create(opts, &c), NVT_OK);
    assert_true(nvt_collector_interval(c) == 2.0);
    assert_int_equal(nvt_collector_activate(c, "t"), NVT_OK);
    struct nvt_metric *m = NULL;
    size_t n = 0;
    assert_int_equal(nvt_collector_collect(c, &m, &n), NVT_OK);
    assert_true(value_of(m, n, "t/gpu:1/memory_used (MiB)/last") == 3700.0);
    assert_false(has_prefix(m, n, "t/gpu:0/"));
    assert_false(has_prefix(m, n, "t/pid:"));
    assert_true(value_of(m, n, "t/timestamp") == 100.0);
    nvt_metrics_free(m);
    assert_int_equal(nvt_collector_deactivate(c, NULL), NVT_OK);

    /* Not set up by nvt_collector_options_init(), or shorter than the first release's struct:
     * refused, not misread. */
    nvt_collector *refused = (nvt_collector *)&refused;
    opts->struct_size = 0;
    assert_int_equal(nvt_collector_create(opts, &refused), NVT_ERR_INVALID_ARGUMENT);
    opts->struct_size = offsetof(struct nvt_collector_options, clock_data);
    assert_int_equal(nvt_collector_create(opts, &refused), NVT_ERR_INVALID_ARGUMENT);
    assert_ptr_equal(refused, &refused);
    guarded_free(&g);

    g = guarded_alloc(sizeof(struct nvt_collector_daemon_options));
    struct nvt_collector_daemon_options *d = g.data;
    struct daemon_probe probe = {.gpu1_memory_mib = NAN};
    atomic_init(&probe.collects, 0);
    atomic_init(&probe.stops, 0);
    nvt_collector_daemon_options_init(d);
    assert_int_equal(d->struct_size, sizeof(*d));
    d->on_collect = probe_collect;
    d->user = &probe;
    d->struct_size = offsetof(struct nvt_collector_daemon_options, user);
    assert_int_equal(nvt_collector_daemon_start(c, d), NVT_ERR_INVALID_ARGUMENT);
    d->struct_size = sizeof(*d);
    d->tag = "abi";
    d->on_stop = probe_stop;
    assert_int_equal(nvt_collector_daemon_start(c, d), NVT_OK);
    guarded_free(&g); /* the daemon keeps its own copy */
    /* Bounded wait (10 s) for the daemon to collect once and stop by itself. */
    for (int i = 0; i < 1000 && atomic_load(&probe.stops) == 0; i++) {
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }
    assert_int_equal(nvt_collector_daemon_stop(c), NVT_OK);
    assert_int_equal(atomic_load(&probe.collects), 1);
    assert_int_equal(atomic_load(&probe.stops), 1);
    assert_true(probe.gpu1_memory_mib == 3700.0);
    nvt_collector_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),           cmocka_unit_test(test_options),
        cmocka_unit_test(test_device_state),      cmocka_unit_test(test_snapshot_and_select),
        cmocka_unit_test(test_collector_options), cmocka_unit_test(test_device_processes),
    };
    return cmocka_run_group_tests(tests, use_scenario, NULL);
}
