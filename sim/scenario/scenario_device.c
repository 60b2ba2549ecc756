/*
 * Reading the "devices" array: the table of device fields, the PCI bus id, the CUDA compute
 * capability, and the checks across devices (count, duplicate UUIDs and bus ids).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario_internal.h"

#define DEV(member) offsetof(struct sim_device, member)
#define NUM(k, m, lo, hi)                                                                          \
    { .key = (k), .kind = FIELD_NUM, .offset = DEV(m), .min = (lo), .max = (hi) }
#define BOOL(k, m)                                                                                 \
    { .key = (k), .kind = FIELD_BOOL, .offset = DEV(m) }
#define TEXT(k, m, len, req)                                                                       \
    { .key = (k), .kind = FIELD_TEXT, .offset = DEV(m), .max = (len), .required = (req) }

static int read_bus_id(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_capability(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_lost(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_device_processes(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_process_utilization(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_fans(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_remote_bus_ids(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_device_call_errors(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_device_latency(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_field_errors(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_process_race(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_lost_after(struct scenario_ctx *ctx, const json_t *value, void *base);
static int read_resets(struct scenario_ctx *ctx, const json_t *value, void *base);

/* NVML_PCIE_LINK_MAX_SPEED_* in code order. */
static const char *const pcie_speeds[] = {"invalid", "2500",  "5000",  "8000",
                                          "16000",   "32000", "64000", NULL};

static const struct scenario_field pci_fields[] = {
    {.key = "bus_id", .kind = FIELD_CUSTOM, .required = true, .custom = read_bus_id},
    {.key = "device_id", .kind = FIELD_ID, .offset = DEV(pci.device_id), .max = 4294967295.0},
    {.key = "subsystem_id", .kind = FIELD_ID, .offset = DEV(pci.subsystem_id), .max = 4294967295.0},
    NUM("link_gen", pci.link_gen, 1, 6),
    NUM("link_gen_max", pci.link_gen_max, 1, 6),
    NUM("link_width", pci.link_width, 1, 32),
    NUM("link_width_max", pci.link_width_max, 1, 32),
    NUM("tx_kibps", pci.tx_kibps, 0, 1e9),
    NUM("rx_kibps", pci.rx_kibps, 0, 1e9),
    {.key = "max_speed_mbps",
     .kind = FIELD_ENUM,
     .offset = DEV(pci.max_speed),
     .names = pcie_speeds},
    NUM("replay_counter", pci.replay_counter, 0, 4294967295.0),
    {0},
};

static const struct scenario_field memory_fields[] = {
    NUM("total_mib", memory.total_mib, 0, 1e8),
    NUM("used_mib", memory.used_mib, 0, 1e8),
    NUM("reserved_mib", memory.reserved_mib, 0, 1e8),
    {0},
};

static const struct scenario_field bar1_fields[] = {
    NUM("total_mib", bar1.total_mib, 0, 1e8),
    NUM("used_mib", bar1.used_mib, 0, 1e8),
    {0},
};

static const struct scenario_field utilization_fields[] = {
    NUM("gpu", util_gpu, 0, 100),
    NUM("memory", util_memory, 0, 100),
    NUM("encoder", util_encoder, 0, 100),
    NUM("decoder", util_decoder, 0, 100),
    {0},
};

#define CLOCKS(suffix, member)                                                                     \
    NUM("graphics" suffix, member[NVML_CLOCK_GRAPHICS], 0, 1e5),                                   \
        NUM("sm" suffix, member[NVML_CLOCK_SM], 0, 1e5),                                           \
        NUM("memory" suffix, member[NVML_CLOCK_MEM], 0, 1e5),                                      \
        NUM("video" suffix, member[NVML_CLOCK_VIDEO], 0, 1e5)

static const struct scenario_field clock_fields[] = {
    NUM("graphics", clock[NVML_CLOCK_GRAPHICS], 0, 1e5),
    NUM("sm", clock[NVML_CLOCK_SM], 0, 1e5),
    NUM("memory", clock[NVML_CLOCK_MEM], 0, 1e5),
    NUM("video", clock[NVML_CLOCK_VIDEO], 0, 1e5),
    NUM("graphics_max", clock_max[NVML_CLOCK_GRAPHICS], 0, 1e5),
    NUM("sm_max", clock_max[NVML_CLOCK_SM], 0, 1e5),
    NUM("memory_max", clock_max[NVML_CLOCK_MEM], 0, 1e5),
    NUM("video_max", clock_max[NVML_CLOCK_VIDEO], 0, 1e5),
    CLOCKS("_app", clock_app),
    CLOCKS("_app_default", clock_app_default),
    CLOCKS("_boost", clock_boost),
    {0},
};

#define THRESHOLD(k, type) NUM(k, temperature_threshold[NVML_TEMPERATURE_THRESHOLD_##type], 0, 150)

static const struct scenario_field temperature_threshold_fields[] = {
    THRESHOLD("shutdown", SHUTDOWN),
    THRESHOLD("slowdown", SLOWDOWN),
    THRESHOLD("mem_max", MEM_MAX),
    THRESHOLD("gpu_max", GPU_MAX),
    THRESHOLD("acoustic_min", ACOUSTIC_MIN),
    THRESHOLD("acoustic_curr", ACOUSTIC_CURR),
    THRESHOLD("acoustic_max", ACOUSTIC_MAX),
    THRESHOLD("gps_curr", GPS_CURR),
    {0},
};

static const struct scenario_field power_fields[] = {
    NUM("usage_w", power_usage_w, 0, 1e5), NUM("limit_w", power_limit_w, 0, 1e5),
    NUM("min_w", power_min_w, 0, 1e5),     NUM("max_w", power_max_w, 0, 1e5),
    BOOL("management", power_management),  NUM("default_limit_w", power_default_limit_w, 0, 1e5),
    NUM("energy_j", energy_j, 0, 1e15),    {0},
};

static const struct scenario_field ecc_fields[] = {
    NUM("volatile_corrected", ecc_volatile_corrected, 0, 1e15),
    NUM("volatile_uncorrected", ecc_volatile_uncorrected, 0, 1e15),
    NUM("aggregate_corrected", ecc_aggregate_corrected, 0, 1e15),
    NUM("aggregate_uncorrected", ecc_aggregate_uncorrected, 0, 1e15),
    {0},
};

static const struct scenario_field nvlink_fields[] = {
    NUM("links", nvlink_links, 0, NVML_NVLINK_MAX_LINKS),
    NUM("tx_kibps", nvlink_tx_kibps, 0, 1e9),
    NUM("rx_kibps", nvlink_rx_kibps, 0, 1e9),
    NUM("version", nvlink_version, 1, 9),
    {.key = "remote_bus_ids", .kind = FIELD_CUSTOM, .custom = read_remote_bus_ids},
    {0},
};

static const struct scenario_field conf_compute_fields[] = {
    NUM("protected_mib", cc_protected_mib, 0, 1e8),
    NUM("unprotected_mib", cc_unprotected_mib, 0, 1e8),
    {0},
};

static const struct scenario_field ecc_mode_fields[] = {
    BOOL("current", ecc_mode),
    BOOL("pending", ecc_mode_pending),
    {0},
};

static const struct scenario_field inforom_fields[] = {
    TEXT("image", inforom_image, NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE - 1, false),
    TEXT("oem", inforom[NVML_INFOROM_OEM], NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE - 1, false),
    TEXT("ecc", inforom[NVML_INFOROM_ECC], NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE - 1, false),
    TEXT("power", inforom[NVML_INFOROM_POWER], NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE - 1, false),
    {0},
};

static const char *const operation_modes[] = {"all_on", "compute", "low_dp", NULL};

static const struct scenario_field operation_mode_fields[] = {
    {.key = "current", .kind = FIELD_ENUM, .offset = DEV(gom), .names = operation_modes},
    {.key = "pending", .kind = FIELD_ENUM, .offset = DEV(gom_pending), .names = operation_modes},
    {0},
};

static const struct scenario_field auto_boost_fields[] = {
    BOOL("enabled", auto_boost),
    BOOL("default", auto_boost_default),
    {0},
};

/* NVML_DEVICE_ARCH_* from Kepler (2) on, in code order. */
static const char *const architectures[] = {"kepler", "maxwell", "pascal", "volta",     "turing",
                                            "ampere", "ada",     "hopper", "blackwell", NULL};

/* nvmlBrandType_t in code order. */
static const char *const brands[] = {
    "unknown",    "quadro",       "tesla",      "nvs",         "grid",       "geforce",
    "titan",      "nvidia_vapps", "nvidia_vpc", "nvidia_vcs",  "nvidia_vws", "nvidia_cloud_gaming",
    "quadro_rtx", "nvidia_rtx",   "nvidia",     "geforce_rtx", "titan_rtx",  NULL};

static const char *const bus_types[] = {"unknown", "pci", "pcie", "fpci", "agp", NULL};

static const char *const power_sources[] = {"ac", "battery", "undersized", NULL};

static const char *const compute_modes[] = {"default", "exclusive_thread", "prohibited",
                                            "exclusive_process", NULL};

#define GROUP(k, table)                                                                            \
    { .key = (k), .kind = FIELD_GROUP, .fields = (table) }

static const struct scenario_field device_fields[] = {
    TEXT("name", name, NVML_DEVICE_NAME_V2_BUFFER_SIZE - 1, true),
    TEXT("uuid", uuid, NVML_DEVICE_UUID_V2_BUFFER_SIZE - 1, true),
    TEXT("serial", serial, NVML_DEVICE_SERIAL_BUFFER_SIZE - 1, false),
    TEXT("vbios", vbios, NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE - 1, false),
    {.key = "lost", .kind = FIELD_CUSTOM, .custom = read_lost},
    {.key = "pci", .kind = FIELD_GROUP, .fields = pci_fields, .required = true},
    {.key = "memory",
     .kind = FIELD_GROUP,
     .fields = memory_fields,
     .has_group_error = true,
     .error_offset = DEV(memory.error)},
    {.key = "bar1",
     .kind = FIELD_GROUP,
     .fields = bar1_fields,
     .has_group_error = true,
     .error_offset = DEV(bar1.error)},
    GROUP("utilization", utilization_fields),
    GROUP("clocks", clock_fields),
    NUM("fan", fan, 0, 100),
    NUM("temperature", temperature, 0, 150),
    GROUP("temperature_thresholds", temperature_threshold_fields),
    GROUP("power", power_fields),
    NUM("pstate", pstate, 0, 15),
    BOOL("persistence_mode", persistence_mode),
    BOOL("display_active", display_active),
    BOOL("display_mode", display_mode),
    {.key = "compute_mode",
     .kind = FIELD_ENUM,
     .offset = DEV(compute_mode),
     .names = compute_modes},
    GROUP("ecc", ecc_fields),
    {.key = "cuda_capability", .kind = FIELD_CUSTOM, .custom = read_capability},
    GROUP("nvlink", nvlink_fields),
    GROUP("conf_compute", conf_compute_fields),
    {.key = "fans", .kind = FIELD_CUSTOM, .custom = read_fans},
    GROUP("ecc_mode", ecc_mode_fields),
    NUM("throttle_reasons", throttle_reasons, 0, 9007199254740991.0),
    {.key = "architecture",
     .kind = FIELD_ENUM,
     .offset = DEV(architecture),
     .names = architectures},
    {.key = "brand", .kind = FIELD_ENUM, .offset = DEV(brand), .names = brands},
    NUM("board_id", board_id, 0, 4294967295.0),
    TEXT("board_part_number", board_part_number, NVML_DEVICE_PART_NUMBER_BUFFER_SIZE - 1, false),
    {.key = "bus_type", .kind = FIELD_ENUM, .offset = DEV(bus_type), .names = bus_types},
    NUM("memory_bus_width", memory_bus_width, 0, 65536),
    NUM("cores", cores, 0, 1e6),
    {.key = "power_source",
     .kind = FIELD_ENUM,
     .offset = DEV(power_source),
     .names = power_sources},
    NUM("minor_number", minor_number, 0, 255),
    BOOL("multi_gpu_board", multi_gpu_board),
    NUM("irq", irq, 0, 65535),
    GROUP("inforom", inforom_fields),
    GROUP("operation_mode", operation_mode_fields),
    GROUP("auto_boost", auto_boost_fields),
    BOOL("retired_pages_pending", retired_pages_pending),
    BOOL("accounting", accounting_mode),
    {.key = "call_errors", .kind = FIELD_CUSTOM, .custom = read_device_call_errors},
    {.key = "call_latency", .kind = FIELD_CUSTOM, .custom = read_device_latency},
    {.key = "field_errors", .kind = FIELD_CUSTOM, .custom = read_field_errors},
    {.key = "process_race", .kind = FIELD_CUSTOM, .custom = read_process_race},
    {.key = "lost_after_queries", .kind = FIELD_CUSTOM, .custom = read_lost_after},
    {.key = "resets", .kind = FIELD_CUSTOM, .custom = read_resets},
    {.key = "mig", .kind = FIELD_CUSTOM, .custom = scenario_read_mig},
    {.key = "processes", .kind = FIELD_CUSTOM, .custom = read_device_processes},
    {.key = "process_utilization", .kind = FIELD_CUSTOM, .custom = read_process_utilization},
    {0},
};

static int read_lost(struct scenario_ctx *ctx, const json_t *value, void *base) {
    if (!json_is_boolean(value)) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected true or false");
    }
    ((struct sim_device *)base)->lost = json_is_true(value);
    return 0;
}

/* "remote_bus_ids": one PCI bus id per NVLink, in link order. */
static int read_remote_bus_ids(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    size_t n = json_array_size(value);
    if (!json_is_array(value) || n > NVML_NVLINK_MAX_LINKS) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an array of at most %d bus ids",
                             NVML_NVLINK_MAX_LINKS);
    }
    for (size_t i = 0; i < n; i++) {
        unsigned int domain = 0;
        unsigned int bus = 0;
        unsigned int device = 0;
        unsigned int function = 0;
        int used = 0;
        const json_t *id = json_array_get(value, i);
        const char *s = json_is_string(id) ? json_string_value(id) : "";
        if (sscanf(s, "%8x:%2x:%2x.%1x%n", &domain, &bus, &device, &function, &used) != 4 ||
            (size_t)used != strlen(s) || device > 0x1F || function > 7) {
            scenario_push_index(ctx, i);
            scenario_fail(ctx, SCENARIO_AT_VALUE,
                          "expected a PCI bus id such as \"00000000:1A:00.0\"");
            scenario_pop(ctx);
            return -1;
        }
        snprintf(dev->nvlink_remote[i], sizeof(dev->nvlink_remote[i]), "%08X:%02X:%02X.%X", domain,
                 bus, device, function);
    }
    dev->nvlink_remote_count = n;
    return 0;
}

/* Accepts "DDDDDDDD:BB:DD.F" or the short "DDDD:BB:DD.F" and stores NVML's 8-digit upper-case
 * form. */
static int read_bus_id(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_pci *pci = &((struct sim_device *)base)->pci;
    unsigned int domain = 0;
    unsigned int bus = 0;
    unsigned int device = 0;
    unsigned int function = 0;
    int used = 0;
    const char *s = json_is_string(value) ? json_string_value(value) : "";
    if (sscanf(s, "%8x:%2x:%2x.%1x%n", &domain, &bus, &device, &function, &used) != 4 ||
        (size_t)used != strlen(s) || device > 0x1F || function > 7) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected a PCI bus id such as \"00000000:1A:00.0\"");
    }
    snprintf(pci->bus_id, sizeof(pci->bus_id), "%08X:%02X:%02X.%X", domain, bus, device, function);
    pci->domain = domain;
    pci->bus = bus;
    pci->device = device;
    return 0;
}

static int read_capability(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    nvmlReturn_t error = NVML_SUCCESS;
    int shape = scenario_read_error(ctx, value, &error);
    if (shape != 0) {
        dev->cuda_major.error = error;
        dev->cuda_minor.error = error;
        return shape < 0 ? -1 : 0;
    }
    unsigned int major = 0;
    unsigned int minor = 0;
    int used = 0;
    const char *s = json_is_string(value) ? json_string_value(value) : "";
    if (sscanf(s, "%2u.%1u%n", &major, &minor, &used) != 2 || (size_t)used != strlen(s) ||
        major == 0) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected \"major.minor\" such as \"8.6\"");
    }
    dev->cuda_major = (struct sim_num){.max = 99, .base = major};
    dev->cuda_minor = (struct sim_num){.max = 9, .base = minor};
    return 0;
}

/* "fans": one speed (percent) per fan, for nvmlDeviceGetNumFans and nvmlDeviceGetFanSpeed_v2. */
static int read_fans(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    size_t n = json_array_size(value);
    if (!json_is_array(value) || n == 0 || n > SIM_MAX_FANS) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an array of 1 to %d fan speeds",
                             SIM_MAX_FANS);
    }
    for (size_t i = 0; i < n; i++) {
        dev->fans[i] = (struct sim_num){.max = 100};
        scenario_push_index(ctx, i);
        int rc = scenario_read_num(ctx, json_array_get(value, i), &dev->fans[i]);
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    dev->fan_count = n;
    return 0;
}

static int read_device_call_errors(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    dev->has_call_faults = true;
    return scenario_read_call_error_table(ctx, value, dev->call_error);
}

static int read_device_latency(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    dev->has_call_faults = true;
    return scenario_read_latency_table(ctx, value, dev->call_latency_s);
}

/* "field_errors": {"<field id>": "ERROR", ...}, what nvmlDeviceGetFieldValues puts in those
 * fields' nvmlReturn while the call itself succeeds. */
static int read_field_errors(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    if (!json_is_object(value) || json_object_size(value) > SIM_MAX_FIELD_ERRORS) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE,
                             "expected an object of at most %d field ids and error names",
                             SIM_MAX_FIELD_ERRORS);
    }
    const char *key;
    const json_t *member;
    json_object_foreach(scenario_unconst(value), key, member) {
        scenario_push_key(ctx, key);
        char *end = NULL;
        unsigned long id = strtoul(key, &end, 10);
        struct sim_field_error *fe = &dev->field_errors[dev->field_error_count];
        int rc = 0;
        if (key[0] == '\0' || *end != '\0' || id > 100000) {
            rc = scenario_fail(ctx, SCENARIO_AT_KEY, "expected a field id such as \"138\"");
        } else if (!json_is_string(member) ||
                   !sim_error_from_name(json_string_value(member), &fe->error) ||
                   fe->error == NVML_SUCCESS) {
            rc = scenario_fail(ctx, SCENARIO_AT_VALUE,
                               "expected an NVML error name such as \"NOT_SUPPORTED\"");
        }
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
        fe->field_id = (unsigned int)id;
        dev->field_error_count++;
    }
    return 0;
}

static int read_process_race(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    if (!json_is_integer(value) || json_integer_value(value) < 0 ||
        json_integer_value(value) > 1000) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a number of processes 0..1000");
    }
    dev->processes.race = (size_t)json_integer_value(value);
    return 0;
}

static int read_lost_after(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    if (!json_is_integer(value) || json_integer_value(value) < 1 ||
        json_integer_value(value) > 1000000000) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a number of queries 1..1000000000");
    }
    dev->lost_after_queries = (unsigned int)json_integer_value(value);
    return 0;
}

static int read_resets(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    if (!json_is_integer(value) || json_integer_value(value) < 0 ||
        json_integer_value(value) > SIM_MAX_RESETS) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected a number of resets 0..%d",
                             SIM_MAX_RESETS);
    }
    dev->resets = (unsigned int)json_integer_value(value);
    return 0;
}

/* What the file leaves to its other keys: a pending ECC mode is the current one unless given,
 * the one-fan query answers the first of "fans" unless "fan" is given. */
static void complete_device(struct sim_device *dev) {
    if (dev->ecc_mode_pending.error == NVML_ERROR_NOT_SUPPORTED) {
        dev->ecc_mode_pending = dev->ecc_mode;
    }
    if (dev->fan_count > 0 && dev->fan.error == NVML_ERROR_NOT_SUPPORTED) {
        dev->fan = dev->fans[0];
    }
}

static int read_device_processes(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    return scenario_read_processes(ctx, value, &dev->processes, 0xFFFFFFFFU, 0xFFFFFFFFU);
}

static int read_process_utilization(struct scenario_ctx *ctx, const json_t *value, void *base) {
    struct sim_device *dev = base;
    int shape = scenario_read_error(ctx, value, &dev->processes.utilization_error);
    if (shape == 0) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected null or {\"error\": ...}");
    }
    return shape < 0 ? -1 : 0;
}

/* UUIDs (of GPUs and MIG devices) and bus ids must be unique: handles are looked up by them. */
static int check_unique(struct scenario_ctx *ctx, const struct sim_model *model, size_t i) {
    const struct sim_device *dev = &model->devices[i];
    for (size_t j = 0; j < i; j++) {
        const struct sim_device *other = &model->devices[j];
        /* A UUID given as {"error": ...} has no value to compare. */
        if (other->uuid.value != NULL && dev->uuid.value != NULL &&
            strcmp(other->uuid.value, dev->uuid.value) == 0) {
            scenario_push_key(ctx, "uuid");
            scenario_fail(ctx, SCENARIO_AT_VALUE, "duplicate UUID \"%s\" (also device %zu)",
                          dev->uuid.value, j);
            scenario_pop(ctx);
            return -1;
        }
        if (strcmp(other->pci.bus_id, dev->pci.bus_id) == 0) {
            scenario_push_key(ctx, "pci");
            scenario_push_key(ctx, "bus_id");
            scenario_fail(ctx, SCENARIO_AT_VALUE, "duplicate PCI bus id \"%s\" (also device %zu)",
                          dev->pci.bus_id, j);
            scenario_pop(ctx);
            scenario_pop(ctx);
            return -1;
        }
    }
    return 0;
}

int scenario_read_devices(struct scenario_ctx *ctx, const json_t *devices,
                          struct sim_model *model) {
    size_t n = json_array_size(devices);
    if (!json_is_array(devices) || n > SIM_MAX_DEVICES) {
        return scenario_fail(ctx, SCENARIO_AT_VALUE, "expected an array of at most %d devices",
                             SIM_MAX_DEVICES);
    }
    model->devices = scenario_alloc(ctx, n, sizeof(*model->devices));
    if (model->devices == NULL) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct sim_device *dev = &model->devices[i];
        scenario_fields_init(device_fields, dev);
        dev->processes.error = NVML_SUCCESS;
        dev->processes.utilization_error = NVML_SUCCESS;
        dev->mig_mode.error = NVML_ERROR_NOT_SUPPORTED;
        dev->mig_pending.error = NVML_ERROR_NOT_SUPPORTED;
        dev->mig_max_count.error = NVML_ERROR_NOT_SUPPORTED;
        dev->cuda_major.error = NVML_ERROR_NOT_SUPPORTED;
        dev->cuda_minor.error = NVML_ERROR_NOT_SUPPORTED;
        model->device_count = i + 1;
        scenario_push_index(ctx, i);
        int rc = scenario_read_object(ctx, json_array_get(devices, i), device_fields, dev);
        if (rc == 0) {
            complete_device(dev);
            rc = check_unique(ctx, model, i);
        }
        scenario_pop(ctx);
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}
