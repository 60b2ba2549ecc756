/*
 * Reading a device's "mig" object: MIG mode and the MIG devices (GPU instance + compute
 * instance) in their slots.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

#define MIG(member) offsetof(struct sim_mig, member)

static int read_slot_processes(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_ids(struct scenario_ctx *ctx, const json_t *value, void *base);

static const struct scenario_field mig_memory_fields[] = {
    {.key = "total_mib", .kind = FIELD_NUM, .offset = MIG(memory.total_mib), .max = 1e8},
    {.key = "used_mib", .kind = FIELD_NUM, .offset = MIG(memory.used_mib), .max = 1e8},
    {.key = "reserved_mib", .kind = FIELD_NUM, .offset = MIG(memory.reserved_mib), .max = 1e8},
    {0},
};

static const struct scenario_field mig_bar1_fields[] = {
    {.key = "total_mib", .kind = FIELD_NUM, .offset = MIG(bar1.total_mib), .max = 1e8},
    {.key = "used_mib", .kind = FIELD_NUM, .offset = MIG(bar1.used_mib), .max = 1e8},
    {0},
};

/* The slot index and the two instance ids are read before the table (read_ids), so the table
 * only has to accept them. */
static const struct scenario_field instance_fields[] = {
    {.key = "slot", .kind = FIELD_CUSTOM, .custom = read_ids},
    {.key = "gpu_instance_id", .kind = FIELD_CUSTOM, .required = true, .custom = read_ids},
    {.key = "compute_instance_id", .kind = FIELD_CUSTOM, .required = true, .custom = read_ids},
    {.key = "name",
     .kind = FIELD_TEXT,
     .offset = MIG(name),
     .max = NVML_DEVICE_NAME_V2_BUFFER_SIZE - 1,
     .required = true},
    {.key = "uuid",
     .kind = FIELD_TEXT,
     .offset = MIG(uuid),
     .max = NVML_DEVICE_UUID_V2_BUFFER_SIZE - 1,
     .required = true},
    {.key = "memory",
     .kind = FIELD_GROUP,
     .fields = mig_memory_fields,
     .has_group_error = true,
     .error_offset = MIG(memory.error)},
    {.key = "bar1",
     .kind = FIELD_GROUP,
     .fields = mig_bar1_fields,
     .has_group_error = true,
     .error_offset = MIG(bar1.error)},
    {.key = "processes", .kind = FIELD_CUSTOM, .custom = read_slot_processes},
    {0},
};

static int read_ids(struct scenario_ctx *ctx, const json_t *value, void *base) {
    (void)base;
    if (!json_is_integer(value) || json_integer_value(value) < 0 ||
        json_integer_value(value) > 1000) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an integer in 0..1000");
    }
    return 0;
}

static int read_slot_processes(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_mig *mig = base;
    return scenario_read_processes(ctx, value, &mig->processes, mig->gpu_instance_id,
                                   mig->compute_instance_id);
}

/* Picks the instance's slot: the given "slot", else the first free one. */
static int place_instance(struct scenario_ctx *ctx, struct sim_device *dev, const json_t *inst,
                          size_t max_count, struct sim_mig **out) {
    const json_t *slot = json_object_get(inst, "slot");
    size_t index = 0;
    if (json_is_integer(slot)) {
        index = (size_t)json_integer_value(slot);
    } else {
        while (index < max_count && dev->mig[index].present) {
            index++;
        }
    }
    if (index >= max_count || dev->mig[index].present) {
        if (slot != NULL) {
            scenario_push_key(ctx, "slot");
        }
        scenario_fail(ctx, SCENARIO_AT_VALUE, "no free MIG slot %zu (max_count is %zu)", index,
                      max_count);
        if (slot != NULL) {
            scenario_pop(ctx);
        }
        return -1;
    }
    *out = &dev->mig[index];
    return 0;
}

static int read_instance(struct scenario_ctx *ctx, struct sim_device *dev, const json_t *inst,
                         size_t max_count) {
    if (!json_is_object(inst)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an object");
    }
    struct sim_mig *mig = NULL;
    if (place_instance(ctx, dev, inst, max_count, &mig) != 0) {
        return -1;
    }
    scenario_fields_init(instance_fields, mig);
    mig->processes.error = NVML_SUCCESS;
    mig->present = true;
    const json_t *gi = json_object_get(inst, "gpu_instance_id");
    const json_t *ci = json_object_get(inst, "compute_instance_id");
    mig->gpu_instance_id = json_is_integer(gi) ? (unsigned int)json_integer_value(gi) : 0;
    mig->compute_instance_id = json_is_integer(ci) ? (unsigned int)json_integer_value(ci) : 0;
    if (scenario_read_object(ctx, inst, instance_fields, mig) != 0) {
        return -1;
    }
    /* Handles are looked up by it, so a MIG device's UUID is a string, not {"error": ...}. */
    if (mig->uuid.value == NULL || strncmp(mig->uuid.value, "MIG-", 4) != 0) {
        scenario_push_key(ctx, "uuid");
        scenario_fail(ctx, SCENARIO_AT_VALUE,
                      "a MIG device UUID is a string starting with \"MIG-\"");
        scenario_pop(ctx);
        return -1;
    }
    return 0;
}

static int read_instances(struct scenario_ctx *ctx, struct sim_device *dev, const json_t *instances,
                          size_t max_count) {
    if (instances == NULL) {
        return 0;
    }
    scenario_push_key(ctx, "instances");
    int rc = 0;
    if (!json_is_array(instances)) {
        rc = scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an array");
    }
    for (size_t i = 0; rc == 0 && i < json_array_size(instances); i++) {
        scenario_push_index(ctx, i);
        rc = read_instance(ctx, dev, json_array_get(instances, i), max_count);
        scenario_pop(ctx);
    }
    scenario_pop(ctx);
    return rc;
}

static const struct scenario_field mig_fields[] = {
    {.key = "mode", .kind = FIELD_BOOL, .offset = offsetof(struct sim_device, mig_mode)},
    {.key = "pending", .kind = FIELD_BOOL, .offset = offsetof(struct sim_device, mig_pending)},
    {.key = "max_count",
     .kind = FIELD_NUM,
     .offset = offsetof(struct sim_device, mig_max_count),
     .max = SIM_MAX_MIG_SLOTS},
    {.key = "instances", .kind = FIELD_CUSTOM, .custom = read_ids},
    {0},
};

int scenario_read_mig(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    if (!json_is_object(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an object");
    }
    /* "instances" is read separately below; give the table a copy without it. */
    json_t *rest = json_copy(scenario_unconst(value));
    if (rest == NULL) {
        return scenario_no_memory(ctx);
    }
    json_object_del(rest, "instances");
    scenario_fields_init(mig_fields, dev);
    int rc = scenario_read_object(ctx, rest, mig_fields, dev);
    json_decref(rest);
    if (rc != 0) {
        return -1;
    }
    if (dev->mig_pending.error != NVML_SUCCESS && dev->mig_mode.error == NVML_SUCCESS) {
        dev->mig_pending = dev->mig_mode;
    }
    size_t max_count = 0;
    if (dev->mig_max_count.error == NVML_SUCCESS) {
        max_count = (size_t)dev->mig_max_count.base;
    }
    return read_instances(ctx, dev, json_object_get(value, "instances"), max_count);
}
