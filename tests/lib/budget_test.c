/*
 * The NVML call budget of a snapshot (the cost that dominates on real hardware), counted by the
 * simulator on the 8-GPU, 20-process scenario: at most 150 calls for one NVT_SAMPLE_DEFAULT
 * snapshot, static facts included (nvitop 1.7 makes 206 for one `nvitop -1`), and no query
 * repeated within a snapshot: every device-level entry point is called at most once per device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define BUDGET  150
#define DEVICES 8

/* Open, take `snapshots` snapshots, close; return the call-count file's text. */
static char *run_cycle(const char *calls_file, int snapshots) {
    remove(calls_file);
    nvt_context *ctx = tu_open(tu_bundled_scenario("h100-8gpu.json"));
    for (int i = 0; i < snapshots; i++) {
        struct nvt_snapshot *snap = NULL;
        assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
        assert_int_equal(snap->device_count, DEVICES);
        assert_int_equal(snap->process_count, 20);
        nvt_snapshot_free(snap);
    }
    nvt_close(ctx);
    return tu_read_file(calls_file);
}

static bool device_level(const char *name) {
    return strncmp(name, "nvmlDevice", 10) == 0 && strncmp(name, "nvmlDeviceGetCount", 18) != 0;
}

/* Calls in `after` beyond `before`, printed and checked against the budget. */
static void check_difference(const char *label, const char *before, const char *after) {
    unsigned long total = 0;
    unsigned long worst = 0;
    const char *worst_name = "";
    char name[128];
    unsigned long count;
    int used;
    const char *line = after;
    while (sscanf(line, "%127s %lu%n", name, &count, &used) == 2) {
        unsigned long extra = count - tu_calls_of(before, name);
        total += extra;
        if (device_level(name) && extra > worst) {
            worst = extra;
            worst_name = line;
        }
        line += used;
        while (*line == '\n') {
            line++;
        }
    }
    print_message("%s: %lu NVML calls (budget %d); at most %lu per device-level entry point\n",
                  label, total, BUDGET, worst);
    assert_true(total <= BUDGET);
    if (worst > DEVICES) {
        fail_msg("%s: repeated query: %.60s", label, worst_name);
    }
}

static void test_budget(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char calls_file[4096];
    snprintf(calls_file, sizeof(calls_file), "%s/calls.txt", dir);
    setenv("NVML_SIM_CALLS_FILE", calls_file, 1);
    char *open_only = run_cycle(calls_file, 0);
    char *one = run_cycle(calls_file, 1);
    char *two = run_cycle(calls_file, 2);
    /* nvt_close unloads the driver, so every cycle starts from zero: one init, one shutdown. */
    assert_int_equal(tu_calls_of(two, "nvmlInit_v2"), 1);
    assert_int_equal(tu_calls_of(two, "nvmlShutdown"), 1);
    /* The first snapshot of a context reads the static facts too. */
    check_difference("first snapshot", open_only, one);
    check_difference("steady snapshot", one, two);
    unsetenv("NVML_SIM_CALLS_FILE");
    free(open_only);
    free(one);
    free(two);
    tu_remove_tree(dir);
    free(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
