/*
 * Live changes and driver generations: a scenario copy rewritten while a context is open (a
 * process appears, a GPU falls off the bus and comes back, a GPU is re-partitioned), seen by
 * polling snapshots with a deadline; and the process lists of every driver generation's element
 * layout (docs/nvitop-behaviour.md §9.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB         (UINT64_C(1) << 20)
#define DEADLINE_S  10.0
#define RTX_SLOT    3
#define NEW_PID     4194300
#define NEW_PROCESS "{ \"pid\": 4194300, \"type\": \"compute\", \"used_mib\": 77 },\n        "
#define PID_B_ENTRY "{ \"pid\": \"${NVT_LIB_PID_B"

struct fixture {
    nvt_context *ctx; /* closed by the teardown, also when a test fails half-way */
    char *dir;
    char path[4096];
    char *original;
};

static int setup(void **state) {
    static struct fixture f;
    f.dir = tu_temp_dir();
    snprintf(f.path, sizeof(f.path), "%s/live.json", f.dir);
    f.original = tu_read_file(tu_test_scenario("lib-basic.json"));
    tu_write_file(f.path, f.original);
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    struct fixture *f = *state;
    nvt_close(f->ctx);
    f->ctx = NULL;
    tu_remove_tree(f->dir);
    free(f->dir);
    free(f->original);
    return 0;
}

static const struct nvt_gpu_process *find(const struct nvt_snapshot *snap, size_t slot,
                                          uint32_t pid) {
    for (size_t i = 0; i < snap->process_count; i++) {
        if (snap->processes[i].device == slot && snap->processes[i].pid == pid) {
            return &snap->processes[i];
        }
    }
    return NULL;
}

/* Like find(), but the process must exist. */
static const struct nvt_gpu_process *require(const struct nvt_snapshot *snap, size_t slot,
                                             uint32_t pid) {
    const struct nvt_gpu_process *p = find(snap, slot, pid);
    if (p == NULL) {
        fail_msg("no process %u on slot %zu", pid, slot);
        static const struct nvt_gpu_process none; /* not reached: fail_msg ends the test */
        return &none;
    }
    return p;
}

/* Take snapshots until check() holds or the deadline passes. */
static bool poll_until(nvt_context *ctx, bool (*check)(const struct nvt_snapshot *)) {
    double deadline = tu_now() + DEADLINE_S;
    while (tu_now() < deadline) {
        struct nvt_snapshot *snap = NULL;
        assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES, &snap),
                         NVT_OK);
        bool done = check(snap);
        nvt_snapshot_free(snap);
        if (done) {
            return true;
        }
        usleep(20000);
    }
    return false;
}

static bool has_new_process(const struct nvt_snapshot *snap) {
    const struct nvt_gpu_process *p = find(snap, RTX_SLOT, NEW_PID);
    return p != NULL && p->gpu_memory_bytes == 77 * MiB;
}

static bool lacks_new_process(const struct nvt_snapshot *snap) {
    return find(snap, RTX_SLOT, NEW_PID) == NULL;
}

static bool rtx_lost(const struct nvt_snapshot *snap) {
    return snap->devices[RTX_SLOT].state.status == NVT_ERR_GPU_IS_LOST;
}

static bool rtx_back(const struct nvt_snapshot *snap) {
    return snap->devices[RTX_SLOT].state.status == NVT_OK &&
           snap->devices[RTX_SLOT].state.memory_used_bytes == 20110 * MiB;
}

static void test_process_appears_and_exits(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, lacks_new_process));
    /* Only the RTX lists NVT_LIB_PID_B: the new process goes in front of it. */
    char *changed = tu_replace(f->original, PID_B_ENTRY, NEW_PROCESS PID_B_ENTRY);
    tu_write_file(f->path, changed);
    free(changed);
    assert_true(poll_until(ctx, has_new_process));
    tu_write_file(f->path, f->original);
    assert_true(poll_until(ctx, lacks_new_process));
}

static void test_gpu_lost_and_back(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, rtx_back));
    char *lost =
        tu_replace(f->original, "\"uuid\": \"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40\",",
                   "\"uuid\": \"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40\", \"lost\": true,");
    tu_write_file(f->path, lost);
    free(lost);
    assert_true(poll_until(ctx, rtx_lost));
    /* A lost GPU lists no processes and leaves the others alone. */
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
    assert_null(find(snap, RTX_SLOT, NEW_PID));
    for (size_t i = 0; i < snap->process_count; i++) {
        assert_int_not_equal(snap->processes[i].device, RTX_SLOT);
    }
    assert_int_equal(snap->devices[0].state.status, NVT_OK);
    assert_true(nvt_is_na_u32(snap->devices[RTX_SLOT].state.temperature_c));
    nvt_snapshot_free(snap);
    tu_write_file(f->path, f->original);
    assert_true(poll_until(ctx, rtx_back));
}

static bool rtx_named(const struct nvt_snapshot *snap) {
    return rtx_back(snap) &&
           strcmp(snap->devices[RTX_SLOT].info.name, "NVIDIA GeForce RTX 3090") == 0;
}

/* Lost after the context got its handle but before its facts were read: they are read once the
 * GPU answers again. */
static void test_facts_after_early_loss(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    char *lost =
        tu_replace(f->original, "\"uuid\": \"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40\",",
                   "\"uuid\": \"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40\", \"lost\": true,");
    tu_write_file(f->path, lost);
    free(lost);
    /* Wait with live queries only, so that no fact is read before the loss is visible. */
    nvt_device *rtx = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &rtx), NVT_OK);
    struct nvt_device_state live;
    nvt_device_state_init(&live);
    double deadline = tu_now() + DEADLINE_S;
    do {
        assert_int_equal(nvt_device_state(rtx, 0, &live), NVT_OK);
    } while (live.status != NVT_ERR_GPU_IS_LOST && tu_now() < deadline);
    assert_int_equal(live.status, NVT_ERR_GPU_IS_LOST);
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES, &snap), NVT_OK);
    assert_string_equal(snap->devices[RTX_SLOT].info.name, ""); /* unreadable while lost */
    nvt_snapshot_free(snap);
    tu_write_file(f->path, f->original);
    assert_true(poll_until(ctx, rtx_named));
}

#define RTX_UUID_KEY "\"uuid\": \"GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40\","
#define RTX_USED_KEY "\"used_mib\": 20110,"

static bool rtx_reset(const struct nvt_snapshot *snap) {
    return snap->devices[RTX_SLOT].state.status == NVT_OK &&
           snap->devices[RTX_SLOT].state.memory_used_bytes == 5000 * MiB;
}

/* What a snapshot shows of the RTX while it is reset: the old values (before the driver saw the
 * rewrite), a lost GPU with nothing read (the old handle answers GPU_IS_LOST), or the new values
 * with the facts read again through the new handle; never old and new, or lost and values, mixed.
 * Returns 0, 1 or 2 for those, -1 for anything else. */
static int reset_phase(const struct nvt_snapshot *snap) {
    const struct nvt_device_snapshot *rtx = &snap->devices[RTX_SLOT];
    bool named = strcmp(rtx->info.name, "NVIDIA GeForce RTX 3090") == 0 &&
                 strcmp(rtx->info.uuid, "GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40") == 0;
    if (rtx_back(snap) && named) {
        return 0;
    }
    if (rtx->state.status == NVT_ERR_GPU_IS_LOST && rtx->info.name[0] == '\0' &&
        nvt_is_na_u64(rtx->state.memory_used_bytes) && nvt_is_na_u32(rtx->state.temperature_c)) {
        for (size_t i = 0; i < snap->process_count; i++) {
            if (snap->processes[i].device == RTX_SLOT) {
                return -1;
            }
        }
        return 1;
    }
    if (rtx_reset(snap) && named && rtx->state.temperature_c == 71) {
        return 2;
    }
    return -1;
}

/* A GPU reset: the handle the context holds answers GPU_IS_LOST for good and the driver hands out
 * a new one.  The next snapshot shows the GPU lost, the one after it again, read through the new
 * handle, with no value of the old handle beside the new ones. */
static void test_gpu_reset(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, rtx_named));
    nvt_device *rtx = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 1, &rtx), NVT_OK);
    void *old_handle = nvt_device_nvml_handle(rtx);
    assert_non_null(old_handle);
    char *reset1 = tu_replace(f->original, RTX_UUID_KEY, RTX_UUID_KEY " \"resets\": 1,");
    char *reset = tu_replace(reset1, RTX_USED_KEY, "\"used_mib\": 5000,");
    free(reset1);
    tu_write_file(f->path, reset);
    free(reset);
    int phase = 0;
    double deadline = tu_now() + DEADLINE_S;
    while (phase != 2 && tu_now() < deadline) {
        struct nvt_snapshot *snap = NULL;
        assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT | NVT_SAMPLE_INFO, &snap),
                         NVT_OK);
        int now = reset_phase(snap);
        nvt_snapshot_free(snap);
        assert_true(now >= phase); /* no step back to old values, nothing mixed (-1) */
        phase = now;
        usleep(20000);
    }
    assert_int_equal(phase, 2);
    assert_non_null(nvt_device_nvml_handle(rtx));
    assert_ptr_not_equal(nvt_device_nvml_handle(rtx), old_handle);
    /* The processes are the ones listed through the new handle. */
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT | NVT_SAMPLE_INFO, &snap), NVT_OK);
    assert_int_equal(reset_phase(snap), 2);
    bool listed = false;
    for (size_t i = 0; i < snap->process_count; i++) {
        listed = listed || (snap->processes[i].device == RTX_SLOT &&
                            snap->processes[i].gpu_memory_bytes == 1000 * MiB);
    }
    assert_true(listed);
    nvt_snapshot_free(snap);
}

/* While a GPU stays lost, each snapshot looks its handle up once, not per query. */
static void test_lost_gpu_lookups_bounded(void **state) {
    struct fixture *f = *state;
    char calls[4096];
    snprintf(calls, sizeof(calls), "%s/calls.txt", f->dir);
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, rtx_named));
    struct nvt_snapshot *first = NULL; /* with the UUIDs, which the lookups then use */
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_INFO, &first), NVT_OK);
    nvt_snapshot_free(first);
    char *lost = tu_replace(f->original, RTX_UUID_KEY, RTX_UUID_KEY " \"lost\": true,");
    tu_write_file(f->path, lost);
    free(lost);
    assert_true(poll_until(ctx, rtx_lost));
    enum {
        SNAPSHOTS = 5
    };
    for (int i = 0; i < SNAPSHOTS; i++) {
        struct nvt_snapshot *snap = NULL;
        assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap), NVT_OK);
        assert_true(rtx_lost(snap));
        nvt_snapshot_free(snap);
    }
    nvt_close(ctx);
    f->ctx = NULL;
    unsetenv("NVML_SIM_CALLS_FILE");
    char *text = tu_read_file(calls);
    /* At most one lookup per snapshot since the loss was first seen (poll_until's last one
     * included), none by index beyond the context's own. */
    assert_true(tu_calls_of(text, "nvmlDeviceGetHandleByUUID") <= SNAPSHOTS + 1);
    assert_true(tu_calls_of(text, "nvmlDeviceGetHandleByUUID") >= SNAPSHOTS);
    free(text);
}

/* The scenario without the A100's MIG instance in slot 2 (the last one). */
static char *without_mig_slot_2(const char *original) {
    const char *start = strstr(original, "] },\n          { \"slot\": 2,");
    assert_non_null(start);
    start += strlen("] }");
    const char *end = strstr(start, "] }\n        ]");
    assert_non_null(end);
    end += strlen("] }");
    size_t head = (size_t)(start - original);
    char *text = malloc(strlen(original) + 1);
    assert_non_null(text);
    memcpy(text, original, head);
    strcpy(text + head, end);
    return text;
}

/* Slot of the A100's MIG device with this MIG index, or 0 when there is none. */
static size_t mig_slot(const struct nvt_snapshot *snap, uint32_t mig_index) {
    for (size_t i = 0; i < snap->device_count; i++) {
        if (snap->devices[i].info.is_mig && snap->devices[i].info.mig_index == mig_index) {
            return i;
        }
    }
    return 0;
}

static bool mig_2_gone(const struct nvt_snapshot *snap) {
    return mig_slot(snap, 2) == 0 && mig_slot(snap, 0) == 1 && snap->devices[0].child_count == 1;
}

static bool mig_2_back(const struct nvt_snapshot *snap) {
    size_t slot = mig_slot(snap, 2);
    return slot == 2 && snap->devices[0].child_count == 2 &&
           snap->devices[slot].info.gpu_instance_id == 13 &&
           strcmp(snap->devices[slot].info.name, "NVIDIA A100-SXM4-40GB MIG 1g.5gb") == 0;
}

/* A re-partitioned GPU: a destroyed MIG instance leaves the next snapshot (its reads fail), a
 * created one appears within the periodic layout check, and a handle of the old layout stays
 * usable until the context closes. */
static void test_mig_repartitioned(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, mig_2_back));
    nvt_device *a100 = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &a100), NVT_OK);
    assert_int_equal(nvt_device_mig_count(a100), 2);
    nvt_device *old = NULL;
    assert_int_equal(nvt_device_mig(a100, 1, &old), NVT_OK);
    char *changed = without_mig_slot_2(f->original);
    tu_write_file(f->path, changed);
    free(changed);
    assert_true(poll_until(ctx, mig_2_gone));
    struct nvt_device_state state_of_old;
    nvt_device_state_init(&state_of_old);
    assert_int_equal(nvt_device_state(old, NVT_SAMPLE_DEVICES, &state_of_old), NVT_OK);
    assert_int_equal(state_of_old.status, NVT_ERR_GPU_IS_LOST);
    assert_int_equal(nvt_device_mig_count(a100), 1);
    tu_write_file(f->path, f->original);
    assert_true(poll_until(ctx, mig_2_back));
    assert_int_equal(nvt_device_mig_count(a100), 2);
}

static bool a100_lost(const struct nvt_snapshot *snap) {
    return snap->devices[0].state.status == NVT_ERR_GPU_IS_LOST;
}

/* A GPU in MIG mode reset: its MIG devices are enumerated again through the new handle, and a MIG
 * device of the old handle that a caller still holds answers as lost. */
static void test_mig_gpu_reset(void **state) {
    struct fixture *f = *state;
    nvt_context *ctx = f->ctx = tu_open(f->path);
    assert_true(poll_until(ctx, mig_2_back));
    nvt_device *a100 = NULL;
    assert_int_equal(nvt_device_by_index(ctx, 0, &a100), NVT_OK);
    void *old_handle = nvt_device_nvml_handle(a100);
    nvt_device *old_mig = NULL;
    assert_int_equal(nvt_device_mig(a100, 1, &old_mig), NVT_OK);
    void *old_mig_handle = nvt_device_nvml_handle(old_mig);
    const char *key = "\"uuid\": \"GPU-3eb79704-1571-707c-aee8-f43ce747313d\",";
    char *key_reset = malloc(strlen(key) + 16);
    assert_non_null(key_reset);
    snprintf(key_reset, strlen(key) + 16, "%s \"resets\": 3,", key);
    char *reset = tu_replace(f->original, key, key_reset);
    free(key_reset);
    tu_write_file(f->path, reset);
    free(reset);
    assert_true(poll_until(ctx, a100_lost));
    assert_true(poll_until(ctx, mig_2_back));
    assert_ptr_not_equal(nvt_device_nvml_handle(a100), old_handle);
    assert_int_equal(nvt_device_mig_count(a100), 2);
    nvt_device *new_mig = NULL;
    assert_int_equal(nvt_device_mig(a100, 1, &new_mig), NVT_OK);
    assert_ptr_not_equal(new_mig, old_mig);
    assert_ptr_not_equal(nvt_device_nvml_handle(new_mig), old_mig_handle);
    struct nvt_device_state state_of_old;
    nvt_device_state_init(&state_of_old);
    assert_int_equal(nvt_device_state(old_mig, NVT_SAMPLE_DEVICES, &state_of_old), NVT_OK);
    assert_int_equal(state_of_old.status, NVT_ERR_GPU_IS_LOST);
    assert_string_equal(nvt_device_info(new_mig)->name, "NVIDIA A100-SXM4-40GB MIG 1g.5gb");
}

/* Open the scenario with another driver generation, on the simulated driver that exports what
 * that generation's drivers export (sim-driver-<variant>/, NULL for the default one: the library
 * decides the process layout by the symbols, as nvitop does), and check the RTX's processes. */
static void check_generation(struct fixture *f, const char *generation, const char *variant) {
    char replacement[64];
    snprintf(replacement, sizeof(replacement), "\"generation\": \"%s\"", generation);
    char *changed = tu_replace(f->original, "\"generation\": \"r550\"", replacement);
    /* A build of one branch takes only that branch's driver versions. */
    const char *version = variant == NULL                ? NULL
                          : strcmp(variant, "r535") == 0 ? "\"version\": \"535.104.05\""
                                                         : "\"version\": \"470.182.03\"";
    if (version != NULL) {
        char *again = tu_replace(changed, "\"version\": \"550.54.15\"", version);
        free(changed);
        changed = again;
    }
    tu_write_file(f->path, changed);
    free(changed);
    char library[4096];
    const char *binary = getenv("NVT_BINARY_DIR");
    snprintf(library, sizeof(library), "%s/sim-driver-%s/libnvidia-ml.so.1",
             binary != NULL ? binary : "build", variant != NULL ? variant : "");
    struct nvt_options opts;
    nvt_options_init(&opts);
    opts.nvml_library_path = variant != NULL ? library : NULL;
    tu_use_scenario(f->path);
    assert_int_equal(nvt_open(&opts, &f->ctx), NVT_OK);
    nvt_context *ctx = f->ctx;
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_PROCESSES, &snap), NVT_OK);
    size_t on_rtx = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        if (p->device == RTX_SLOT) {
            on_rtx++;
            assert_true(nvt_is_na_u32(p->gpu_instance_id)); /* a non-MIG GPU has no ids */
        }
        if (p->device == 1) {
            /* MIG processes carry their instance ids in the v2/v3 layouts. */
            assert_int_equal(p->gpu_instance_id, 1);
            assert_int_equal(p->gpu_memory_bytes, 9000 * MiB);
        }
    }
    assert_int_equal(on_rtx, 4);
    const struct nvt_gpu_process *p = require(snap, RTX_SLOT, 4194302);
    assert_int_equal(p->gpu_memory_bytes, 300 * MiB);
    assert_int_equal(p->type, NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS);
    p = require(snap, RTX_SLOT, 4194303);
    assert_int_equal(p->gpu_memory_bytes, 200 * MiB);
    const char *names[4];
    assert_int_equal(nvt_missing_functions(ctx, names, 4), 0);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    f->ctx = NULL;
}

static void test_generations(void **state) {
    struct fixture *f = *state;
    check_generation(f, "pre-r535", "pre-r535");
    check_generation(f, "pre-r535", NULL); /* _v3 exported but not implemented: _v2 */
    check_generation(f, "r510", NULL);
    check_generation(f, "r535", "r535"); /* _v3 with the 32-byte elements */
    check_generation(f, "r550", NULL);
    tu_write_file(f->path, f->original);
}

int main(void) {
    char pid[32];
    snprintf(pid, sizeof(pid), "%d", (int)getpid());
    setenv("NVT_LIB_PID_A", pid, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_process_appears_and_exits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpu_lost_and_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpu_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_gpu_lookups_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_facts_after_early_loss, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mig_repartitioned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mig_gpu_reset, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
