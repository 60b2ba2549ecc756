/*
 * Device selection over hand-made snapshots: the nvisel examples of docs/nvitop-behaviour.md §4.5
 * (two GPUs, GPU 0 busy, GPU 1 idle) and the finer rules of §4.3 (tolerance, N/A comparisons, sort
 * key, MIG rule).
 */
#include <stdio.h>
#include <string.h>

#include <nvitop/select.h>

#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static struct nvt_device_snapshot devices[4];
static struct nvt_gpu_process processes[3];
static struct nvt_snapshot snap;

static void set_device(size_t slot, uint32_t index, uint64_t total_mib, uint64_t used_mib,
                       uint32_t util, uint32_t memory_util) {
    struct nvt_device_snapshot *d = &devices[slot];
    memset(d, 0, sizeof(*d));
    d->info.index = index;
    d->info.mig_index = NVT_NA_U32;
    d->parent = NVT_NA_SIZE;
    d->state.memory_total_bytes = total_mib * MiB;
    d->state.memory_used_bytes = used_mib * MiB;
    d->state.memory_free_bytes = (total_mib - used_mib) * MiB;
    d->state.gpu_util_pct = util;
    d->state.memory_bandwidth_util_pct = memory_util;
    d->state.mig_mode = NVT_FEATURE_DISABLED;
}

static void set_process(size_t i, size_t slot, uint64_t memory_mib, const char *user) {
    memset(&processes[i], 0, sizeof(processes[i]));
    processes[i].pid = (uint32_t)(1000 + i);
    processes[i].device = slot;
    processes[i].gpu_memory_bytes = memory_mib == NVT_NA_U64 ? NVT_NA_U64 : memory_mib * MiB;
    processes[i].host.user = user;
}

/* The workstation of §4.5: GPU 0 busy (20110 MiB used, 87 %), GPU 1 idle. */
static int workstation(void **state) {
    (void)state;
    set_device(0, 0, 24576, 20110, 87, 45);
    set_device(1, 1, 24576, 3, 0, 0);
    set_process(0, 0, 20000, "me");
    set_process(1, 0, 100, "other");
    set_process(2, 1, 3, "other");
    memset(&snap, 0, sizeof(snap));
    snap.flags =
        NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
    snap.device_count = 2;
    snap.devices = devices;
    snap.process_count = 3;
    snap.processes = processes;
    return 0;
}

static const size_t all[] = {0, 1, 2, 3};

/* Run a selection and compare the chosen NVML indices, e.g. "1,0". */
static nvt_status select_text(const struct nvt_select_criteria *criteria, size_t count, char *text,
                              bool *prefer_uuid) {
    size_t slots[4];
    size_t chosen = 99;
    nvt_status status =
        nvt_select_devices(&snap, all, count, criteria, slots, &chosen, prefer_uuid);
    text[0] = '\0';
    for (size_t i = 0; i < chosen && status != NVT_ERR_INVALID_ARGUMENT; i++) {
        const struct nvt_device_info *info = &snap.devices[slots[i]].info;
        char item[16];
        if (info->is_mig) {
            snprintf(item, sizeof(item), "%s%u:%u", i > 0 ? "," : "", info->index, info->mig_index);
        } else {
            snprintf(item, sizeof(item), "%s%u", i > 0 ? "," : "", info->index);
        }
        strcat(text, item);
    }
    return status;
}

static void expect(const struct nvt_select_criteria *criteria, nvt_status status,
                   const char *expected) {
    char text[64];
    bool prefer_uuid;
    assert_int_equal(select_text(criteria, snap.device_count, text, &prefer_uuid), status);
    assert_string_equal(text, expected);
}

static void test_nvisel_examples(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    c.tolerance_pct = 10; /* nvisel's default */
    expect(&c, NVT_OK, "1,0");

    c.min_count = 1;
    c.max_count = 1; /* -n 1 */
    expect(&c, NVT_OK, "1");

    nvt_select_criteria_init(&c);
    c.tolerance_pct = 10;
    c.min_count = 2;
    c.min_free_memory_bytes = 10 * GiB; /* -c 2 -f 10GiB: the short list, as nvitop returns */
    expect(&c, NVT_OK, "1");

    /* -f 22GiB --tol 0 --account-as-free (as "me"): GPU 0's 20000 MiB of "me" count as free. */
    const char *accounts[] = {"me"};
    nvt_select_criteria_init(&c);
    c.min_free_memory_bytes = 22 * GiB;
    expect(&c, NVT_OK, "1");
    c.free_accounts = accounts;
    c.free_account_count = 1;
    expect(&c, NVT_OK, "1,0");

    nvt_select_criteria_init(&c);
    c.no_sort = true; /* -S keeps the given order */
    expect(&c, NVT_OK, "0,1");
}

static void test_tolerance_and_limits(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    c.max_gpu_util_pct = 80;
    expect(&c, NVT_OK, "1"); /* 87 % > 80 % */
    c.tolerance_pct = 10;    /* 87 <= 80 + 10 passes, but counts as loosened: sorted last */
    expect(&c, NVT_OK, "1,0");
    nvt_select_criteria_init(&c);
    c.max_memory_util_pct = 40;
    c.tolerance_pct = 5;
    expect(&c, NVT_OK, "1,0");
    c.tolerance_pct = 4;
    expect(&c, NVT_OK, "1");
    nvt_select_criteria_init(&c);
    c.min_total_memory_bytes = 25 * GiB;
    expect(&c, NVT_OK, "");
    c.tolerance_pct = 10;
    expect(&c, NVT_OK, "1,0");

    nvt_select_criteria_init(&c);
    c.min_count = 2;
    c.max_count = 1;
    expect(&c, NVT_ERR_INVALID_ARGUMENT, "");
    c.min_count = 0;
    c.max_count = 0;
    expect(&c, NVT_OK, "");
}

static void test_not_available(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    /* N/A free memory passes a minimum; N/A utilisation fails a maximum. */
    devices[0].state.memory_free_bytes = NVT_NA_U64;
    c.min_free_memory_bytes = 30 * GiB;
    expect(&c, NVT_OK, "0");
    devices[0].state.gpu_util_pct = NVT_NA_U32;
    c.max_gpu_util_pct = 100;
    expect(&c, NVT_OK, "");
    /* ... and sorts first (NaN first in nvitop's key). */
    nvt_select_criteria_init(&c);
    devices[1].info.index = 0;
    devices[0].info.index = 1;
    expect(&c, NVT_OK, "1,0");
    /* With free accounts, N/A free memory becomes NaN, which fails a minimum. */
    const char *accounts[] = {"me"};
    c.free_accounts = accounts;
    c.free_account_count = 1;
    c.min_free_memory_bytes = 1;
    expect(&c, NVT_OK, "0");
}

/* A lost GPU (at open, or during the snapshot: state.status) is never chosen, even with no
 * criteria at all; nor is one the driver gave no handle for. */
static void test_lost_never_chosen(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    devices[1].state.status = NVT_ERR_GPU_IS_LOST;
    expect(&c, NVT_OK, "0");
    devices[1].state.status = NVT_OK;
    devices[1].info.handle_status = NVT_ERR_GPU_IS_LOST;
    expect(&c, NVT_OK, "0");
    devices[0].info.handle_status = NVT_ERR_NVML_UNKNOWN;
    expect(&c, NVT_OK, "");
}

static void test_sort_ties(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    set_device(0, 0, 24576, 3, 0, 0);
    set_device(1, 1, 24576, 3, 0, 0);
    snap.process_count = 0;
    expect(&c, NVT_OK, "1,0"); /* equal: the higher index first, to keep GPU 0 free */
    devices[0].state.memory_used_bytes = 4 * MiB; /* same free, more used ranks first */
    expect(&c, NVT_OK, "0,1");
}

static int mig_machine(void **state) {
    (void)state;
    set_device(0, 0, 40960, 30000, 50, 10);
    set_device(1, 1, 40960, 0, 0, 0);
    devices[1].state.mig_mode = NVT_FEATURE_ENABLED;
    set_device(2, 1, 10240, 0, 0, 0);
    devices[2].info.is_mig = true;
    devices[2].info.mig_index = 0;
    devices[2].parent = 1;
    set_device(3, 1, 20480, 0, 0, 0);
    devices[3].info.is_mig = true;
    devices[3].info.mig_index = 1;
    devices[3].parent = 1;
    memset(&snap, 0, sizeof(snap));
    snap.flags = NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO;
    snap.device_count = 4;
    snap.devices = devices;
    return 0;
}

static void test_mig_rule(void **state) {
    (void)state;
    static const size_t leaves[] = {0, 2, 3};
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    size_t slots[3];
    size_t count = 0;
    bool prefer_uuid = false;
    /* The MIG device with the most free memory ranks first: only it is kept, by UUID. */
    assert_int_equal(nvt_select_devices(&snap, leaves, 3, &c, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(slots[0], 3);
    assert_true(prefer_uuid);
    /* Enough non-MIG devices for min_count: MIG devices are dropped. */
    c.min_count = 1;
    assert_int_equal(nvt_select_devices(&snap, leaves, 3, &c, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(slots[0], 0);
    assert_false(prefer_uuid);
    /* A plain GPU ranking first drops the MIG devices too. */
    c.min_count = 0;
    devices[0].state.memory_used_bytes = 0;
    devices[0].state.memory_free_bytes = 40960 * MiB;
    assert_int_equal(nvt_select_devices(&snap, leaves, 3, &c, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(slots[0], 0);
}

static void test_bad_arguments(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    size_t slots[4];
    size_t count;
    bool prefer_uuid;
    static const size_t bad[] = {7};
    assert_int_equal(nvt_select_devices(&snap, bad, 1, &c, slots, &count, &prefer_uuid),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_select_devices(NULL, all, 1, &c, slots, &count, &prefer_uuid),
                     NVT_ERR_INVALID_ARGUMENT);
    c.min_count = 1;
    assert_int_equal(nvt_select_devices(&snap, all, 0, &c, slots, &count, &prefer_uuid), NVT_OK);
    assert_int_equal(count, 0);
}

/* A snapshot without what selection reads is refused with a reason, never half-used (a snapshot
 * without NVT_SAMPLE_INFO has no UUIDs: a UUID result would be empty names). */
static void test_snapshot_requirements(void **state) {
    (void)state;
    struct nvt_select_criteria c;
    nvt_select_criteria_init(&c);
    size_t slots[4];
    size_t count = 99;
    bool prefer_uuid;
    assert_null(nvt_select_unmet(&snap, &c));
    assert_int_equal(nvt_select_devices(&snap, all, 2, &c, slots, &count, &prefer_uuid), NVT_OK);

    snap.flags &= ~(unsigned)NVT_SAMPLE_INFO;
    assert_int_equal(nvt_select_devices(&snap, all, 2, &c, slots, &count, &prefer_uuid),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(count, 0);
    assert_string_equal(nvt_select_unmet(&snap, &c),
                        "the snapshot was taken without NVT_SAMPLE_INFO (device UUIDs)");

    snap.flags = NVT_SAMPLE_DEVICES_FAST | NVT_SAMPLE_INFO; /* memory and utilisation suffice */
    assert_int_equal(nvt_select_devices(&snap, all, 2, &c, slots, &count, &prefer_uuid), NVT_OK);
    snap.flags = NVT_SAMPLE_INFO;
    assert_int_equal(nvt_select_devices(&snap, all, 2, &c, slots, &count, &prefer_uuid),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_string_equal(nvt_select_unmet(&snap, &c),
                        "the snapshot was taken without NVT_SAMPLE_DEVICES (memory and "
                        "utilisation)");

    const char *accounts[] = {"me"};
    c.free_accounts = accounts;
    c.free_account_count = 1;
    snap.flags = NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO | NVT_SAMPLE_PROCESSES;
    assert_int_equal(nvt_select_devices(&snap, all, 2, &c, slots, &count, &prefer_uuid),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_string_equal(nvt_select_unmet(&snap, &c),
                        "free_accounts needs a snapshot taken with NVT_SAMPLE_PROCESSES and "
                        "NVT_SAMPLE_HOST_PROCESSES (process owners)");
    assert_string_equal(nvt_select_unmet(NULL, &c), "no snapshot");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_nvisel_examples, workstation),
        cmocka_unit_test_setup(test_tolerance_and_limits, workstation),
        cmocka_unit_test_setup(test_not_available, workstation),
        cmocka_unit_test_setup(test_lost_never_chosen, workstation),
        cmocka_unit_test_setup(test_sort_ties, workstation),
        cmocka_unit_test_setup(test_mig_rule, mig_machine),
        cmocka_unit_test_setup(test_bad_arguments, workstation),
        cmocka_unit_test_setup(test_snapshot_requirements, workstation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
