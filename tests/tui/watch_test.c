/*
 * One reading of a watched process (tui/watch.c) through the real dlopen path: the simulated
 * workstation lists this test's own pid on GPU 0 (NVT_STANDIN_1) and a pid that does not exist
 * (NVT_STANDIN_2).  A live process is on its device with host data; a pid whose start time
 * differs, or that no longer exists, has exited; a listed pid never seen on the host (another PID
 * namespace) has not.
 */
#include "tui/live/watch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"
#include "tui_testutil.h"

#define ABSENT_PID 4194300 /* above any pid_max in use: never a live process */
#define MiB        (UINT64_C(1) << 20)

static void test_readings(void **state) {
    (void)state;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(NULL, &ctx), NVT_OK);
    uint32_t self = (uint32_t)getpid();
    struct nvt_host_process *host = NULL;
    assert_int_equal(nvt_host_process_read(ctx, self, &host), NVT_OK);
    double created = host->create_time;
    nvt_host_process_free(host);

    struct watch_target target = {
        .device_index = 0, .mig_index = NVT_NA_U32, .pid = self, .create_time = created};
    struct watch_sample sample;
    assert_true(watch_sample_take(ctx, &target, &sample));
    assert_true(sample.on_device);
    assert_false(sample.exited);
    assert_non_null(sample.host);
    assert_int_equal(sample.host->pid, self);
    assert_int_equal(sample.gpu.gpu_memory_bytes, 4 * MiB);
    assert_int_equal(sample.device.memory_total_bytes, 24576 * MiB);
    watch_sample_fini(&sample);

    /* The same pid with another start time: a recycled pid, so the watched process exited. */
    target.create_time = created + 100.0;
    assert_true(watch_sample_take(ctx, &target, &sample));
    assert_true(sample.exited);
    assert_null(sample.host);
    watch_sample_fini(&sample);

    /* Listed by the driver, never seen on the host: out of sight, not exited. */
    target.pid = ABSENT_PID;
    target.create_time = NAN;
    assert_true(watch_sample_take(ctx, &target, &sample));
    assert_true(sample.on_device);
    assert_false(sample.exited);
    assert_null(sample.host);
    watch_sample_fini(&sample);

    /* Seen alive before, gone now: exited. */
    target.create_time = created;
    assert_true(watch_sample_take(ctx, &target, &sample));
    assert_true(sample.exited);
    watch_sample_fini(&sample);

    /* No such device. */
    target.device_index = 7;
    assert_false(watch_sample_take(ctx, &target, &sample));
    nvt_close(ctx);
}

/* The sampler's queue: oldest first, and a full queue drops its oldest reading. */
static void test_queue(void **state) {
    (void)state;
    struct watch_queue queue = {0};
    struct watch_sample sample = {0};
    for (unsigned i = 1; i <= WATCH_QUEUE_SIZE + 2; i++) {
        sample.generation = i;
        watch_queue_push(&queue, &sample);
        assert_int_equal(sample.generation, 0); /* moved */
    }
    struct watch_sample out;
    for (unsigned i = 3; i <= WATCH_QUEUE_SIZE + 2; i++) {
        assert_true(watch_queue_pop(&queue, &out));
        assert_int_equal(out.generation, i);
    }
    assert_false(watch_queue_pop(&queue, &out));
    watch_queue_push(&queue, &sample);
    watch_queue_clear(&queue);
    assert_false(watch_queue_pop(&queue, &out));
}

int main(void) {
    tt_use_workstation();
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_STANDIN_1", pid, 1);
    snprintf(pid, sizeof(pid), "%d", ABSENT_PID);
    setenv("NVT_STANDIN_2", pid, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readings),
        cmocka_unit_test(test_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
