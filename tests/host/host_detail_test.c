/* Host figures beyond struct nvt_host_state (include/nvitop/host.h) against the "detail" fixture
 * tree: psutil's cpu_times(), virtual_memory(), swap_memory() and memory_info() for the same files
 * are the expected values. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/host.h>

#include "host.h"
#include "host_fixture.h"
#include "nvt_cmocka.h"

/* The host tests' stand-in context is the host_ctx itself (fake_context.c). */
static nvt_context *open_root(const char *name, struct host_ctx **host) {
    char root[1024];
    fixture_path(root, sizeof(root), name);
    assert_int_equal(host_open(root, host), NVT_OK);
    return (nvt_context *)*host;
}

static void test_cpu_times(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_root("detail", &host);
    struct nvt_cpu_times *times = NULL;
    assert_int_equal(nvt_host_cpu_times(ctx, &times), NVT_OK);
    double tick = (double)sysconf(_SC_CLK_TCK);
    assert_true(times->user == 1000 / tick);
    assert_true(times->nice == 0.0);
    assert_true(times->system == 500 / tick);
    assert_true(times->idle == 8000 / tick);
    assert_true(times->iowait == 500 / tick);
    assert_true(times->steal == 0.0 && times->guest_nice == 0.0);
    nvt_free(times);
    host_close(host);
}

static void test_virtual_memory(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_root("detail", &host);
    struct nvt_virtual_memory *vm = NULL;
    assert_int_equal(nvt_host_virtual_memory(ctx, &vm), NVT_OK);
    assert_int_equal(vm->total_bytes, 16384000000);
    assert_int_equal(vm->available_bytes, 10240000000);
    assert_true(vm->percent == 37.5);
    assert_int_equal(vm->used_bytes, 8192000000);
    assert_int_equal(vm->free_bytes, 4096000000);
    assert_int_equal(vm->active_bytes, 6144000000);
    assert_int_equal(vm->inactive_bytes, 3072000000);
    assert_int_equal(vm->buffers_bytes, 512000000);
    assert_int_equal(vm->cached_bytes, 3584000000); /* Cached + SReclaimable */
    assert_int_equal(vm->shared_bytes, 10240000);
    assert_int_equal(vm->slab_bytes, 819200000);
    nvt_free(vm);
    host_close(host);
}

static void test_swap_memory(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_root("detail", &host);
    struct nvt_swap_memory *swap = NULL;
    assert_int_equal(nvt_host_swap_memory(ctx, &swap), NVT_OK);
    assert_int_equal(swap->total_bytes, 2048000000);
    assert_int_equal(swap->used_bytes, 512000000);
    assert_int_equal(swap->free_bytes, 1536000000);
    assert_true(swap->percent == 25.0);
    assert_int_equal(swap->sin_bytes, 1000 * 4096);
    assert_int_equal(swap->sout_bytes, 2500 * 4096);
    nvt_free(swap);
    host_close(host);

    /* No vmstat: the meminfo figures, sin and sout N/A. */
    ctx = open_root("noswap", &host);
    assert_int_equal(nvt_host_swap_memory(ctx, &swap), NVT_OK);
    assert_int_equal(swap->sin_bytes, NVT_NA_U64);
    assert_int_equal(swap->sout_bytes, NVT_NA_U64);
    nvt_free(swap);
    host_close(host);
}

static void test_memory_info(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_root("detail", &host);
    struct nvt_memory_info *info = NULL;
    assert_int_equal(nvt_host_process_memory_info(ctx, 100, &info), NVT_OK);
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    assert_int_equal(info->vms_bytes, 25000 * page);
    assert_int_equal(info->rss_bytes, 5000 * page);
    assert_int_equal(info->shared_bytes, 1200 * page);
    assert_int_equal(info->text_bytes, 300 * page);
    assert_int_equal(info->lib_bytes, 0);
    assert_int_equal(info->data_bytes, 8000 * page);
    assert_int_equal(info->dirty_bytes, 0);
    nvt_free(info);
    /* A pid without statm (or without a directory) is gone. */
    assert_int_equal(nvt_host_process_memory_info(ctx, 101, &info), NVT_ERR_NO_SUCH_PROCESS);
    assert_null(info);
    assert_int_equal(nvt_host_process_memory_info(ctx, 4000000, &info), NVT_ERR_NO_SUCH_PROCESS);
    assert_int_equal(nvt_host_process_memory_info(ctx, 0, &info), NVT_ERR_INVALID_ARGUMENT);
    host_close(host);
}

/* Unreadable or malformed files: a clear status, never a guess. */
static void test_garbage_and_empty(void **state) {
    (void)state;
    const char *roots[] = {"garbage", "empty"};
    for (size_t i = 0; i < 2; i++) {
        struct host_ctx *host = NULL;
        nvt_context *ctx = open_root(roots[i], &host);
        struct nvt_cpu_times *times = NULL;
        assert_int_equal(nvt_host_cpu_times(ctx, &times), NVT_ERR_NOT_FOUND);
        assert_null(times);
        struct nvt_virtual_memory *vm = NULL;
        assert_int_equal(nvt_host_virtual_memory(ctx, &vm), NVT_ERR_NOT_FOUND);
        assert_null(vm);
        struct nvt_swap_memory *swap = NULL;
        assert_int_equal(nvt_host_swap_memory(ctx, &swap), NVT_ERR_NOT_FOUND);
        host_close(host);
    }
    assert_int_equal(nvt_host_cpu_times(NULL, NULL), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_host_virtual_memory(NULL, NULL), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_host_swap_memory(NULL, NULL), NVT_ERR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_times),         cmocka_unit_test(test_virtual_memory),
        cmocka_unit_test(test_swap_memory),       cmocka_unit_test(test_memory_info),
        cmocka_unit_test(test_garbage_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
