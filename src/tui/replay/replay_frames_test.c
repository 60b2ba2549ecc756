/*
 * What the replay monitor derives from recorded frames (replay_frames.h), on hand-made snapshots:
 * the events the time line stops at, the metrics screen's readings and host process copies.
 */
#include "tui/replay/replay_frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "tui/host_copy.h"

#define GIB (1024ULL * 1024ULL * 1024ULL)

struct machine {
    struct nvt_device_snapshot devices[2];
    struct nvt_gpu_process processes[3];
    struct nvt_snapshot snap;
};

/* Two GPUs of 24 GiB with 10 GiB used; processes 100 and 200 on GPU 0, 300 on GPU 1. */
static void machine_init(struct machine *m) {
    memset(m, 0, sizeof(*m));
    for (uint32_t i = 0; i < 2; i++) {
        struct nvt_device_snapshot *d = &m->devices[i];
        d->info.index = i;
        d->parent = NVT_NA_SIZE;
        d->state.memory_total_bytes = 24 * GIB;
        d->state.memory_used_bytes = 10 * GIB;
    }
    static const uint32_t pids[] = {100, 200, 300};
    static const size_t slots[] = {0, 0, 1};
    for (size_t i = 0; i < 3; i++) {
        struct nvt_gpu_process *p = &m->processes[i];
        p->pid = pids[i];
        p->device = slots[i];
        p->gpu_memory_bytes = (i + 1) * GIB;
        p->host.pid = pids[i];
        p->host.status = NVT_HOST_OK;
        p->host.create_time = 1000.0 + (double)i;
        p->host.user = "alice";
        p->host.name = "python";
        p->host.command = "python train.py";
    }
    m->snap.timestamp = 1.7e9;
    m->snap.device_count = 2;
    m->snap.devices = m->devices;
    m->snap.device_stride = sizeof(m->devices[0]);
    m->snap.process_count = 3;
    m->snap.processes = m->processes;
    m->snap.process_stride = sizeof(m->processes[0]);
}

static void test_no_event(void **state) {
    (void)state;
    struct machine a;
    struct machine b;
    machine_init(&a);
    machine_init(&b);
    char what[96];
    assert_false(replay_event_between(&a.snap, &b.snap, what, sizeof(what)));
}

static void test_process_exit_and_appearance(void **state) {
    (void)state;
    struct machine a;
    struct machine b;
    machine_init(&a);
    machine_init(&b);
    b.processes[1] = b.processes[2]; /* 200 is gone */
    b.snap.process_count = 2;
    char what[96];
    assert_true(replay_event_between(&a.snap, &b.snap, what, sizeof(what)));
    assert_string_equal(what, "process 200 exited (GPU 0)");
    assert_true(replay_event_between(&b.snap, &a.snap, what, sizeof(what)));
    assert_string_equal(what, "process 200 appeared (GPU 0)");
}

static void test_gpu_lost(void **state) {
    (void)state;
    struct machine a;
    struct machine b;
    machine_init(&a);
    machine_init(&b);
    b.devices[1].state.status = NVT_ERR_GPU_IS_LOST;
    char what[96];
    assert_true(replay_event_between(&a.snap, &b.snap, what, sizeof(what)));
    assert_string_equal(what, "GPU 1 lost");
    /* Still lost: no new event. */
    assert_false(replay_event_between(&b.snap, &b.snap, what, sizeof(what)));
    /* A GPU missing from the next frame is lost too. */
    b.devices[1].state.status = NVT_OK;
    b.snap.device_count = 1;
    b.snap.process_count = 2;
    assert_true(replay_event_between(&a.snap, &b.snap, what, sizeof(what)));
    assert_string_equal(what, "GPU 1 lost");
}

static void test_memory_above_95(void **state) {
    (void)state;
    struct machine a;
    struct machine b;
    machine_init(&a);
    machine_init(&b);
    b.devices[0].state.memory_used_bytes = 23 * GIB; /* 95.8 % */
    char what[96];
    assert_true(replay_event_between(&a.snap, &b.snap, what, sizeof(what)));
    assert_string_equal(what, "GPU 0 memory above 95%");
    /* Staying above is not a new event; exactly 95 % is not above. */
    assert_false(replay_event_between(&b.snap, &b.snap, what, sizeof(what)));
    a.devices[0].state.memory_used_bytes = 24 * GIB * 95 / 100;
    assert_false(replay_event_between(&b.snap, &a.snap, what, sizeof(what)));
}

static void test_watch_sample(void **state) {
    (void)state;
    struct machine m;
    machine_init(&m);
    struct watch_target target = {
        .device_index = 0, .mig_index = NVT_NA_U32, .pid = 200, .create_time = 1001.0};
    struct watch_sample sample;
    assert_true(replay_watch_sample(&m.snap, &target, &sample));
    assert_true(sample.on_device);
    assert_int_equal(sample.gpu.pid, 200);
    assert_int_equal(sample.device.memory_used_bytes, 10 * GIB);
    assert_non_null(sample.host);
    assert_string_equal(sample.host->command, "python train.py");
    assert_true(sample.taken_s == m.snap.timestamp);
    watch_sample_fini(&sample);
    /* Another process with the pid (another start time), or the pid on another GPU: not it. */
    target.create_time = 5000.0;
    assert_false(replay_watch_sample(&m.snap, &target, &sample));
    target.create_time = NAN;
    target.device_index = 1;
    assert_false(replay_watch_sample(&m.snap, &target, &sample));
    assert_null(sample.host);
}

static void test_host_copy(void **state) {
    (void)state;
    static const char *const argv[] = {"python", "train.py", "--epochs", "3"};
    struct nvt_host_process host = {
        .pid = 42,
        .ppid = 1,
        .status = NVT_HOST_OK,
        .user = "bob",
        .name = "python",
        .command = "python train.py --epochs 3",
        .cmdline = argv,
        .cmdline_count = 4,
        .running_time_s = 61.0,
    };
    struct nvt_host_process *copy = tui_host_copy(&host);
    assert_int_equal(copy->pid, 42);
    assert_int_equal(copy->ppid, 1);
    assert_string_equal(copy->user, "bob");
    assert_string_equal(copy->command, "python train.py --epochs 3");
    assert_ptr_not_equal(copy->command, host.command);
    assert_int_equal(copy->cmdline_count, 4);
    assert_string_equal(copy->cmdline[3], "3");
    assert_null(copy->cmdline[4]);
    /* One allocation, as the library's: nvt_host_process_free() frees it (ASan checks). */
    nvt_host_process_free(copy);
    host.user = NULL;
    host.cmdline = NULL;
    host.cmdline_count = 0;
    copy = tui_host_copy(&host);
    assert_null(copy->user);
    assert_null(copy->cmdline);
    nvt_host_process_free(copy);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_event),     cmocka_unit_test(test_process_exit_and_appearance),
        cmocka_unit_test(test_gpu_lost),     cmocka_unit_test(test_memory_above_95),
        cmocka_unit_test(test_watch_sample), cmocka_unit_test(test_host_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
