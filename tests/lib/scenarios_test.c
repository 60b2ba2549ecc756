/*
 * Every bundled scenario (the JSON files in sim/scenarios/) read through the library and compared
 * with the scenario file itself: driver facts, device names, UUIDs, bus ids, constant numbers, N/A
 * fields, lost GPUs, MIG devices and the processes of every leaf device.  Numbers given as
 * functions of time are only checked to be present.  legacy-driver.json runs on the legacy driver
 * variant.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define MiB (UINT64_C(1) << 20)

struct run {
    json_t *root;
    nvt_context *ctx;
    struct nvt_snapshot *snap;
    bool legacy;
};

/* "${NAME:-default}" or "${NAME}" or a number, as the simulator resolves it. */
static uint32_t resolve_pid(const json_t *value) {
    if (json_is_integer(value)) {
        return (uint32_t)json_integer_value(value);
    }
    const char *text = json_string_value(value);
    assert_non_null(text);
    char name[128];
    const char *fallback = NULL;
    assert_true(strncmp(text, "${", 2) == 0);
    const char *end = strchr(text, '}');
    assert_non_null(end);
    size_t len = (size_t)(end - text - 2);
    assert_true(len < sizeof(name));
    memcpy(name, text + 2, len);
    name[len] = '\0';
    char *dash = strstr(name, ":-");
    if (dash != NULL) {
        *dash = '\0';
        fallback = dash + 2;
    }
    const char *env = getenv(name);
    const char *pid = env != NULL && env[0] != '\0' ? env : fallback;
    assert_non_null(pid);
    return (uint32_t)strtoul(pid, NULL, 10);
}

/* A constant number of the scenario, or false when it is a function of time, N/A or absent. */
static bool constant(const json_t *object, const char *key, double *out) {
    const json_t *value = object != NULL ? json_object_get(object, key) : NULL;
    if (!json_is_number(value)) {
        return false;
    }
    *out = json_number_value(value);
    return true;
}

/* Is the value explicitly unavailable (null or an {"error": ...} object)? */
static bool unavailable(const json_t *object, const char *key) {
    const json_t *value = object != NULL ? json_object_get(object, key) : NULL;
    return json_is_null(value) || (json_is_object(value) && json_object_get(value, "error"));
}

static void check_processes(const struct run *run, const json_t *list, size_t slot) {
    size_t distinct = 0;
    size_t count = json_is_array(list) ? json_array_size(list) : 0;
    for (size_t i = 0; i < count; i++) {
        const json_t *entry = json_array_get(list, i);
        uint32_t pid = resolve_pid(json_object_get(entry, "pid"));
        bool repeated = false;
        for (size_t j = 0; j < i; j++) {
            repeated |= resolve_pid(json_object_get(json_array_get(list, j), "pid")) == pid;
        }
        distinct += !repeated;
        const struct nvt_gpu_process *found = NULL;
        for (size_t k = 0; k < run->snap->process_count; k++) {
            if (run->snap->processes[k].device == slot && run->snap->processes[k].pid == pid) {
                found = &run->snap->processes[k];
            }
        }
        if (found == NULL) {
            fail_msg("pid %u missing on slot %zu", pid, slot);
            return;
        }
        double used;
        if (constant(entry, "used_mib", &used) && !repeated) {
            assert_int_equal(found->gpu_memory_bytes, (uint64_t)used * MiB);
        } else if (json_is_null(json_object_get(entry, "used_mib"))) {
            assert_true(nvt_is_na_u64(found->gpu_memory_bytes));
        }
        assert_int_not_equal(found->type, 0);
    }
    size_t listed = 0;
    for (size_t k = 0; k < run->snap->process_count; k++) {
        listed += run->snap->processes[k].device == slot;
    }
    assert_int_equal(listed, distinct);
}

static void check_memory(const struct run *run, const json_t *memory,
                         const struct nvt_device_state *state) {
    double total;
    double used;
    double reserved = 0;
    if (memory == NULL || json_is_null(memory) || json_object_get(memory, "error") != NULL) {
        assert_true(state->memory_is_host);
        return;
    }
    assert_false(state->memory_is_host);
    if (constant(memory, "total_mib", &total)) {
        assert_int_equal(state->memory_total_bytes, (uint64_t)total * MiB);
    }
    if (constant(memory, "used_mib", &used)) {
        /* The legacy driver's v1 struct counts reserved memory as used. */
        if (run->legacy) {
            constant(memory, "reserved_mib", &reserved);
        }
        assert_int_equal(state->memory_used_bytes, (uint64_t)(used + reserved) * MiB);
    }
}

static void check_mig(const struct run *run, const json_t *mig, size_t slot) {
    const struct nvt_device_snapshot *parent = &run->snap->devices[slot];
    if (!json_is_true(json_object_get(mig, "mode"))) {
        assert_int_not_equal(parent->state.mig_mode, NVT_FEATURE_ENABLED);
        return;
    }
    const json_t *instances = json_object_get(mig, "instances");
    assert_int_equal(parent->state.mig_mode, NVT_FEATURE_ENABLED);
    assert_int_equal(parent->child_count, json_array_size(instances));
    for (size_t i = 0; i < parent->child_count; i++) {
        const struct nvt_device_snapshot *child = &run->snap->devices[parent->first_child + i];
        const json_t *instance = json_array_get(instances, i);
        assert_true(child->info.is_mig);
        assert_int_equal(child->parent, slot);
        assert_string_equal(child->info.name, json_string_value(json_object_get(instance, "name")));
        assert_string_equal(child->info.uuid, json_string_value(json_object_get(instance, "uuid")));
        assert_int_equal(child->info.gpu_instance_id,
                         json_integer_value(json_object_get(instance, "gpu_instance_id")));
        check_memory(run, json_object_get(instance, "memory"), &child->state);
        check_processes(run, json_object_get(instance, "processes"), parent->first_child + i);
    }
}

static void check_device(const struct run *run, const json_t *device, size_t slot) {
    const struct nvt_device_snapshot *d = &run->snap->devices[slot];
    if (json_is_true(json_object_get(device, "lost"))) {
        assert_int_equal(d->info.handle_status, NVT_ERR_GPU_IS_LOST);
        assert_int_equal(d->state.status, NVT_ERR_GPU_IS_LOST);
        return;
    }
    assert_int_equal(d->info.handle_status, NVT_OK);
    assert_string_equal(d->info.name, json_string_value(json_object_get(device, "name")));
    assert_string_equal(d->info.uuid, json_string_value(json_object_get(device, "uuid")));
    const char *bus_id =
        json_string_value(json_object_get(json_object_get(device, "pci"), "bus_id"));
    if (bus_id != NULL && strlen(bus_id) == 16) {
        assert_string_equal(d->info.bus_id, bus_id);
    }
    check_memory(run, json_object_get(device, "memory"), &d->state);
    double value;
    if (constant(device, "temperature", &value)) {
        assert_int_equal(d->state.temperature_c, (uint32_t)value);
    } else if (unavailable(device, "temperature")) {
        assert_true(nvt_is_na_u32(d->state.temperature_c));
    }
    if (constant(device, "fan", &value)) {
        assert_int_equal(d->state.fan_speed_pct, (uint32_t)value);
    } else if (unavailable(device, "fan")) {
        assert_true(nvt_is_na_u32(d->state.fan_speed_pct));
    }
    const json_t *mig = json_object_get(device, "mig");
    if (mig != NULL) {
        check_mig(run, mig, slot);
    }
    if (d->state.mig_mode != NVT_FEATURE_ENABLED) {
        check_processes(run, json_object_get(device, "processes"), slot);
    }
}

static void check_scenario(const char *name, bool legacy) {
    struct run run = {.legacy = legacy};
    json_error_t error;
    run.root = json_load_file(tu_bundled_scenario(name), 0, &error);
    if (run.root == NULL) {
        fail_msg("%s: %s", name, error.text);
    }
    tu_use_scenario(tu_bundled_scenario(name));
    char library[4096];
    snprintf(library, sizeof(library), "%s/sim-driver-legacy/libnvidia-ml.so.1",
             getenv("NVT_BINARY_DIR") != NULL ? getenv("NVT_BINARY_DIR") : "build");
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .nvml_library_path = legacy ? library : NULL};
    assert_int_equal(nvt_open(&opts, &run.ctx), NVT_OK);
    assert_int_equal(nvt_snapshot_take(run.ctx, NVT_SAMPLE_ALL, &run.snap), NVT_OK);

    const json_t *driver = json_object_get(run.root, "driver");
    assert_string_equal(run.snap->system.driver_version,
                        json_string_value(json_object_get(driver, "version")));
    assert_int_equal(run.snap->system.cuda_driver_version,
                     json_integer_value(json_object_get(driver, "cuda_version")));
    const json_t *devices = json_object_get(run.root, "devices");
    assert_int_equal(run.snap->system.device_count, json_array_size(devices));
    size_t slot = 0;
    for (size_t i = 0; i < json_array_size(devices); i++) {
        assert_true(slot < run.snap->device_count);
        assert_int_equal(run.snap->devices[slot].info.index, i);
        check_device(&run, json_array_get(devices, i), slot);
        slot += 1 + run.snap->devices[slot].child_count;
    }
    assert_int_equal(slot, run.snap->device_count);
    const char *missing[4];
    assert_int_equal(nvt_missing_functions(run.ctx, missing, 4), 0);
    nvt_snapshot_free(run.snap);
    nvt_close(run.ctx);
    json_decref(run.root);
}

static void test_workstation(void **state) {
    (void)state;
    check_scenario("workstation-2gpu.json", false);
}

static void test_h100(void **state) {
    (void)state;
    check_scenario("h100-8gpu.json", false);
}

static void test_a100_mig(void **state) {
    (void)state;
    check_scenario("a100-mig.json", false);
}

static void test_faulty(void **state) {
    (void)state;
    check_scenario("faulty.json", false);
}

static void test_unified_memory(void **state) {
    (void)state;
    check_scenario("unified-memory.json", false);
}

static void test_empty(void **state) {
    (void)state;
    check_scenario("empty.json", false);
}

static void test_legacy(void **state) {
    (void)state;
    check_scenario("r418-driver.json", true);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workstation),    cmocka_unit_test(test_h100),
        cmocka_unit_test(test_a100_mig),       cmocka_unit_test(test_faulty),
        cmocka_unit_test(test_unified_memory), cmocka_unit_test(test_empty),
        cmocka_unit_test(test_legacy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
