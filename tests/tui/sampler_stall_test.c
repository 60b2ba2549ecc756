/*
 * Stopping the sampler while the driver stalls (issue #5): sampler_stop_within() gives up on a
 * thread stuck in a driver call, and that thread frees the sampler and closes its own context
 * once the call returns (AddressSanitizer checks that nothing is used after it is freed and that
 * nothing leaks).  A healthy sampler stops as before.
 */
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "nvt_cmocka.h"
#include "test_clock.h"
#include "tui/live/sampler.h"

/* Far longer than the stop waits in the test, so that the thread is surely still stuck. */
#define STALL_S "5"

static char work_dir[256];

static void pause_ms(long ms) {
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* Points the simulator at a one-GPU machine whose utilisation query takes `latency` seconds. */
static void use_machine(const char *file, const char *latency) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", work_dir, file);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"driver\": {\"version\": \"550.54.15\", \"cuda_version\": 12040},\n"
            " \"call_latency\": {\"nvmlDeviceGetUtilizationRates\": %s},\n"
            " \"devices\": [{\"name\": \"NVIDIA L4\", \"uuid\": \"GPU-1\",\n"
            "   \"pci\": {\"bus_id\": \"00000000:01:00.0\"},\n"
            "   \"memory\": {\"total_mib\": 23034, \"used_mib\": 1000},\n"
            "   \"utilization\": {\"gpu\": 10, \"memory\": 5}}]}\n",
            latency);
    assert_int_equal(fclose(f), 0);
    setenv("NVML_SIM_SCENARIO", path, 1);
}

static struct sampler *start(void) {
    struct sampler_schedule schedule = {
        .flags = NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_HOST,
        .period_s = 0.25,
        .slow_flags = NVT_SAMPLE_DEVICES,
        .slow_period_s = 1.0,
        .process_flags = NVT_SAMPLE_PROCESSES,
        .process_period_s = 0.5,
    };
    char error[128];
    struct sampler *sampler = sampler_start(NULL, NULL, &schedule, error, sizeof(error));
    if (sampler == NULL) {
        fail_msg("sampler_start: %s", error);
    }
    return sampler;
}

/* Threads of this process. */
static size_t thread_count(void) {
    DIR *dir = opendir("/proc/self/task");
    assert_non_null(dir);
    size_t count = 0;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        count += e->d_name[0] != '.' ? 1 : 0;
    }
    closedir(dir);
    return count;
}

static void test_healthy_sampler_stops(void **state) {
    (void)state;
    use_machine("healthy.json", "0");
    struct sampler *sampler = start();
    struct pollfd pfd = {.fd = sampler_fd(sampler), .events = POLLIN};
    assert_int_equal(poll(&pfd, 1, 60000), 1);
    struct nvt_snapshot *snap = sampler_take(sampler);
    assert_non_null(snap);
    assert_int_equal(snap->device_count, 1);
    nvt_snapshot_free(snap);
    assert_true(sampler_stop_within(sampler, 60.0));
    assert_true(sampler_stop_within(NULL, 0.0));
}

static void test_stalled_sampler_is_left_to_finish(void **state) {
    (void)state;
    size_t threads_before = thread_count();
    char calls[512];
    snprintf(calls, sizeof(calls), "%s/calls.txt", work_dir);
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    use_machine("stalled.json", STALL_S);
    /* The first snapshot is taken at once and stalls in its utilisation query, which the
     * simulator announces by writing the call counts. */
    struct sampler *sampler = start();
    double deadline = test_now_s() + 30.0;
    while (access(calls, F_OK) != 0 && test_now_s() < deadline) {
        pause_ms(10);
    }
    assert_int_equal(access(calls, F_OK), 0);
    assert_false(sampler_stop_within(sampler, 0.05));
    /* The abandoned thread returns from the driver when the stall ends, frees the sampler and
     * closes its context, then exits. */
    deadline = test_now_s() + 120.0;
    while (thread_count() > threads_before && test_now_s() < deadline) {
        pause_ms(50);
    }
    assert_int_equal(thread_count(), threads_before);
    unsetenv("NVML_SIM_CALLS_FILE");
}

int main(void) {
    snprintf(work_dir, sizeof(work_dir), "%s/nvt-sampler-stall.XXXXXX",
             getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(work_dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_healthy_sampler_stops),
        cmocka_unit_test(test_stalled_sampler_is_left_to_finish),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    static const char *const files[] = {"healthy.json", "stalled.json", "calls.txt"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", work_dir, files[i]);
        remove(path);
    }
    rmdir(work_dir);
    return failed;
}
