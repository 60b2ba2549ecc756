/*
 * nvt_snapshot_focus() against tests/lib/scenarios/lib-basic.json, whose RTX 3090 lists this
 * test's pid (NVT_LIB_PID_A) and a child of it (NVT_LIB_PID_B): outside the focus, the child
 * keeps its last reading without a /proc read (so it still shows as read after it has exited),
 * with %CPU N/A; in the focus, or with the focus cleared, it is read again (and found gone).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define FLAGS (NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES)

static const struct nvt_host_process *host_of(const struct nvt_snapshot *snap, pid_t pid) {
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *process = nvt_snapshot_process(snap, i);
        if (process->pid == (uint32_t)pid) {
            return &process->host;
        }
    }
    fail_msg("pid %d is not in the snapshot", (int)pid);
    static const struct nvt_host_process none = {0};
    return &none;
}

static pid_t start_child(void) {
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        for (;;) {
            pause();
        }
    }
    return child;
}

static nvt_context *open_with(pid_t child) {
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    snprintf(pid, sizeof(pid), "%d", (int)child);
    setenv("NVT_LIB_PID_B", pid, 1);
    return tu_open(tu_test_scenario("lib-basic.json"));
}

static void end_child(pid_t child) {
    kill(child, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
}

static void test_outside_focus_keeps_reading(void **state) {
    (void)state;
    pid_t child = start_child();
    nvt_context *ctx = open_with(child);
    struct nvt_snapshot *first = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &first), NVT_OK);
    const struct nvt_host_process *read = host_of(first, child);
    assert_int_equal(read->status, NVT_HOST_OK);
    assert_true(read->cpu_percent == 0.0); /* a first reading */
    assert_true(read->user[0] != '\0');
    assert_true(read->cmdline_count > 0);

    const uint32_t self = (uint32_t)getpid();
    assert_int_equal(nvt_snapshot_focus(ctx, &self, 1), NVT_OK);
    end_child(child);
    struct nvt_snapshot *kept_snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &kept_snap), NVT_OK);
    const struct nvt_host_process *kept = host_of(kept_snap, child);
    assert_int_equal(kept->status, NVT_HOST_OK); /* not read: its exit is not seen */
    assert_true(isnan(kept->cpu_percent));
    assert_int_equal(kept->ppid, NVT_NA_U32);
    assert_string_equal(kept->user, read->user);
    assert_string_equal(kept->command, read->command);
    assert_int_equal(kept->cmdline_count, read->cmdline_count);
    assert_int_equal(kept->uid, read->uid);
    assert_true(kept->create_time == read->create_time);
    assert_true(kept->running_time_s >= read->running_time_s);
    assert_int_equal(kept->rss_bytes, read->rss_bytes);
    /* In the focus: read. */
    const struct nvt_host_process *self_host = host_of(kept_snap, getpid());
    assert_int_equal(self_host->status, NVT_HOST_OK);
    assert_false(isnan(self_host->cpu_percent));

    /* The child in the focus (duplicates ignored): read again, and gone. */
    const uint32_t both[] = {self, (uint32_t)child, self};
    assert_int_equal(nvt_snapshot_focus(ctx, both, 3), NVT_OK);
    struct nvt_snapshot *again = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &again), NVT_OK);
    assert_int_equal(host_of(again, child)->status, NVT_HOST_GONE);
    nvt_snapshot_free(again);

    nvt_snapshot_free(kept_snap);
    nvt_snapshot_free(first);
    nvt_close(ctx);
}

static void test_cleared_focus_reads_all(void **state) {
    (void)state;
    pid_t child = start_child();
    nvt_context *ctx = open_with(child);
    /* An empty focus before any snapshot: what was never read is read all the same. */
    assert_int_equal(nvt_snapshot_focus(ctx, (const uint32_t[]){0}, 0), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    assert_true(host_of(snap, child)->cpu_percent == 0.0);
    nvt_snapshot_free(snap);
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    assert_true(isnan(host_of(snap, child)->cpu_percent)); /* kept */
    nvt_snapshot_free(snap);
    /* Kept readings live on from pass to pass, and the next reading measures from the last. */
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    assert_true(isnan(host_of(snap, child)->cpu_percent));
    nvt_snapshot_free(snap);
    assert_int_equal(nvt_snapshot_focus(ctx, NULL, 0), NVT_OK);
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    const struct nvt_host_process *host = host_of(snap, child);
    assert_int_equal(host->status, NVT_HOST_OK);
    assert_false(isnan(host->cpu_percent));
    assert_int_equal(host->ppid, (uint32_t)getpid());
    nvt_snapshot_free(snap);
    end_child(child);
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    assert_int_equal(host_of(snap, child)->status, NVT_HOST_GONE);
    nvt_snapshot_free(snap);

    assert_int_equal(nvt_snapshot_focus(NULL, NULL, 0), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_snapshot_focus(ctx, NULL, 3), NVT_ERR_INVALID_ARGUMENT);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outside_focus_keeps_reading),
        cmocka_unit_test(test_cleared_focus_reads_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
