/*
 * Snapshots against tests/lib/scenarios/lib-basic.json, value by value: a MIG-enabled A100 with
 * two MIG devices in slots 0 and 2, a busy RTX 3090 with compute, graphics, C+G and MPS
 * processes, a T4 whose memory queries are not supported (unified memory) and whose process
 * lists are denied, and a lost GPU.  This test's own pid is one of the GPU processes, so its host
 * data is real.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

struct fixture {
    nvt_context *ctx;
    struct nvt_snapshot *snap;
};

static int setup(void **state) {
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    static struct fixture f;
    f.ctx = tu_open(tu_test_scenario("lib-basic.json"));
    assert_int_equal(nvt_snapshot_take(f.ctx, NVT_SAMPLE_ALL, &f.snap), NVT_OK);
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    nvt_snapshot_free(f->snap);
    nvt_close(f->ctx);
    return 0;
}

static void test_system(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    assert_string_equal(snap->system.driver_version, "550.54.15");
    assert_int_equal(snap->system.cuda_driver_version, 12040);
    assert_int_equal(snap->system.device_count, 4);
    assert_int_equal(snap->device_count, 6);
    assert_int_equal(snap->flags, NVT_SAMPLE_ALL);
    assert_true(snap->timestamp > 1e9);
}

static void test_mig_parent(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    const struct nvt_device_snapshot *d = &snap->devices[0];
    assert_string_equal(d->info.name, "NVIDIA A100-SXM4-40GB");
    assert_string_equal(d->info.uuid, "GPU-3eb79704-1571-707c-aee8-f43ce747313d");
    assert_string_equal(d->info.bus_id, "00000000:07:00.0");
    assert_false(d->info.is_mig);
    assert_true(d->info.mig_supported);
    assert_int_equal(d->info.mig_max_count, 7);
    assert_int_equal(d->state.mig_mode, NVT_FEATURE_ENABLED);
    assert_int_equal(d->first_child, 1);
    assert_int_equal(d->child_count, 2);
    assert_int_equal(d->parent, NVT_NA_SIZE);
    assert_false(nvt_snapshot_is_leaf(snap, 0));
    assert_int_equal(d->state.memory_used_bytes, 15000 * MiB);
    assert_int_equal(d->state.memory_total_bytes, 40960 * MiB);
    assert_true(nvt_is_na_u32(d->state.fan_speed_pct));
    assert_int_equal(d->state.temperature_c, 33);
    assert_int_equal(d->state.power_usage_mw, 90000);
    assert_int_equal(d->state.power_limit_mw, 400000);
    assert_int_equal(d->state.persistence_mode, NVT_FEATURE_ENABLED);
    assert_int_equal(d->info.cuda_cc_major, 8);
    assert_int_equal(d->info.cuda_cc_minor, 0);
}

static void test_mig_children(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    const struct nvt_device_snapshot *a = &snap->devices[1];
    const struct nvt_device_snapshot *b = &snap->devices[2];
    assert_true(a->info.is_mig);
    assert_true(nvt_snapshot_is_leaf(snap, 1));
    assert_int_equal(a->parent, 0);
    assert_int_equal(a->info.index, 0);
    assert_int_equal(a->info.mig_index, 0);
    assert_int_equal(a->info.gpu_instance_id, 1);
    assert_int_equal(a->info.compute_instance_id, 0);
    assert_string_equal(a->info.name, "NVIDIA A100-SXM4-40GB MIG 3g.20gb");
    assert_string_equal(a->info.uuid, "MIG-37b51284-1df4-5451-979d-3231ccb0822e");
    assert_string_equal(a->info.bus_id, "00000000:07:00.0"); /* the parent's */
    assert_int_equal(a->state.memory_used_bytes, 10000 * MiB);
    assert_int_equal(a->state.memory_total_bytes, 19968 * MiB);
    assert_int_equal(a->state.bar1_total_bytes, 32767 * MiB);
    assert_int_equal(a->state.mig_mode, NVT_FEATURE_NA);
    assert_true(nvt_is_na_u32(a->state.gpu_util_pct));
    /* An empty slot (1) is skipped: the next MIG device keeps its slot as mig_index. */
    assert_int_equal(b->info.mig_index, 2);
    assert_int_equal(b->info.gpu_instance_id, 13);
    assert_int_equal(b->parent, 0);
}

static void test_busy_gpu(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    const struct nvt_device_snapshot *d = &snap->devices[3];
    assert_int_equal(d->info.index, 1);
    assert_true(nvt_snapshot_is_leaf(snap, 3));
    assert_int_equal(d->state.memory_used_bytes, 20110 * MiB);
    assert_int_equal(d->state.memory_reserved_bytes, 300 * MiB);
    assert_false(d->state.memory_is_host);
    assert_int_equal(d->state.gpu_util_pct, 87);
    assert_int_equal(d->state.memory_bandwidth_util_pct, 42);
    assert_int_equal(d->state.encoder_util_pct, 3);
    assert_int_equal(d->state.decoder_util_pct, 4);
    assert_int_equal(d->state.fan_speed_pct, 72);
    assert_int_equal(d->state.temperature_c, 71);
    assert_int_equal(d->state.power_usage_mw, 312000);
    assert_int_equal(d->state.power_limit_mw, 350000);
    assert_int_equal(d->state.performance_state, 2);
    assert_int_equal(d->state.persistence_mode, NVT_FEATURE_DISABLED);
    assert_int_equal(d->state.display_active, NVT_FEATURE_ENABLED);
    assert_int_equal(d->state.display_mode, NVT_FEATURE_ENABLED);
    assert_int_equal(d->state.power_management, NVT_FEATURE_ENABLED);
    assert_int_equal(d->state.compute_mode, NVT_COMPUTE_MODE_EXCLUSIVE_PROCESS);
    assert_int_equal(d->state.ecc_uncorrected_volatile, 2);
    assert_int_equal(d->state.mig_mode, NVT_FEATURE_NA);
    assert_int_equal(d->state.clock_graphics_mhz, 1860);
    assert_int_equal(d->state.clock_memory_mhz, 9751);
    assert_int_equal(d->state.clock_video_mhz, 1695);
    assert_int_equal(d->state.pcie_link_gen, 3);
    assert_int_equal(d->state.pcie_link_width, 16);
    assert_int_equal(d->state.pcie_tx_kibps, 182000);
    assert_int_equal(d->state.pcie_rx_kibps, 1240000);
    assert_int_equal(d->state.bar1_total_bytes, 256 * MiB);
    assert_int_equal(d->info.max_clock_graphics_mhz, 2100);
    assert_int_equal(d->info.max_clock_memory_mhz, 9751);
    assert_int_equal(d->info.power_limit_min_mw, 100000);
    assert_int_equal(d->info.power_limit_max_mw, 400000);
    assert_int_equal(d->info.pcie_link_gen_max, 4);
    assert_int_equal(d->info.pcie_link_width_max, 16);
    assert_string_equal(d->info.vbios_version, "94.02.42.00.A9");
    assert_int_equal(d->info.pci_device_id, 0x220410DE);
    assert_int_equal(d->info.pci_subsystem_id, 0x147D10DE);
    assert_int_equal(d->info.pci_bus, 0x1A);
    assert_false(d->info.mig_supported);
    assert_int_equal(d->info.cuda_cc_major, 8);
    assert_int_equal(d->info.cuda_cc_minor, 6);
    assert_int_equal(d->info.nvlink_count, 2);
    /* NVLink throughput needs two samples of the same context: N/A in the first. */
    assert_true(nvt_is_na_double(d->state.nvlink_tx_kibps[0]));
}

static void test_nvlink_throughput(void **state) {
    nvt_context *ctx = ((struct fixture *)*state)->ctx;
    struct nvt_snapshot *snap = NULL;
    usleep(200000); /* let the counters advance: the rate is checked with a wide margin */
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_NVLINK, &snap), NVT_OK);
    const struct nvt_device_state *rtx = &snap->devices[3].state;
    for (size_t link = 0; link < 2; link++) {
        double tx = rtx->nvlink_tx_kibps[link];
        double rx = rtx->nvlink_rx_kibps[link];
        if (!(tx > 0.75e6 && tx < 1.25e6 && rx > 1.5e6 && rx < 2.5e6)) {
            fail_msg("link %zu: tx %.0f KiB/s (1000000 expected), rx %.0f KiB/s (2000000)", link,
                     tx, rx);
        }
    }
    assert_true(nvt_is_na_double(rtx->nvlink_tx_kibps[2])); /* past the link count */
    assert_true(nvt_is_na_double(snap->devices[0].state.nvlink_tx_kibps[0])); /* no NVLink */
    nvt_snapshot_free(snap);
}

static void test_unsupported_gpu(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    const struct nvt_device_snapshot *d = &snap->devices[4];
    assert_string_equal(d->info.name, "Tesla T4");
    assert_int_equal(d->state.status, NVT_OK);
    /* Memory queries not supported: the host's virtual memory stands in. */
    assert_true(d->state.memory_is_host);
    assert_false(nvt_is_na_u64(d->state.memory_total_bytes));
    assert_true(d->state.memory_used_bytes <= d->state.memory_total_bytes);
    assert_true(d->state.memory_used_bytes + d->state.memory_free_bytes <=
                d->state.memory_total_bytes); /* buffers and caches are neither */
    assert_true(nvt_is_na_u64(d->state.memory_reserved_bytes));
    assert_true(nvt_is_na_u32(d->state.gpu_util_pct));
    assert_true(nvt_is_na_u32(d->state.memory_bandwidth_util_pct));
    assert_true(nvt_is_na_u32(d->state.temperature_c));
    assert_true(nvt_is_na_u32(d->state.fan_speed_pct));
    for (size_t i = 0; i < snap->process_count; i++) {
        assert_int_not_equal(snap->processes[i].device, 4); /* lists denied: none */
    }
}

static void test_lost_gpu(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    const struct nvt_device_snapshot *d = &snap->devices[5];
    assert_int_equal(d->info.index, 3);
    assert_int_equal(d->info.handle_status, NVT_ERR_GPU_IS_LOST);
    assert_int_equal(d->state.status, NVT_ERR_GPU_IS_LOST);
    assert_string_equal(d->info.name, "");
    assert_true(nvt_is_na_u64(d->state.memory_used_bytes));
    assert_true(nvt_is_na_u32(d->state.temperature_c));
    assert_true(nvt_is_na_double(d->state.nvlink_tx_kibps[0]));
}

static const struct nvt_gpu_process *find(const struct nvt_snapshot *snap, size_t slot,
                                          uint32_t pid) {
    for (size_t i = 0; i < snap->process_count; i++) {
        if (snap->processes[i].device == slot && snap->processes[i].pid == pid) {
            return &snap->processes[i];
        }
    }
    fail_msg("no process %u on slot %zu", pid, slot);
    static const struct nvt_gpu_process none; /* not reached: fail_msg ends the test */
    return &none;
}

static void test_processes(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    uint32_t self = (uint32_t)getpid();
    assert_int_equal(snap->process_count, 6);
    for (size_t i = 1; i < snap->process_count; i++) {
        const struct nvt_gpu_process *a = &snap->processes[i - 1];
        const struct nvt_gpu_process *b = &snap->processes[i];
        assert_true(a->device < b->device || (a->device == b->device && a->pid < b->pid));
    }
    const struct nvt_gpu_process *p = find(snap, 1, self);
    assert_int_equal(p->type, NVT_PROCESS_COMPUTE);
    assert_int_equal(p->gpu_memory_bytes, 9000 * MiB);
    assert_int_equal(p->gpu_instance_id, 1);
    assert_int_equal(p->compute_instance_id, 0);

    p = find(snap, 2, self); /* memory hidden (MIG without privileges): utilisation N/A too */
    assert_true(nvt_is_na_u64(p->gpu_memory_bytes));
    assert_int_equal(p->gpu_instance_id, 13);
    assert_true(nvt_is_na_u32(p->sm_util_pct));

    p = find(snap, 3, self);
    assert_int_equal(p->type, NVT_PROCESS_COMPUTE);
    assert_int_equal(p->gpu_memory_bytes, 1000 * MiB);
    assert_int_equal(p->sm_util_pct, 10);
    assert_int_equal(p->memory_util_pct, 5);
    assert_int_equal(p->encoder_util_pct, 1);
    assert_int_equal(p->decoder_util_pct, 2);

    p = find(snap, 3, 4194301);
    assert_int_equal(p->type, NVT_PROCESS_GRAPHICS);
    assert_int_equal(p->gpu_memory_bytes, 4 * MiB);
    assert_int_equal(p->host.status, NVT_HOST_GONE);
    assert_string_equal(p->host.name, "");
    p = find(snap, 3, 4194302);
    assert_int_equal(p->type, NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS);
    assert_int_equal(p->sm_util_pct, 0); /* listed without a sample: idle */
    p = find(snap, 3, 4194303);
    assert_int_equal(p->type, NVT_PROCESS_COMPUTE); /* MPS counts as compute */
    assert_int_equal(p->gpu_memory_bytes, 200 * MiB);
}

static void test_host_data_read_once(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    uint32_t self = (uint32_t)getpid();
    const struct nvt_gpu_process *a = find(snap, 1, self);
    const struct nvt_gpu_process *b = find(snap, 3, self);
    assert_int_equal(a->host.status, NVT_HOST_OK);
    assert_int_equal(a->host.pid, self);
    assert_int_equal(a->host.ppid, (uint32_t)getppid());
    assert_int_equal(a->host.uid, (uint32_t)getuid());
    assert_string_equal(a->host.name, "lib_snapshot_test");
    struct passwd *pw = getpwuid(getuid());
    if (pw != NULL) {
        assert_string_equal(a->host.user, pw->pw_name);
    }
    assert_true(a->host.cmdline_count >= 1);
    assert_non_null(strstr(a->host.cmdline[0], "lib_snapshot_test"));
    assert_true(a->host.rss_bytes > 0);
    /* The same pid on two devices shares one host record in the snapshot. */
    assert_ptr_equal(a->host.command, b->host.command);
    assert_ptr_equal(a->host.cmdline, b->host.cmdline);
}

static void test_host_state(void **state) {
    const struct nvt_snapshot *snap = ((struct fixture *)*state)->snap;
    assert_true(snap->host.cpu_count >= 1);
    assert_non_null(snap->host.cpu_percent_per_cpu);
    assert_false(nvt_is_na_u64(snap->host.memory_total_bytes));
    assert_true(snap->host.memory_percent >= 0 && snap->host.memory_percent <= 100);
    assert_true(snap->host.uptime_s > 0);
}

static void test_flags_limit_sampling(void **state) {
    nvt_context *ctx = ((struct fixture *)*state)->ctx;
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES, &snap), NVT_OK);
    assert_int_equal(snap->device_count, 6);
    assert_int_equal(snap->process_count, 0);
    assert_int_equal(snap->host.cpu_count, 0);
    assert_null(snap->host.cpu_percent_per_cpu);
    assert_true(nvt_is_na_double(snap->host.cpu_percent));
    assert_true(nvt_is_na_u32(snap->devices[3].state.clock_graphics_mhz));
    assert_true(nvt_is_na_u32(snap->devices[3].state.pcie_tx_kibps));
    assert_int_equal(snap->devices[3].state.display_mode, NVT_FEATURE_NA);
    nvt_snapshot_free(snap);

    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_PROCESSES, &snap), NVT_OK);
    assert_int_equal(snap->process_count, 6);
    assert_string_equal(snap->processes[0].host.command, "");
    assert_true(nvt_is_na_u64(snap->devices[3].state.memory_used_bytes));
    nvt_snapshot_free(snap);

    assert_int_equal(nvt_snapshot_take(ctx, 1U << 20, &snap), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_snapshot_take(NULL, 0, &snap), NVT_ERR_INVALID_ARGUMENT);
}

/* The unified-memory T4 shows the host's memory as nvitop 1.7 does: psutil's total, free
 * (MemFree) and used (MemTotal - MemFree - Buffers - Cached - SReclaimable), here read from a
 * fixture /proc, where MemTotal - MemAvailable would give 6000000 kB instead of 8000000 kB. */
static void test_unified_memory_figures(void **state) {
    (void)state;
    char root[4096];
    const char *source = getenv("NVT_SOURCE_DIR");
    snprintf(root, sizeof(root), "%s/tests/fixtures/proc/basic", source != NULL ? source : ".");
    tu_use_scenario(tu_test_scenario("lib-basic.json"));
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.proc_root = root;
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_INFO, &snap), NVT_OK);
    const struct nvt_device_state *t4 = &snap->devices[4].state;
    const uint64_t KiB = 1024;
    assert_true(t4->memory_is_host);
    assert_int_equal(t4->memory_total_bytes, 16000000 * KiB);
    assert_int_equal(t4->memory_free_bytes, 4000000 * KiB);
    assert_int_equal(t4->memory_used_bytes, 8000000 * KiB);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

/* One device's list on its own (the metrics screen's fast sampling): the same entries as the
 * snapshot's for that device, without host data. */
static void test_device_processes(void **state) {
    struct fixture *f = *state;
    nvt_device *device;
    assert_int_equal(nvt_device_by_index(f->ctx, 1, &device), NVT_OK);
    struct nvt_gpu_process *list;
    size_t count;
    assert_int_equal(nvt_device_processes(device, 0, &list, &count), NVT_OK);
    assert_int_equal(count, 4);
    for (size_t i = 0; i < count; i++) {
        const struct nvt_gpu_process *want = find(f->snap, 3, list[i].pid);
        assert_int_equal(list[i].type, want->type);
        assert_int_equal(list[i].gpu_memory_bytes, want->gpu_memory_bytes);
        assert_int_equal(list[i].device, 0);
        assert_int_equal(list[i].host.pid, list[i].pid);
        assert_int_equal(list[i].host.status, NVT_HOST_OK);
        assert_string_equal(list[i].host.command, "");
        assert_true(nvt_is_na_double(list[i].host.cpu_percent));
        if (list[i].pid == (uint32_t)getpid()) {
            assert_int_equal(list[i].memory_util_pct, 5);
            assert_int_equal(list[i].encoder_util_pct, 1);
            assert_int_equal(list[i].decoder_util_pct, 2);
        }
    }
    nvt_free(list);

    /* A MIG device: a process without its own ids runs in the device's instance. */
    nvt_device *gpu;
    assert_int_equal(nvt_device_by_index(f->ctx, 0, &gpu), NVT_OK);
    assert_int_equal(nvt_device_mig(gpu, 0, &device), NVT_OK);
    assert_int_equal(nvt_device_processes(device, 0, &list, &count), NVT_OK);
    assert_int_equal(count, 1);
    assert_int_equal(list[0].pid, (uint32_t)getpid());
    assert_int_equal(list[0].gpu_instance_id, 1);
    nvt_free(list);

    assert_int_equal(nvt_device_processes(NULL, 0, &list, &count), NVT_ERR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system),
        cmocka_unit_test(test_mig_parent),
        cmocka_unit_test(test_mig_children),
        cmocka_unit_test(test_busy_gpu),
        cmocka_unit_test(test_nvlink_throughput),
        cmocka_unit_test(test_unsupported_gpu),
        cmocka_unit_test(test_lost_gpu),
        cmocka_unit_test(test_processes),
        cmocka_unit_test(test_device_processes),
        cmocka_unit_test(test_host_data_read_once),
        cmocka_unit_test(test_host_state),
        cmocka_unit_test(test_flags_limit_sampling),
        cmocka_unit_test(test_unified_memory_figures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
