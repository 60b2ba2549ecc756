/*
 * PCIe throughput (NVT_SAMPLE_PCIE_THROUGHPUT): drivers from R555 on count PCIe bytes, and the
 * library then takes the rate from the counters' deltas instead of nvmlDeviceGetPcieThroughput,
 * which samples the link for 20 ms per direction before it answers.  The first reading (no
 * delta yet), a counter that went back and older drivers use the blocking query.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define FLAGS      (NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_PCIE_THROUGHPUT)
#define GPUS       2
#define DEADLINE_S 10.0

static const uint32_t tx_rates[GPUS] = {182000, 3000};
static const uint32_t rx_rates[GPUS] = {1240000, 7000};

static struct nvt_snapshot *take(nvt_context *ctx) {
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, FLAGS, &snap), NVT_OK);
    assert_int_equal(snap->device_count, GPUS);
    return snap;
}

/* A rate from the counters: the scenario's, give or take the timing of the two readings. */
static void assert_near(uint32_t got, uint32_t want) {
    double error = ((double)got - (double)want) / (double)want;
    if (error < -0.02 || error > 0.02) {
        fail_msg("rate %u KiB/s, expected about %u", got, want);
    }
}

struct calls {
    unsigned long throughput;
    unsigned long fields;
};

/* The NVML calls of opening scenario_path, `count` PCIe readings 200 ms apart (a rate is within
 * 2 % while the two readings' timing slips by under 4 ms, as on a loaded machine), and closing;
 * every reading is checked against the scenario's rates. */
static struct calls readings(const char *scenario_path, const char *calls_file, int count) {
    remove(calls_file);
    nvt_context *ctx = tu_open(scenario_path);
    for (int i = 0; i < count; i++) {
        if (i > 0) {
            usleep(200000);
        }
        struct nvt_snapshot *snap = take(ctx);
        for (size_t d = 0; d < GPUS; d++) {
            assert_near(snap->devices[d].state.pcie_tx_kibps, tx_rates[d]);
            assert_near(snap->devices[d].state.pcie_rx_kibps, rx_rates[d]);
        }
        nvt_snapshot_free(snap);
    }
    nvt_close(ctx);
    char *text = tu_read_file(calls_file);
    struct calls calls = {tu_calls_of(text, "nvmlDeviceGetPcieThroughput"),
                          tu_calls_of(text, "nvmlDeviceGetFieldValues")};
    free(text);
    return calls;
}

static void test_counters_instead_of_waiting(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char calls_file[4096];
    snprintf(calls_file, sizeof(calls_file), "%s/calls.txt", dir);
    setenv("NVML_SIM_CALLS_FILE", calls_file, 1);
    const char *scenario = tu_test_scenario("pcie-counters.json");
    struct calls one = readings(scenario, calls_file, 1);
    struct calls four = readings(scenario, calls_file, 4);
    unsetenv("NVML_SIM_CALLS_FILE");
    /* The first reading waits (there is no delta yet), the next three only read counters. */
    assert_int_equal(one.throughput, 2 * GPUS);
    assert_int_equal(four.throughput, one.throughput);
    assert_int_equal(four.fields - one.fields, 3 * GPUS);
    tu_remove_tree(dir);
    free(dir);
}

static void test_older_drivers_wait(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char path[4096];
    char calls_file[4096];
    snprintf(path, sizeof(path), "%s/r550.json", dir);
    snprintf(calls_file, sizeof(calls_file), "%s/calls.txt", dir);
    char *original = tu_read_file(tu_test_scenario("pcie-counters.json"));
    char *r550 = tu_replace(original, "\"570.86.15\"", "\"550.54.15\"");
    tu_write_file(path, r550);
    setenv("NVML_SIM_CALLS_FILE", calls_file, 1);
    struct calls one = readings(path, calls_file, 1);
    struct calls four = readings(path, calls_file, 4);
    unsetenv("NVML_SIM_CALLS_FILE");
    /* Every reading waits; the counters are asked for once per GPU, on the first. */
    assert_int_equal(one.throughput, 2 * GPUS);
    assert_int_equal(four.throughput, 4 * 2 * GPUS);
    assert_int_equal(four.fields, one.fields);
    free(r550);
    free(original);
    tu_remove_tree(dir);
    free(dir);
}

/* A rate change reaches the readings; if the counters went back when the driver took the new
 * scenario (the simulator integrates the new rate from its start), the reading falls back to the
 * blocking query rather than showing a nonsense delta. */
static void test_rate_change(void **state) {
    (void)state;
    char *dir = tu_temp_dir();
    char path[4096];
    snprintf(path, sizeof(path), "%s/change.json", dir);
    char *original = tu_read_file(tu_test_scenario("pcie-counters.json"));
    tu_write_file(path, original);
    nvt_context *ctx = tu_open(path);
    nvt_snapshot_free(take(ctx));
    usleep(50000);
    nvt_snapshot_free(take(ctx));
    char *slower = tu_replace(original, "\"tx_kibps\": 182000", "\"tx_kibps\": 91000");
    tu_write_file(path, slower);
    bool seen = false;
    double deadline = tu_now() + DEADLINE_S;
    while (!seen && tu_now() < deadline) {
        usleep(50000);
        struct nvt_snapshot *snap = take(ctx);
        uint32_t tx = snap->devices[0].state.pcie_tx_kibps;
        /* Between the two rates while a delta spans the change, never outside them. */
        assert_true(tx >= 91000 * 0.98 && tx <= 182000 * 1.02);
        seen = tx <= 91000 * 1.02;
        assert_near(snap->devices[1].state.pcie_tx_kibps, tx_rates[1]);
        nvt_snapshot_free(snap);
    }
    assert_true(seen);
    nvt_close(ctx);
    free(slower);
    free(original);
    tu_remove_tree(dir);
    free(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_instead_of_waiting),
        cmocka_unit_test(test_older_drivers_wait),
        cmocka_unit_test(test_rate_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
