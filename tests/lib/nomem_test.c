/*
 * Out of memory, at every allocation in turn: this program replaces malloc, calloc and realloc
 * so that the n-th call fails, for n = 1, 2, ... until a pass needs no more than n allocations.
 * Each call must then return NVT_ERR_NO_MEMORY (or succeed when the failure hit something
 * optional), never crash.  Not built with the sanitizers, whose own allocator this would bypass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *pointer, size_t size);
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *pointer, size_t size);

/* The allocation to fail (counting from 1 while armed), and whether it was reached. */
static long fail_at;
static long seen;
static int armed;
static int failed;

static int should_fail(void) {
    if (!armed) {
        return 0;
    }
    seen++;
    if (seen == fail_at) {
        failed = 1;
        errno = ENOMEM; /* as the real allocator does: callers such as fdopendir() report it */
        return 1;
    }
    return 0;
}

void *malloc(size_t size) {
    return should_fail() ? NULL : __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    return should_fail() ? NULL : __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    return should_fail() ? NULL : __libc_realloc(pointer, size);
}

static void arm(long n) {
    fail_at = n;
    seen = 0;
    failed = 0;
    armed = 1;
}

static void disarm(void) {
    armed = 0;
}

static void test_snapshot(void **state) {
    (void)state;
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    nvt_context *ctx = tu_open(tu_test_scenario("lib-basic.json"));
    long n = 1;
    for (; n < 100000; n++) {
        struct nvt_snapshot *snap = NULL;
        arm(n);
        nvt_status status = nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap);
        disarm();
        if (status == NVT_OK) {
            assert_int_equal(snap->device_count, 6);
            nvt_snapshot_free(snap);
        } else {
            assert_int_equal(status, NVT_ERR_NO_MEMORY);
        }
        if (!failed) {
            break; /* a pass that needed fewer than n allocations: all were tried */
        }
    }
    print_message("snapshot: %ld allocation sites tried\n", n - 1);
    /* A pass over a process already read allocates 9 times here (its strings are kept with its
     * identity, not made again each pass); fewer would mean the loop stopped early. */
    assert_true(n > 8);
    nvt_close(ctx);
}

static void test_open_and_lookups(void **state) {
    (void)state;
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    long n = 1;
    for (; n < 100000; n++) {
        nvt_context *ctx = NULL;
        arm(n);
        nvt_status status = nvt_open(NULL, &ctx);
        struct nvt_cuda_device *devices = NULL;
        size_t count = 0;
        nvt_device *device = NULL;
        if (status == NVT_OK) {
            /* Any status but a crash: the driver's own init may fail in its own way. */
            nvt_status cuda = nvt_cuda_visible_devices(ctx, "1,0", &devices, &count);
            assert_true(cuda == NVT_OK || cuda == NVT_ERR_NO_MEMORY);
            nvt_device_by_uuid(ctx, "MIG-d184f67c", &device);
        }
        disarm();
        free(devices);
        nvt_close(ctx);
        if (!failed) {
            break;
        }
    }
    print_message("open: %ld allocation sites tried\n", n - 1);
    assert_true(n > 5);
}

/* The collector: create, a tag, a sample, a collect (the sampling thread off, so that every
 * allocation happens on this thread, in order). */
static void test_collector(void **state) {
    (void)state;
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    struct nvt_collector_options opts;
    nvt_collector_options_init(&opts);
    opts.manual_sampling = true;
    long n = 1;
    for (; n < 100000; n++) {
        nvt_collector *c = NULL;
        arm(n);
        nvt_status status = nvt_collector_create(&opts, &c);
        if (status == NVT_OK) {
            struct nvt_metric *m = NULL;
            size_t count = 0;
            nvt_status st = nvt_collector_activate(c, "outer");
            assert_true(st == NVT_OK || st == NVT_ERR_NO_MEMORY);
            st = nvt_collector_activate(c, "inner");
            assert_true(st == NVT_OK || st == NVT_ERR_NO_MEMORY);
            st = nvt_collector_sample(c);
            assert_true(st == NVT_OK || st == NVT_ERR_NO_MEMORY);
            st = nvt_collector_collect(c, &m, &count);
            assert_true(st == NVT_OK || st == NVT_ERR_NO_MEMORY || st == NVT_ERR_UNINITIALIZED);
            nvt_metrics_free(m);
        }
        disarm();
        nvt_collector_destroy(c);
        if (!failed) {
            break;
        }
    }
    print_message("collector: %ld allocation sites tried\n", n - 1);
    assert_true(n > 20);
}

/* The calls of the completed API that allocate: every failure is NVT_ERR_NO_MEMORY, no leak. */
static void test_completed_api(void **state) {
    (void)state;
    /* The pure-NVML CUDA resolution: a forked CUDA child would inherit the failing allocator. */
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.cuda_library_path = "";
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    nvt_device *rtx = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &rtx), NVT_OK);
    long n = 1;
    for (; n < 100000; n++) {
        const uint32_t indices[] = {1, 0};
        struct nvt_snapshot *snap = NULL;
        struct nvt_gpu_process *list = NULL;
        struct nvt_host_state *host = NULL;
        uint32_t *pids = NULL;
        uint32_t *ppids = NULL;
        uint32_t *children = NULL;
        size_t count = 0;
        nvt_device *device = NULL;
        arm(n);
        nvt_status statuses[] = {
            nvt_snapshot_take_devices(ctx, NVT_SAMPLE_ALL, indices, 2, &snap),
            nvt_device_processes(rtx, NVT_SAMPLE_HOST_PROCESSES, &list, &count),
            nvt_host_state_read(ctx, &host),
            nvt_host_pids(ctx, &pids, &count),
            nvt_host_reverse_ppid_map(ctx, &ppids, &children, &count),
            nvt_device_by_cuda_index(ctx, "1,2", 1, &device),
        };
        disarm();
        assert_true(statuses[5] != NVT_OK || nvt_device_info(device)->index == 2);
        for (size_t i = 0; i < sizeof(statuses) / sizeof(*statuses); i++) {
            if (statuses[i] != NVT_OK && statuses[i] != NVT_ERR_NO_MEMORY) {
                print_message("call %zu, allocation %ld: %s\n", i, n, nvt_status_name(statuses[i]));
            }
            assert_true(statuses[i] == NVT_OK || statuses[i] == NVT_ERR_NO_MEMORY);
        }
        nvt_snapshot_free(snap);
        nvt_free(list);
        nvt_free(host);
        nvt_free(pids);
        nvt_free(ppids);
        if (!failed) {
            break;
        }
    }
    print_message("completed API: %ld allocation sites tried\n", n - 1);
    assert_true(n > 10);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_open_and_lookups),
        cmocka_unit_test(test_collector),
        cmocka_unit_test(test_completed_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
