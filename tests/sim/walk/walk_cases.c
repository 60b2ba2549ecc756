#include "walk_cases.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "walk_expect.h"

/* ---- printing and checking ---------------------------------------------------------------- */

/* What the scenario says `call` answers for the current device: its call_errors entry, then
 * the value at `path` (NULL: no value to compare, only SUCCESS). */
static nvmlReturn_t expect(const struct walk *w, const char *call, const char *path,
                           const char *const *names, double *v) {
    const json_t *injected = json_object_get(json_object_get(w->root, "call_errors"), call);
    const json_t *own = json_object_get(json_object_get(w->dev, "call_errors"), call);
    if (json_is_string(own) && w->handle != NULL) {
        return walk_error_named(json_string_value(own));
    }
    if (json_is_string(injected)) {
        return walk_error_named(json_string_value(injected));
    }
    *v = 0.0;
    return path != NULL ? walk_expect_num(w->dev != NULL ? w->dev : w->root, path, names, v)
                        : NVML_SUCCESS;
}

/* The device column: its index, or "-" for system queries.  Returns a static buffer. */
static const char *label(const struct walk *w) {
    static char text[16];
    if (w->handle == NULL) {
        return "-";
    }
    snprintf(text, sizeof(text), "%u", w->index);
    return text;
}

static void mismatch(struct walk *w, const char *what, const char *got, const char *want) {
    fprintf(stderr, "MISMATCH %s %s: got %s, scenario says %s\n", label(w), what, got, want);
    w->failures++;
}

static void format_result(char *buf, size_t size, nvmlReturn_t ret, double v) {
    if (ret == NVML_SUCCESS) {
        snprintf(buf, size, "%.0f", v);
    } else {
        snprintf(buf, size, "%s", walk_error_name(ret));
    }
}

/* Prints a numeric answer; the caller checks it. */
static void print_num(const struct walk *w, const char *what, nvmlReturn_t ret, double got) {
    char text[64];
    format_result(text, sizeof(text), ret, got);
    fprintf(w->out, "%s\t%s\t%s\n", label(w), what, text);
}

/* Prints a numeric answer and compares it with (value at `path`) * scale + offset. */
static void check_num(struct walk *w, const char *call, const char *what, nvmlReturn_t ret,
                      double got, const char *path, const char *const *names, double scale,
                      double offset) {
    char text[64];
    format_result(text, sizeof(text), ret, got);
    fprintf(w->out, "%s\t%s\t%s\n", label(w), what, text);
    if (w->root == NULL) {
        return;
    }
    double v = 0.0;
    nvmlReturn_t want = expect(w, call, path, names, &v);
    double want_v = v * scale + offset;
    if (ret != want || (ret == NVML_SUCCESS && path != NULL && fabs(got - want_v) > 0.5)) {
        char expected[64];
        format_result(expected, sizeof(expected), want, want_v);
        mismatch(w, what, text, expected);
    }
}

static void check_text(struct walk *w, const char *call, const char *what, nvmlReturn_t ret,
                       const char *got, const char *path) {
    fprintf(w->out, "%s\t%s\t%s\n", label(w), what,
            ret == NVML_SUCCESS ? got : walk_error_name(ret));
    if (w->root == NULL) {
        return;
    }
    double unused = 0.0;
    nvmlReturn_t want = expect(w, call, NULL, NULL, &unused);
    const char *text = NULL;
    if (want == NVML_SUCCESS) {
        want = walk_expect_text(w->dev != NULL ? w->dev : w->root, path, &text);
    }
    if (ret != want || (ret == NVML_SUCCESS && strcmp(got, text) != 0)) {
        mismatch(w, what, ret == NVML_SUCCESS ? got : walk_error_name(ret),
                 want == NVML_SUCCESS ? text : walk_error_name(want));
    }
}

/* For answers whose value the scenario does not spell out (lists, MIG, versioned structs):
 * printed, and checked only to be an NVML return code. */
static void check_status(struct walk *w, const char *what, nvmlReturn_t ret) {
    fprintf(w->out, "%s\t%s\t%s\n", label(w), what, walk_error_name(ret));
    if (w->root != NULL && strcmp(walk_error_name(ret), "?") == 0) {
        mismatch(w, what, "an unknown return code", "an NVML one");
    }
}

/* ---- the cases ---------------------------------------------------------------------------- */

typedef void (*walk_fn)(struct walk *w, const char *call);

#define API(w, name) ((w)->api->name)

/* Queries of one unsigned (or enum, or enable-state) output. */
typedef nvmlReturn_t (*uint_query)(nvmlDevice_t, unsigned int *);

static const char *const pcie_speeds[] = {"invalid", "2500",  "5000",  "8000",
                                          "16000",   "32000", "64000", NULL};
static const char *const power_sources[] = {"ac", "battery", "undersized", NULL};
static const char *const bus_types[] = {"unknown", "pci", "pcie", "fpci", "agp", NULL};
static const char *const architectures[] = {"kepler", "maxwell", "pascal", "volta",     "turing",
                                            "ampere", "ada",     "hopper", "blackwell", NULL};
static const char *const brands[] = {
    "unknown",    "quadro",       "tesla",      "nvs",         "grid",       "geforce",
    "titan",      "nvidia_vapps", "nvidia_vpc", "nvidia_vcs",  "nvidia_vws", "nvidia_cloud_gaming",
    "quadro_rtx", "nvidia_rtx",   "nvidia",     "geforce_rtx", "titan_rtx",  NULL};
static const char *const compute_modes[] = {"default", "exclusive_thread", "prohibited",
                                            "exclusive_process", NULL};
static const char *const operation_modes[] = {"all_on", "compute", "low_dp", NULL};

static const struct uint_case {
    const char *name;
    size_t offset; /* of the function pointer in struct walk_api */
    const char *path;
    const char *const *names;
    double scale;
    double offset_value;
} uint_cases[] = {
#define U(n, p, names, scale, add)                                                                 \
    { #n, offsetof(struct walk_api, n), p, names, scale, add }
    U(nvmlDeviceGetCurrPcieLinkGeneration, "pci.link_gen", NULL, 1, 0),
    U(nvmlDeviceGetMaxPcieLinkGeneration, "pci.link_gen_max", NULL, 1, 0),
    U(nvmlDeviceGetCurrPcieLinkWidth, "pci.link_width", NULL, 1, 0),
    U(nvmlDeviceGetMaxPcieLinkWidth, "pci.link_width_max", NULL, 1, 0),
    U(nvmlDeviceGetPowerUsage, "power.usage_w", NULL, 1000, 0),
    U(nvmlDeviceGetPowerManagementLimit, "power.limit_w", NULL, 1000, 0),
    U(nvmlDeviceGetEnforcedPowerLimit, "power.limit_w", NULL, 1000, 0),
    U(nvmlDeviceGetPowerManagementDefaultLimit, "power.default_limit_w", NULL, 1000, 0),
    U(nvmlDeviceGetPowerManagementMode, "power.management", NULL, 1, 0),
    U(nvmlDeviceGetDisplayActive, "display_active", NULL, 1, 0),
    U(nvmlDeviceGetDisplayMode, "display_mode", NULL, 1, 0),
    U(nvmlDeviceGetPersistenceMode, "persistence_mode", NULL, 1, 0),
    U(nvmlDeviceGetPerformanceState, "pstate", NULL, 1, 0),
    U(nvmlDeviceGetPowerState, "pstate", NULL, 1, 0),
    U(nvmlDeviceGetComputeMode, "compute_mode", compute_modes, 1, 0),
    U(nvmlDeviceGetBoardId, "board_id", NULL, 1, 0),
    U(nvmlDeviceGetMemoryBusWidth, "memory_bus_width", NULL, 1, 0),
    U(nvmlDeviceGetNumGpuCores, "cores", NULL, 1, 0),
    U(nvmlDeviceGetPcieLinkMaxSpeed, "pci.max_speed_mbps", pcie_speeds, 1, 0),
    U(nvmlDeviceGetPcieReplayCounter, "pci.replay_counter", NULL, 1, 0),
    U(nvmlDeviceGetPowerSource, "power_source", power_sources, 1, 0),
    U(nvmlDeviceGetMinorNumber, "minor_number", NULL, 1, 0),
    U(nvmlDeviceGetMultiGpuBoard, "multi_gpu_board", NULL, 1, 0),
    U(nvmlDeviceGetIrqNum, "irq", NULL, 1, 0),
    U(nvmlDeviceGetBusType, "bus_type", bus_types, 1, 0),
    U(nvmlDeviceGetArchitecture, "architecture", architectures, 1, NVML_DEVICE_ARCH_KEPLER),
    U(nvmlDeviceGetBrand, "brand", brands, 1, 0),
    U(nvmlDeviceGetRetiredPagesPendingStatus, "retired_pages_pending", NULL, 1, 0),
    U(nvmlDeviceGetAccountingMode, "accounting", NULL, 1, 0),
    U(nvmlDeviceGetMaxMigDeviceCount, "mig.max_count", NULL, 1, 0),
#undef U
};

static const struct uint_case *find_uint_case(const char *name) {
    for (size_t i = 0; i < sizeof(uint_cases) / sizeof(uint_cases[0]); i++) {
        if (strcmp(uint_cases[i].name, name) == 0) {
            return &uint_cases[i];
        }
    }
    return NULL;
}

static void walk_uint(struct walk *w, const char *call) {
    const struct uint_case *c = find_uint_case(call);
    if (c == NULL) {
        return;
    }
    uint_query fn = NULL;
    memcpy(&fn, (const char *)w->api + c->offset, sizeof(fn));
    unsigned int v = 0;
    nvmlReturn_t ret = fn(w->handle, &v);
    check_num(w, call, call, ret, v, c->path, c->names, c->scale, c->offset_value);
}

static void walk_index(struct walk *w, const char *call) {
    unsigned int v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetIndex)(w->handle, &v);
    print_num(w, call, ret, v);
    if (w->root != NULL && (ret != NVML_SUCCESS || v != w->index)) {
        mismatch(w, call, "another index", "the walk's");
    }
}

/* nvmlDeviceGetFanSpeed answers "fan", or the first of "fans" when only those are given. */
static const char *fan_path(const struct walk *w) {
    const json_t *fan = json_object_get(w->dev, "fan");
    return fan == NULL && json_object_get(w->dev, "fans") != NULL ? "fans0" : "fan";
}

static void walk_fan(struct walk *w, const char *call) {
    unsigned int v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetFanSpeed)(w->handle, &v);
    const char *path = fan_path(w);
    if (strcmp(path, "fans0") == 0) {
        double want = json_number_value(json_array_get(json_object_get(w->dev, "fans"), 0));
        print_num(w, call, ret, v);
        if (w->root != NULL && ret == NVML_SUCCESS && fabs(v - want) > 0.5) {
            mismatch(w, call, "another speed", "fans[0]");
        }
        return;
    }
    check_num(w, call, call, ret, v, path, NULL, 1, 0);
}

static void walk_fans(struct walk *w, const char *call) {
    unsigned int n = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetNumFans)(w->handle, &n);
    const json_t *fans = json_object_get(w->dev, "fans");
    double v = 0.0;
    bool none =
        fans == NULL && walk_expect_num(w->dev, "fan", NULL, &v) == NVML_ERROR_NOT_SUPPORTED;
    /* A board without fans has a count of 0 (as a real H100 answers), not an error. */
    double count = fans != NULL ? (double)json_array_size(fans) : none ? 0.0 : 1.0;
    if (strcmp(call, "nvmlDeviceGetNumFans") == 0) {
        print_num(w, call, ret, n);
        if (w->root != NULL && ret != NVML_SUCCESS) {
            mismatch(w, call, walk_error_name(ret), "SUCCESS");
        }
        if (w->root != NULL && ret == NVML_SUCCESS && fabs(n - count) > 0.5) {
            mismatch(w, call, "another count", "the scenario's");
        }
        return;
    }
    for (unsigned int fan = 0; fan <= (ret == NVML_SUCCESS ? n : 0); fan++) {
        unsigned int speed = 0;
        nvmlReturn_t r = API(w, nvmlDeviceGetFanSpeed_v2)(w->handle, fan, &speed);
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, fan);
        print_num(w, what, r, speed);
        if (w->root == NULL) {
            continue;
        }
        nvmlReturn_t want = NVML_ERROR_INVALID_ARGUMENT;
        double want_v = 0.0;
        if (fan < n && fans != NULL) {
            want = NVML_SUCCESS;
            want_v = json_number_value(json_array_get(fans, fan));
        } else if (fan < n) {
            want = walk_expect_num(w->dev, "fan", NULL, &want_v);
        }
        if (r != want || (r == NVML_SUCCESS && fabs(speed - want_v) > 0.5)) {
            mismatch(w, what, walk_error_name(r), walk_error_name(want));
        }
    }
}

static void walk_temperature(struct walk *w, const char *call) {
    unsigned int v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetTemperature)(w->handle, NVML_TEMPERATURE_GPU, &v);
    check_num(w, call, call, ret, v, "temperature", NULL, 1, 0);
}

static void walk_temperature_v(struct walk *w, const char *call) {
    nvmlTemperature_v1_t t = {.version = nvmlTemperature_v1, .sensorType = NVML_TEMPERATURE_GPU};
    nvmlReturn_t ret = API(w, nvmlDeviceGetTemperatureV)(w->handle, &t);
    check_num(w, call, call, ret, t.temperature, "temperature", NULL, 1, 0);
}

static void walk_thresholds(struct walk *w, const char *call) {
    static const char *const keys[] = {"shutdown",     "slowdown",      "mem_max",      "gpu_max",
                                       "acoustic_min", "acoustic_curr", "acoustic_max", "gps_curr"};
    for (unsigned int i = 0; i < NVML_TEMPERATURE_THRESHOLD_COUNT; i++) {
        unsigned int v = 0;
        nvmlReturn_t ret = API(w, nvmlDeviceGetTemperatureThreshold)(
            w->handle, (nvmlTemperatureThresholds_t)i, &v);
        char what[96];
        char path[64];
        snprintf(what, sizeof(what), "%s(%s)", call, keys[i]);
        snprintf(path, sizeof(path), "temperature_thresholds.%s", keys[i]);
        check_num(w, call, what, ret, v, path, NULL, 1, 0);
    }
}

static const char *const clock_keys[NVML_CLOCK_COUNT] = {"graphics", "sm", "memory", "video"};

typedef nvmlReturn_t (*clock_query)(nvmlDevice_t, nvmlClockType_t, unsigned int *);

static void walk_clock_table(struct walk *w, const char *call, clock_query fn, const char *suffix) {
    for (unsigned int type = 0; type < NVML_CLOCK_COUNT; type++) {
        unsigned int v = 0;
        nvmlReturn_t ret = fn(w->handle, (nvmlClockType_t)type, &v);
        char what[96];
        char path[64];
        snprintf(what, sizeof(what), "%s(%s)", call, clock_keys[type]);
        snprintf(path, sizeof(path), "clocks.%s%s", clock_keys[type], suffix);
        check_num(w, call, what, ret, v, path, NULL, 1, 0);
    }
}

static void walk_clock_info(struct walk *w, const char *call) {
    walk_clock_table(w, call, API(w, nvmlDeviceGetClockInfo), "");
}

static void walk_max_clock_info(struct walk *w, const char *call) {
    walk_clock_table(w, call, API(w, nvmlDeviceGetMaxClockInfo), "_max");
}

static void walk_applications_clock(struct walk *w, const char *call) {
    walk_clock_table(w, call, API(w, nvmlDeviceGetApplicationsClock), "_app");
}

static void walk_boost_clock(struct walk *w, const char *call) {
    walk_clock_table(w, call, API(w, nvmlDeviceGetMaxCustomerBoostClock), "_boost");
}

static void walk_clock(struct walk *w, const char *call) {
    static const char *const ids[NVML_CLOCK_ID_COUNT] = {"", "_app", "_app_default", "_boost"};
    for (unsigned int id = 0; id < NVML_CLOCK_ID_COUNT; id++) {
        for (unsigned int type = 0; type < NVML_CLOCK_COUNT; type++) {
            unsigned int v = 0;
            nvmlReturn_t ret =
                API(w, nvmlDeviceGetClock)(w->handle, (nvmlClockType_t)type, (nvmlClockId_t)id, &v);
            char what[96];
            char path[64];
            snprintf(what, sizeof(what), "%s(%s,%u)", call, clock_keys[type], id);
            snprintf(path, sizeof(path), "clocks.%s%s", clock_keys[type], ids[id]);
            check_num(w, call, what, ret, v, path, NULL, 1, 0);
        }
    }
}

typedef nvmlReturn_t (*pair_query)(nvmlDevice_t, unsigned int *, unsigned int *);

static void walk_pair(struct walk *w, const char *call, pair_query fn, const char *first,
                      const char *second, const char *const *names) {
    unsigned int a = 0;
    unsigned int b = 0;
    nvmlReturn_t ret = fn(w->handle, &a, &b);
    char what[96];
    snprintf(what, sizeof(what), "%s(current)", call);
    check_num(w, call, what, ret, a, first, names, 1, 0);
    /* A pending value left out of the file is the current one. */
    double unused = 0.0;
    const char *pending =
        walk_expect_num(w->dev, second, names, &unused) == NVML_ERROR_NOT_SUPPORTED ? first
                                                                                    : second;
    snprintf(what, sizeof(what), "%s(pending)", call);
    check_num(w, call, what, ret, b, pending, names, 1, 0);
}

static void walk_ecc_mode(struct walk *w, const char *call) {
    walk_pair(w, call, (pair_query)API(w, nvmlDeviceGetEccMode), "ecc_mode.current",
              "ecc_mode.pending", NULL);
}

static void walk_operation_mode(struct walk *w, const char *call) {
    walk_pair(w, call, (pair_query)API(w, nvmlDeviceGetGpuOperationMode), "operation_mode.current",
              "operation_mode.pending", operation_modes);
}

static void walk_auto_boost(struct walk *w, const char *call) {
    unsigned int a = 0;
    unsigned int b = 0;
    nvmlReturn_t ret =
        ((pair_query)API(w, nvmlDeviceGetAutoBoostedClocksEnabled))(w->handle, &a, &b);
    check_num(w, call, "nvmlDeviceGetAutoBoostedClocksEnabled(enabled)", ret, a,
              "auto_boost.enabled", NULL, 1, 0);
    check_num(w, call, "nvmlDeviceGetAutoBoostedClocksEnabled(default)", ret, b,
              "auto_boost.default", NULL, 1, 0);
}

static void walk_nvlink(struct walk *w, const char *call) {
    double links = 0.0;
    nvmlReturn_t links_ret = walk_expect_num(w->dev, "nvlink.links", NULL, &links);
    bool state = strcmp(call, "nvmlDeviceGetNvLinkState") == 0;
    for (unsigned int link = 0; link < NVML_NVLINK_MAX_LINKS; link++) {
        unsigned int v = 0;
        nvmlReturn_t ret = state
                               ? ((nvmlReturn_t(*)(nvmlDevice_t, unsigned int, unsigned int *))API(
                                     w, nvmlDeviceGetNvLinkState))(w->handle, link, &v)
                               : API(w, nvmlDeviceGetNvLinkVersion)(w->handle, link, &v);
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, link);
        if (links_ret == NVML_SUCCESS && link >= (unsigned int)links) {
            check_num(w, call, what, ret, v, "no-such-key", NULL, 1, 0);
        } else if (state) {
            check_num(w, call, what, ret, v, "nvlink.links", NULL, 0, 1);
        } else {
            check_num(w, call, what, ret, v,
                      links_ret == NVML_SUCCESS ? "nvlink.version" : "nvlink.links", NULL, 1, 0);
        }
    }
}

/* The bus id at the other end of each link, from "nvlink.remote_bus_ids". */
static void walk_nvlink_remote(struct walk *w, const char *call) {
    double links = 0.0;
    nvmlReturn_t links_ret = walk_expect_num(w->dev, "nvlink.links", NULL, &links);
    const json_t *ids = json_object_get(json_object_get(w->dev, "nvlink"), "remote_bus_ids");
    for (unsigned int link = 0; link < NVML_NVLINK_MAX_LINKS; link++) {
        nvmlPciInfo_t pci;
        memset(&pci, 0, sizeof(pci));
        nvmlReturn_t ret = API(w, nvmlDeviceGetNvLinkRemotePciInfo_v2)(w->handle, link, &pci);
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, link);
        fprintf(w->out, "%s\t%s\t%s\n", label(w), what,
                ret == NVML_SUCCESS ? pci.busId : walk_error_name(ret));
        if (w->root == NULL) {
            continue;
        }
        const char *want = json_string_value(json_array_get(ids, link));
        nvmlReturn_t want_ret = links_ret;
        if (want_ret == NVML_SUCCESS && (link >= (unsigned int)links || want == NULL)) {
            want_ret = NVML_ERROR_NOT_SUPPORTED;
        }
        double unused = 0.0;
        nvmlReturn_t injected = expect(w, call, NULL, NULL, &unused);
        want_ret = injected != NVML_SUCCESS ? injected : want_ret;
        if (ret != want_ret || (ret == NVML_SUCCESS && strcasecmp(pci.busId + strlen(pci.busId) - 7,
                                                                  want + strlen(want) - 7) != 0)) {
            mismatch(w, what, walk_error_name(ret),
                     want != NULL ? want : walk_error_name(want_ret));
        }
    }
}

/* The counter starts at the scenario's value and only grows. */
static void walk_energy(struct walk *w, const char *call) {
    unsigned long long v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetTotalEnergyConsumption)(w->handle, &v);
    double start = 0.0;
    double power = 0.0;
    nvmlReturn_t want = walk_expect_num(w->dev, "power.energy_j", NULL, &start);
    if (want == NVML_SUCCESS) {
        want = walk_expect_num(w->dev, "power.usage_w", NULL, &power);
    }
    print_num(w, call, ret, (double)v);
    if (w->root != NULL && (ret != want || (ret == NVML_SUCCESS && (double)v < start * 1000.0))) {
        mismatch(w, call, walk_error_name(ret), walk_error_name(want));
    }
}

static void walk_throttle(struct walk *w, const char *call) {
    unsigned long long v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetCurrentClocksThrottleReasons)(w->handle, &v);
    check_num(w, call, call, ret, (double)v, "throttle_reasons", NULL, 1, 0);
}

static void walk_ecc_errors(struct walk *w, const char *call) {
    static const char *const keys[2][2] = {
        {"ecc.volatile_corrected", "ecc.volatile_uncorrected"},
        {"ecc.aggregate_corrected", "ecc.aggregate_uncorrected"}};
    for (unsigned int counter = 0; counter < 2; counter++) {
        for (unsigned int type = 0; type < 2; type++) {
            unsigned long long v = 0;
            nvmlReturn_t ret = API(w, nvmlDeviceGetTotalEccErrors)(
                w->handle, (nvmlMemoryErrorType_t)type, (nvmlEccCounterType_t)counter, &v);
            check_num(w, call, keys[counter][type], ret, (double)v, keys[counter][type], NULL, 1,
                      0);
        }
    }
}

#define MIB 1048576.0

static void walk_memory(struct walk *w, const char *call) {
    nvmlMemory_t m;
    memset(&m, 0, sizeof(m));
    nvmlReturn_t ret = API(w, nvmlDeviceGetMemoryInfo)(w->handle, &m);
    check_num(w, call, "nvmlDeviceGetMemoryInfo(total)", ret, (double)m.total / MIB,
              "memory.total_mib", NULL, 1, 0);
}

static void walk_memory_v2(struct walk *w, const char *call) {
    nvmlMemory_v2_t m = {.version = nvmlMemory_v2};
    nvmlReturn_t ret = API(w, nvmlDeviceGetMemoryInfo_v2)(w->handle, &m);
    check_num(w, call, "nvmlDeviceGetMemoryInfo_v2(total)", ret, (double)m.total / MIB,
              "memory.total_mib", NULL, 1, 0);
}

static void walk_bar1(struct walk *w, const char *call) {
    nvmlBAR1Memory_t m;
    memset(&m, 0, sizeof(m));
    nvmlReturn_t ret = API(w, nvmlDeviceGetBAR1MemoryInfo)(w->handle, &m);
    check_num(w, call, "nvmlDeviceGetBAR1MemoryInfo(total)", ret, (double)m.bar1Total / MIB,
              "bar1.total_mib", NULL, 1, 0);
}

/* Both rates or neither: the call fails with the first missing one's error. */
static void walk_utilization(struct walk *w, const char *call) {
    nvmlUtilization_t u = {0, 0};
    nvmlReturn_t ret = API(w, nvmlDeviceGetUtilizationRates)(w->handle, &u);
    double v = 0.0;
    nvmlReturn_t want = expect(w, call, "utilization.gpu", NULL, &v);
    if (want == NVML_SUCCESS) {
        want = expect(w, call, "utilization.memory", NULL, &v);
    }
    if (ret != NVML_SUCCESS || (w->root != NULL && want != NVML_SUCCESS)) {
        check_status(w, call, ret);
        if (w->root != NULL && ret != want) {
            mismatch(w, call, walk_error_name(ret), walk_error_name(want));
        }
        return;
    }
    check_num(w, call, "nvmlDeviceGetUtilizationRates(gpu)", ret, u.gpu, "utilization.gpu", NULL, 1,
              0);
    check_num(w, call, "nvmlDeviceGetUtilizationRates(memory)", ret, u.memory, "utilization.memory",
              NULL, 1, 0);
}

static void walk_codec(struct walk *w, const char *call) {
    bool encoder = strcmp(call, "nvmlDeviceGetEncoderUtilization") == 0;
    unsigned int v = 0;
    unsigned int period = 0;
    nvmlReturn_t ret = encoder ? API(w, nvmlDeviceGetEncoderUtilization)(w->handle, &v, &period)
                               : API(w, nvmlDeviceGetDecoderUtilization)(w->handle, &v, &period);
    check_num(w, call, call, ret, v, encoder ? "utilization.encoder" : "utilization.decoder", NULL,
              1, 0);
}

static void walk_capability(struct walk *w, const char *call) {
    int major = 0;
    int minor = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetCudaComputeCapability)(w->handle, &major, &minor);
    char got[32];
    snprintf(got, sizeof(got), "%d.%d", major, minor);
    check_text(w, call, call, ret, got, "cuda_capability");
}

static void walk_pci(struct walk *w, const char *call) {
    nvmlPciInfo_t pci;
    memset(&pci, 0, sizeof(pci));
    bool v3 = strcmp(call, "nvmlDeviceGetPciInfo_v3") == 0;
    nvmlReturn_t ret = v3 ? API(w, nvmlDeviceGetPciInfo_v3)(w->handle, &pci)
                          : API(w, nvmlDeviceGetPciInfo_v2)(w->handle, &pci);
    /* _v2 fills the 16-byte field only and leaves busId as it was (empty here). */
    const char *got = v3 ? pci.busId : pci.busIdLegacy;
    fprintf(w->out, "%s\t%s\t%s\n", label(w), call,
            ret == NVML_SUCCESS ? got : walk_error_name(ret));
    const char *want = NULL;
    double unused = 0.0;
    nvmlReturn_t injected = expect(w, call, NULL, NULL, &unused);
    if (w->root != NULL && injected != NVML_SUCCESS) {
        if (ret != injected) {
            mismatch(w, call, walk_error_name(ret), walk_error_name(injected));
        }
    } else if (w->root != NULL &&
               (ret != NVML_SUCCESS ||
                walk_expect_text(w->dev, "pci.bus_id", &want) != NVML_SUCCESS || strlen(got) < 7 ||
                strcasecmp(got + strlen(got) - 7, want + strlen(want) - 7) != 0 ||
                (!v3 && pci.busId[0] != '\0'))) {
        mismatch(w, call, walk_error_name(ret), "the scenario's bus id");
    }
}

static void walk_pci_v1(struct walk *w, const char *call) {
    nvmlPciInfo_v1_t pci;
    memset(&pci, 0, sizeof(pci));
    nvmlReturn_t ret = API(w, nvmlDeviceGetPciInfo)(w->handle, &pci);
    check_status(w, call, ret);
}

typedef nvmlReturn_t (*text_query)(nvmlDevice_t, char *, unsigned int);

static const struct text_case {
    const char *name;
    size_t offset;
    const char *path;
} text_cases[] = {
#define T(n, p)                                                                                    \
    { #n, offsetof(struct walk_api, n), p }
    T(nvmlDeviceGetName, "name"),
    T(nvmlDeviceGetUUID, "uuid"),
    T(nvmlDeviceGetSerial, "serial"),
    T(nvmlDeviceGetVbiosVersion, "vbios"),
    T(nvmlDeviceGetBoardPartNumber, "board_part_number"),
    T(nvmlDeviceGetInforomImageVersion, "inforom.image"),
#undef T
};

static const struct text_case *find_text_case(const char *name) {
    for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
        if (strcmp(text_cases[i].name, name) == 0) {
            return &text_cases[i];
        }
    }
    return NULL;
}

static void walk_text(struct walk *w, const char *call) {
    const struct text_case *c = find_text_case(call);
    if (c == NULL) {
        return;
    }
    text_query fn = NULL;
    memcpy(&fn, (const char *)w->api + c->offset, sizeof(fn));
    char buf[256] = "";
    nvmlReturn_t ret = fn(w->handle, buf, sizeof(buf));
    check_text(w, call, call, ret, buf, c->path);
}

static void walk_inforom(struct walk *w, const char *call) {
    static const char *const keys[NVML_INFOROM_COUNT] = {"inforom.oem", "inforom.ecc",
                                                         "inforom.power"};
    for (unsigned int i = 0; i < NVML_INFOROM_COUNT; i++) {
        char buf[NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE] = "";
        nvmlReturn_t ret = API(w, nvmlDeviceGetInforomVersion)(w->handle, (nvmlInforomObject_t)i,
                                                               buf, sizeof(buf));
        check_text(w, call, keys[i], ret, buf, keys[i]);
    }
}

/* The ring buffers hold at least the sample taken at init, valued as the scenario says. */
static void walk_samples(struct walk *w, const char *call) {
    static const char *const paths[NVML_SAMPLINGTYPE_COUNT] = {
        "power.usage_w",       "utilization.gpu", "utilization.memory", "utilization.encoder",
        "utilization.decoder", "clocks.graphics", "clocks.memory"};
    for (unsigned int type = 0; type < NVML_SAMPLINGTYPE_COUNT; type++) {
        nvmlValueType_t kind = NVML_VALUE_TYPE_COUNT;
        unsigned int count = 0;
        nvmlReturn_t ret = API(w, nvmlDeviceGetSamples)(w->handle, (nvmlSamplingType_t)type, 0,
                                                        &kind, &count, NULL);
        nvmlSample_t samples[1024];
        unsigned int n = count < ARRAY_SIZE(samples) ? count : (unsigned int)ARRAY_SIZE(samples);
        if (ret == NVML_SUCCESS) {
            ret = API(w, nvmlDeviceGetSamples)(w->handle, (nvmlSamplingType_t)type, 0, &kind, &n,
                                               samples);
        }
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, type);
        /* The newest sample, by its time stamp (the buffer's order is the driver's). */
        unsigned int newest = 0;
        for (unsigned int i = 1; ret == NVML_SUCCESS && i < n; i++) {
            if (samples[i].timeStamp >= samples[newest].timeStamp) {
                newest = i;
            }
        }
        double got = ret == NVML_SUCCESS && n > 0 ? samples[newest].sampleValue.uiVal : 0.0;
        if (type == NVML_PROCESSOR_CLK_SAMPLES || type == NVML_MEMORY_CLK_SAMPLES) {
            /* No clock samples are kept (a real H100 answers NOT_FOUND), unless the clock
             * itself fails. */
            double unused = 0.0;
            nvmlReturn_t want = expect(w, call, paths[type], NULL, &unused);
            want = want == NVML_SUCCESS ? NVML_ERROR_NOT_FOUND : want;
            check_status(w, what, ret);
            if (w->root != NULL && ret != want) {
                mismatch(w, what, walk_error_name(ret), walk_error_name(want));
            }
            continue;
        }
        check_num(w, call, what, ret, got, paths[type], NULL, type == 0 ? 1000 : 1, 0);
    }
}

static bool is_accounted(const json_t *process) {
    const char *type = json_string_value(json_object_get(process, "type"));
    return type != NULL && strcmp(type, "graphics") != 0;
}

static void walk_accounting(struct walk *w, const char *call) {
    unsigned int pids[64];
    unsigned int count = 64;
    nvmlReturn_t ret = API(w, nvmlDeviceGetAccountingPids)(w->handle, &count, pids);
    double on = 0.0;
    nvmlReturn_t want = walk_expect_num(w->dev, "accounting", NULL, &on);
    size_t expected = 0;
    const json_t *processes = json_object_get(w->dev, "processes");
    if (want == NVML_SUCCESS && on == 0.0) {
        /* Off: no process known (SUCCESS, none). */
    } else if (want == NVML_SUCCESS && json_is_array(processes)) {
        for (size_t i = 0; i < json_array_size(processes); i++) {
            expected += is_accounted(json_array_get(processes, i)) ? 1 : 0;
        }
    } else if (want == NVML_SUCCESS && processes != NULL) {
        double unused = 0.0;
        want = walk_expect_num(w->dev, "processes", NULL, &unused);
    }
    if (strcmp(call, "nvmlDeviceGetAccountingPids") == 0) {
        print_num(w, call, ret, count);
        if (w->root != NULL && (ret != want || (ret == NVML_SUCCESS && count != expected))) {
            mismatch(w, call, walk_error_name(ret), walk_error_name(want));
        }
        return;
    }
    for (unsigned int i = 0; ret == NVML_SUCCESS && i < count; i++) {
        nvmlAccountingStats_t stats;
        nvmlReturn_t r = API(w, nvmlDeviceGetAccountingStats)(w->handle, pids[i], &stats);
        check_num(w, call, call, r, stats.isRunning, NULL, NULL, 1, 0);
    }
    nvmlAccountingStats_t stats;
    nvmlReturn_t r = API(w, nvmlDeviceGetAccountingStats)(w->handle, 4194303U, &stats);
    check_status(w, "nvmlDeviceGetAccountingStats(no such pid)", r);
    if (w->root != NULL && r != (want == NVML_SUCCESS ? NVML_ERROR_NOT_FOUND : want)) {
        mismatch(w, call, walk_error_name(r), "NOT_FOUND");
    }
}

/* ---- handles ------------------------------------------------------------------------------ */

static void check_handle(struct walk *w, const char *call, nvmlReturn_t ret, nvmlDevice_t found,
                         nvmlReturn_t want) {
    check_status(w, call, ret);
    if (w->root != NULL && (ret != want || (ret == NVML_SUCCESS && found != w->handle))) {
        mismatch(w, call, walk_error_name(ret), walk_error_name(want));
    }
}

static void walk_by_uuid(struct walk *w, const char *call) {
    const char *uuid = NULL;
    nvmlDevice_t found = NULL;
    if (walk_expect_text(w->dev, "uuid", &uuid) == NVML_SUCCESS) {
        nvmlReturn_t ret = API(w, nvmlDeviceGetHandleByUUID)(uuid, &found);
        check_handle(w, call, ret, found, NVML_SUCCESS);
    }
}

static void walk_by_serial(struct walk *w, const char *call) {
    const char *serial = NULL;
    nvmlDevice_t found = NULL;
    if (walk_expect_text(w->dev, "serial", &serial) == NVML_SUCCESS) {
        nvmlReturn_t ret = API(w, nvmlDeviceGetHandleBySerial)(serial, &found);
        check_handle(w, call, ret, found, NVML_SUCCESS);
    }
    nvmlReturn_t ret = API(w, nvmlDeviceGetHandleBySerial)("no-such-serial", &found);
    check_status(w, "nvmlDeviceGetHandleBySerial(unknown)", ret);
    if (w->root != NULL && ret != NVML_ERROR_NOT_FOUND) {
        mismatch(w, call, walk_error_name(ret), "NOT_FOUND");
    }
}

static void walk_by_bus_id(struct walk *w, const char *call) {
    const char *bus_id = NULL;
    nvmlDevice_t found = NULL;
    if (walk_expect_text(w->dev, "pci.bus_id", &bus_id) != NVML_SUCCESS) {
        return;
    }
    nvmlReturn_t ret = strcmp(call, "nvmlDeviceGetHandleByPciBusId") == 0
                           ? API(w, nvmlDeviceGetHandleByPciBusId)(bus_id, &found)
                           : API(w, nvmlDeviceGetHandleByPciBusId_v2)(bus_id, &found);
    check_handle(w, call, ret, found, NVML_SUCCESS);
}

/* ---- answers the scenario does not spell out value by value ------------------------------ */

static void walk_processes(struct walk *w, const char *call) {
    typedef nvmlReturn_t (*list_query)(nvmlDevice_t, unsigned int *, void *);
    const struct {
        const char *name;
        list_query fn;
    } lists[] = {
        {"nvmlDeviceGetComputeRunningProcesses",
         (list_query)API(w, nvmlDeviceGetComputeRunningProcesses)},
        {"nvmlDeviceGetComputeRunningProcesses_v2",
         (list_query)API(w, nvmlDeviceGetComputeRunningProcesses_v2)},
        {"nvmlDeviceGetComputeRunningProcesses_v3",
         API(w, nvmlDeviceGetComputeRunningProcesses_v3)},
        {"nvmlDeviceGetGraphicsRunningProcesses",
         (list_query)API(w, nvmlDeviceGetGraphicsRunningProcesses)},
        {"nvmlDeviceGetGraphicsRunningProcesses_v2",
         (list_query)API(w, nvmlDeviceGetGraphicsRunningProcesses_v2)},
        {"nvmlDeviceGetGraphicsRunningProcesses_v3",
         API(w, nvmlDeviceGetGraphicsRunningProcesses_v3)},
        {"nvmlDeviceGetMPSComputeRunningProcesses",
         (list_query)API(w, nvmlDeviceGetMPSComputeRunningProcesses)},
        {"nvmlDeviceGetMPSComputeRunningProcesses_v2",
         (list_query)API(w, nvmlDeviceGetMPSComputeRunningProcesses_v2)},
        {"nvmlDeviceGetMPSComputeRunningProcesses_v3",
         API(w, nvmlDeviceGetMPSComputeRunningProcesses_v3)},
    };
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        if (strcmp(lists[i].name, call) == 0 && lists[i].fn != NULL) {
            /* Room for 64 elements of the largest (32-byte) layout. */
            unsigned long long buf[64 * 4];
            unsigned int count = 64;
            check_status(w, call, lists[i].fn(w->handle, &count, buf));
        }
    }
}

static void walk_detail_list(struct walk *w, const char *call) {
    nvmlProcessDetail_v1_t items[64];
    nvmlProcessDetailList_v1_t list = {.version = nvmlProcessDetailList_v1,
                                       .mode = NVML_PROCESS_MODE_COMPUTE,
                                       .numProcArrayEntries = 64,
                                       .procArray = items};
    check_status(w, call, API(w, nvmlDeviceGetRunningProcessDetailList)(w->handle, &list));
}

static void walk_conf_compute(struct walk *w, const char *call) {
    nvmlConfComputeMemSizeInfo_t info;
    nvmlReturn_t ret = API(w, nvmlDeviceGetConfComputeMemSizeInfo)(w->handle, &info);
    check_status(w, call, ret);
}

/* The size query's answer is printed as it is (not checked: the real driver counts the samples
 * in its buffer, not the processes), then a fill with room for 64. */
static void walk_process_utilization(struct walk *w, const char *call) {
    unsigned int count = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetProcessUtilization)(w->handle, NULL, &count, 0);
    fprintf(w->out, "%s\t%s(size)\t%s %u\n", label(w), call, walk_error_name(ret), count);
    nvmlProcessUtilizationSample_t samples[64];
    count = 64;
    check_status(w, call, API(w, nvmlDeviceGetProcessUtilization)(w->handle, samples, &count, 0));
}

static void walk_field_values(struct walk *w, const char *call) {
    nvmlFieldValue_t values[3] = {{.fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT},
                                  {.fieldId = NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX},
                                  {.fieldId = NVML_FI_DEV_PCIE_COUNT_TX_BYTES}};
    nvmlReturn_t ret = API(w, nvmlDeviceGetFieldValues)(w->handle, 3, values);
    check_status(w, call, ret);
    for (size_t i = 0; ret == NVML_SUCCESS && i < 3; i++) {
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, values[i].fieldId);
        check_status(w, what, values[i].nvmlReturn);
    }
}

static void walk_pcie_throughput(struct walk *w, const char *call) {
    unsigned int v = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetPcieThroughput)(w->handle, NVML_PCIE_UTIL_TX_BYTES, &v);
    check_num(w, call, call, ret, v, "pci.tx_kibps", NULL, 1, 0);
}

static void walk_driver_model(struct walk *w, const char *call) {
    nvmlDriverModel_t current = NVML_DRIVER_WDDM;
    nvmlDriverModel_t pending = NVML_DRIVER_WDDM;
    nvmlReturn_t ret = API(w, nvmlDeviceGetDriverModel)(w->handle, &current, &pending);
    check_num(w, call, call, ret, 0, "no-such-key", NULL, 1, 0);
}

/* MIG: the mode, and every MIG device's handle, parent, ids and name. */
static void walk_mig(struct walk *w, const char *call) {
    unsigned int current = 0;
    unsigned int pending = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetMigMode)(w->handle, &current, &pending);
    if (strcmp(call, "nvmlDeviceGetMigMode") == 0) {
        check_num(w, call, "nvmlDeviceGetMigMode(current)", ret, current, "mig.mode", NULL, 1, 0);
        return;
    }
    unsigned int is_mig = 1;
    if (strcmp(call, "nvmlDeviceIsMigDeviceHandle") == 0) {
        nvmlReturn_t r = API(w, nvmlDeviceIsMigDeviceHandle)(w->handle, &is_mig);
        print_num(w, call, r, is_mig);
        if (w->root != NULL && (r != NVML_SUCCESS || is_mig != 0)) {
            mismatch(w, call, walk_error_name(r), "SUCCESS, 0 for a GPU's handle");
        }
        return;
    }
    for (unsigned int slot = 0; ret == NVML_SUCCESS && current == 1 && slot < 7; slot++) {
        nvmlDevice_t mig = NULL;
        nvmlReturn_t r = API(w, nvmlDeviceGetMigDeviceHandleByIndex)(w->handle, slot, &mig);
        if (r != NVML_SUCCESS) {
            continue;
        }
        nvmlDevice_t parent = NULL;
        unsigned int id = 0;
        char what[96];
        snprintf(what, sizeof(what), "%s(%u)", call, slot);
        if (strcmp(call, "nvmlDeviceGetDeviceHandleFromMigDeviceHandle") == 0) {
            r = API(w, nvmlDeviceGetDeviceHandleFromMigDeviceHandle)(mig, &parent);
            check_status(w, what, r);
            if (w->root != NULL && (r != NVML_SUCCESS || parent != w->handle)) {
                mismatch(w, what, walk_error_name(r), "the parent's handle");
            }
        } else if (strcmp(call, "nvmlDeviceGetGpuInstanceId") == 0) {
            check_status(w, what, API(w, nvmlDeviceGetGpuInstanceId)(mig, &id));
        } else if (strcmp(call, "nvmlDeviceGetComputeInstanceId") == 0) {
            check_status(w, what, API(w, nvmlDeviceGetComputeInstanceId)(mig, &id));
        } else {
            check_status(w, what, r);
        }
    }
}

/* ---- the system ---------------------------------------------------------------------------- */

static void walk_driver_version(struct walk *w, const char *call) {
    char buf[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "";
    nvmlReturn_t ret = API(w, nvmlSystemGetDriverVersion)(buf, sizeof(buf));
    check_text(w, call, call, ret, buf, "driver.version");
}

static void walk_nvml_version(struct walk *w, const char *call) {
    char buf[NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE] = "";
    nvmlReturn_t ret = API(w, nvmlSystemGetNVMLVersion)(buf, sizeof(buf));
    fprintf(w->out, "-\t%s\t%s\n", call, ret == NVML_SUCCESS ? buf : walk_error_name(ret));
    if (w->root != NULL && ret != NVML_SUCCESS) {
        mismatch(w, call, walk_error_name(ret), "SUCCESS");
    }
}

static void walk_cuda_version(struct walk *w, const char *call) {
    int v = 0;
    nvmlReturn_t ret = strcmp(call, "nvmlSystemGetCudaDriverVersion") == 0
                           ? API(w, nvmlSystemGetCudaDriverVersion)(&v)
                           : API(w, nvmlSystemGetCudaDriverVersion_v2)(&v);
    check_num(w, call, call, ret, v, "driver.cuda_version", NULL, 1, 0);
}

static void walk_count(struct walk *w, const char *call) {
    unsigned int v = 0;
    nvmlReturn_t ret = strcmp(call, "nvmlDeviceGetCount") == 0 ? API(w, nvmlDeviceGetCount)(&v)
                                                               : API(w, nvmlDeviceGetCount_v2)(&v);
    print_num(w, call, ret, v);
    size_t want = json_array_size(json_object_get(w->root, "devices"));
    if (w->root != NULL && (ret != NVML_SUCCESS || v != want)) {
        mismatch(w, call, "another count", "the scenario's");
    }
}

static void walk_zero_count(struct walk *w, const char *call) {
    unsigned int v = 1;
    nvmlReturn_t ret = strcmp(call, "nvmlUnitGetCount") == 0 ? API(w, nvmlUnitGetCount)(&v)
                       : strcmp(call, "nvmlGetExcludedDeviceCount") == 0
                           ? API(w, nvmlGetExcludedDeviceCount)(&v)
                           : API(w, nvmlSystemGetHicVersion)(&v, NULL);
    print_num(w, call, ret, v);
    if (w->root != NULL && (ret != NVML_SUCCESS || v != 0)) {
        mismatch(w, call, "a count", "0 (the simulated machine has none)");
    }
}

static void walk_process_name(struct walk *w, const char *call) {
    char buf[NVML_SYSTEM_PROCESS_NAME_BUFFER_SIZE] = "";
    nvmlReturn_t ret = API(w, nvmlSystemGetProcessName)((unsigned int)getpid(), buf, sizeof(buf));
    fprintf(w->out, "-\t%s\t%s\n", call, ret == NVML_SUCCESS ? buf : walk_error_name(ret));
    if (w->root != NULL && (ret != NVML_SUCCESS || strstr(buf, "nvml-walk") == NULL)) {
        mismatch(w, call, ret == NVML_SUCCESS ? buf : walk_error_name(ret), "nvml-walk");
    }
    ret = API(w, nvmlSystemGetProcessName)(4194303U, buf, sizeof(buf));
    if (w->root != NULL && ret != NVML_ERROR_NOT_FOUND) {
        mismatch(w, call, walk_error_name(ret), "NOT_FOUND for a pid no process holds");
    }
}

/* Init and shutdown nest: a second reference and its release both succeed. */
static void walk_lifecycle(struct walk *w, const char *call) {
    nvmlReturn_t ret = NVML_SUCCESS;
    if (strcmp(call, "nvmlInit") == 0) {
        ret = API(w, nvmlInit)();
    } else if (strcmp(call, "nvmlInit_v2") == 0) {
        ret = API(w, nvmlInit_v2)();
    } else if (strcmp(call, "nvmlInitWithFlags") == 0) {
        ret = API(w, nvmlInitWithFlags)(0);
    } else {
        ret = API(w, nvmlInit_v2) != NULL ? API(w, nvmlInit_v2)() : API(w, nvmlInit)();
    }
    nvmlReturn_t down = API(w, nvmlShutdown)();
    fprintf(w->out, "-\t%s\t%s %s\n", call, walk_error_name(ret), walk_error_name(down));
    if (w->root != NULL && (ret != NVML_SUCCESS || down != NVML_SUCCESS)) {
        mismatch(w, call, walk_error_name(ret), "SUCCESS");
    }
}

/* ---- the table ----------------------------------------------------------------------------- */

enum walk_scope {
    WALK_SYSTEM,
    WALK_DEVICE
};

static const struct walk_case {
    const char *name;
    enum walk_scope scope;
    walk_fn fn;
} cases[] = {
    {"nvmlInit", WALK_SYSTEM, walk_lifecycle},
    {"nvmlInit_v2", WALK_SYSTEM, walk_lifecycle},
    {"nvmlInitWithFlags", WALK_SYSTEM, walk_lifecycle},
    {"nvmlShutdown", WALK_SYSTEM, walk_lifecycle},
    {"nvmlSystemGetDriverVersion", WALK_SYSTEM, walk_driver_version},
    {"nvmlSystemGetNVMLVersion", WALK_SYSTEM, walk_nvml_version},
    {"nvmlSystemGetCudaDriverVersion", WALK_SYSTEM, walk_cuda_version},
    {"nvmlSystemGetCudaDriverVersion_v2", WALK_SYSTEM, walk_cuda_version},
    {"nvmlDeviceGetCount", WALK_SYSTEM, walk_count},
    {"nvmlDeviceGetCount_v2", WALK_SYSTEM, walk_count},
    {"nvmlSystemGetProcessName", WALK_SYSTEM, walk_process_name},
    {"nvmlSystemGetHicVersion", WALK_SYSTEM, walk_zero_count},
    {"nvmlGetExcludedDeviceCount", WALK_SYSTEM, walk_zero_count},
    {"nvmlUnitGetCount", WALK_SYSTEM, walk_zero_count},
    /* Handles by index are how the walk reaches each device (walk_all). */
    {"nvmlDeviceGetHandleByIndex", WALK_SYSTEM, NULL},
    {"nvmlDeviceGetHandleByIndex_v2", WALK_SYSTEM, NULL},
    {"nvmlDeviceGetHandleByUUID", WALK_DEVICE, walk_by_uuid},
    {"nvmlDeviceGetHandleBySerial", WALK_DEVICE, walk_by_serial},
    {"nvmlDeviceGetHandleByPciBusId", WALK_DEVICE, walk_by_bus_id},
    {"nvmlDeviceGetHandleByPciBusId_v2", WALK_DEVICE, walk_by_bus_id},
    {"nvmlDeviceGetIndex", WALK_DEVICE, walk_index},
    {"nvmlDeviceGetPciInfo", WALK_DEVICE, walk_pci_v1},
    {"nvmlDeviceGetPciInfo_v2", WALK_DEVICE, walk_pci},
    {"nvmlDeviceGetPciInfo_v3", WALK_DEVICE, walk_pci},
    {"nvmlDeviceGetPcieThroughput", WALK_DEVICE, walk_pcie_throughput},
    {"nvmlDeviceGetMemoryInfo", WALK_DEVICE, walk_memory},
    {"nvmlDeviceGetMemoryInfo_v2", WALK_DEVICE, walk_memory_v2},
    {"nvmlDeviceGetBAR1MemoryInfo", WALK_DEVICE, walk_bar1},
    {"nvmlDeviceGetUtilizationRates", WALK_DEVICE, walk_utilization},
    {"nvmlDeviceGetEncoderUtilization", WALK_DEVICE, walk_codec},
    {"nvmlDeviceGetDecoderUtilization", WALK_DEVICE, walk_codec},
    {"nvmlDeviceGetClockInfo", WALK_DEVICE, walk_clock_info},
    {"nvmlDeviceGetMaxClockInfo", WALK_DEVICE, walk_max_clock_info},
    {"nvmlDeviceGetFanSpeed", WALK_DEVICE, walk_fan},
    {"nvmlDeviceGetTemperature", WALK_DEVICE, walk_temperature},
    {"nvmlDeviceGetTemperatureV", WALK_DEVICE, walk_temperature_v},
    {"nvmlDeviceGetTemperatureThreshold", WALK_DEVICE, walk_thresholds},
    {"nvmlDeviceGetPowerManagementLimitConstraints", WALK_DEVICE, NULL},
    {"nvmlDeviceGetTotalEccErrors", WALK_DEVICE, walk_ecc_errors},
    {"nvmlDeviceGetDriverModel", WALK_DEVICE, walk_driver_model},
    {"nvmlDeviceGetCudaComputeCapability", WALK_DEVICE, walk_capability},
    {"nvmlDeviceIsMigDeviceHandle", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetMigMode", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetMigDeviceHandleByIndex", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetDeviceHandleFromMigDeviceHandle", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetGpuInstanceId", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetComputeInstanceId", WALK_DEVICE, walk_mig},
    {"nvmlDeviceGetComputeRunningProcesses", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetComputeRunningProcesses_v2", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetComputeRunningProcesses_v3", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetGraphicsRunningProcesses", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetGraphicsRunningProcesses_v2", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetGraphicsRunningProcesses_v3", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetMPSComputeRunningProcesses", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetMPSComputeRunningProcesses_v2", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetMPSComputeRunningProcesses_v3", WALK_DEVICE, walk_processes},
    {"nvmlDeviceGetRunningProcessDetailList", WALK_DEVICE, walk_detail_list},
    {"nvmlDeviceGetConfComputeMemSizeInfo", WALK_DEVICE, walk_conf_compute},
    {"nvmlDeviceGetProcessUtilization", WALK_DEVICE, walk_process_utilization},
    {"nvmlDeviceGetFieldValues", WALK_DEVICE, walk_field_values},
    {"nvmlDeviceGetNumFans", WALK_DEVICE, walk_fans},
    {"nvmlDeviceGetFanSpeed_v2", WALK_DEVICE, walk_fans},
    {"nvmlDeviceGetEccMode", WALK_DEVICE, walk_ecc_mode},
    {"nvmlDeviceGetNvLinkState", WALK_DEVICE, walk_nvlink},
    {"nvmlDeviceGetNvLinkVersion", WALK_DEVICE, walk_nvlink},
    {"nvmlDeviceGetNvLinkRemotePciInfo_v2", WALK_DEVICE, walk_nvlink_remote},
    {"nvmlDeviceGetTotalEnergyConsumption", WALK_DEVICE, walk_energy},
    {"nvmlDeviceGetCurrentClocksThrottleReasons", WALK_DEVICE, walk_throttle},
    {"nvmlDeviceGetClock", WALK_DEVICE, walk_clock},
    {"nvmlDeviceGetApplicationsClock", WALK_DEVICE, walk_applications_clock},
    {"nvmlDeviceGetMaxCustomerBoostClock", WALK_DEVICE, walk_boost_clock},
    {"nvmlDeviceGetInforomVersion", WALK_DEVICE, walk_inforom},
    {"nvmlDeviceGetGpuOperationMode", WALK_DEVICE, walk_operation_mode},
    {"nvmlDeviceGetAutoBoostedClocksEnabled", WALK_DEVICE, walk_auto_boost},
    {"nvmlDeviceGetSamples", WALK_DEVICE, walk_samples},
    {"nvmlDeviceGetAccountingPids", WALK_DEVICE, walk_accounting},
    {"nvmlDeviceGetAccountingStats", WALK_DEVICE, walk_accounting},
};

/* Both limits or neither, like the utilisation rates. */
static void walk_limits(struct walk *w, const char *call) {
    unsigned int lo = 0;
    unsigned int hi = 0;
    nvmlReturn_t ret = API(w, nvmlDeviceGetPowerManagementLimitConstraints)(w->handle, &lo, &hi);
    double v = 0.0;
    nvmlReturn_t want = expect(w, call, "power.min_w", NULL, &v);
    if (want == NVML_SUCCESS) {
        want = expect(w, call, "power.max_w", NULL, &v);
    }
    if (ret != NVML_SUCCESS || (w->root != NULL && want != NVML_SUCCESS)) {
        check_status(w, call, ret);
        if (w->root != NULL && ret != want) {
            mismatch(w, call, walk_error_name(ret), walk_error_name(want));
        }
        return;
    }
    check_num(w, call, "nvmlDeviceGetPowerManagementLimitConstraints(min)", ret, lo, "power.min_w",
              NULL, 1000, 0);
    check_num(w, call, "nvmlDeviceGetPowerManagementLimitConstraints(max)", ret, hi, "power.max_w",
              NULL, 1000, 0);
}

/* The case of `name`: from the table, the one-number and one-string tables, or NULL. */
static walk_fn case_of(const char *name, enum walk_scope *scope, bool *found) {
    *scope = WALK_DEVICE;
    *found = true;
    if (find_uint_case(name) != NULL) {
        return walk_uint;
    }
    if (find_text_case(name) != NULL) {
        return walk_text;
    }
    if (strcmp(name, "nvmlDeviceGetPowerManagementLimitConstraints") == 0) {
        return walk_limits;
    }
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (strcmp(cases[i].name, name) == 0) {
            *scope = cases[i].scope;
            return cases[i].fn;
        }
    }
    *found = false;
    return NULL;
}

bool walk_has_case(const char *name) {
    enum walk_scope scope;
    bool found = false;
    case_of(name, &scope, &found);
    return found;
}

#define WALK_NAME(name, params) #name,
static const char *const entry_points[] = {NVML_ABI_FUNCTIONS(WALK_NAME)
                                               NVML_ABI_MONITOR_FUNCTIONS(WALK_NAME) NULL};
#undef WALK_NAME

#define WALK_OFFSET(name, params) offsetof(struct walk_api, name),
static const size_t slot_offsets[] = {NVML_ABI_FUNCTIONS(WALK_OFFSET)
                                          NVML_ABI_MONITOR_FUNCTIONS(WALK_OFFSET)};
#undef WALK_OFFSET

/* Whether the library exports entry point `i` (its walk_api slot is set). */
static bool exported(const struct walk *w, size_t i) {
    void (*slot)(void) = NULL;
    memcpy(&slot, (const char *)w->api + slot_offsets[i], sizeof(slot));
    return slot != NULL;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void walk_scope(struct walk *w, enum walk_scope wanted) {
    for (size_t i = 0; entry_points[i] != NULL; i++) {
        enum walk_scope scope;
        bool found = false;
        walk_fn fn = case_of(entry_points[i], &scope, &found);
        if (scope != wanted || fn == NULL) {
            continue;
        }
        if (!exported(w, i)) {
            fprintf(w->out, "%s\t%s\tnot exported\n", wanted == WALK_SYSTEM ? "-" : "",
                    entry_points[i]);
            continue;
        }
        double start = now_us();
        fn(w, entry_points[i]);
        if (w->times != NULL) {
            fprintf(w->times, "%s\t%s\t%.0f\n", label(w), entry_points[i], now_us() - start);
        }
    }
}

int walk_all(struct walk *w) {
    double start = now_us();
    nvmlReturn_t ret = w->api->nvmlInit_v2 != NULL ? w->api->nvmlInit_v2() : w->api->nvmlInit();
    if (w->times != NULL) {
        fprintf(w->times, "-\tnvmlInit_v2 (first)\t%.0f\n", now_us() - start);
    }
    if (ret != NVML_SUCCESS) {
        fprintf(stderr, "nvml-walk: nvmlInit: %s\n", walk_error_name(ret));
        return 2;
    }
    walk_scope(w, WALK_SYSTEM);
    unsigned int count = 0;
    ret = w->api->nvmlDeviceGetCount_v2 != NULL ? w->api->nvmlDeviceGetCount_v2(&count)
                                                : w->api->nvmlDeviceGetCount(&count);
    for (unsigned int i = 0; ret == NVML_SUCCESS && i < count; i++) {
        w->index = i;
        w->dev = json_array_get(json_object_get(w->root, "devices"), i);
        nvmlReturn_t got = w->api->nvmlDeviceGetHandleByIndex_v2 != NULL
                               ? w->api->nvmlDeviceGetHandleByIndex_v2(i, &w->handle)
                               : w->api->nvmlDeviceGetHandleByIndex(i, &w->handle);
        check_status(w, "nvmlDeviceGetHandleByIndex_v2", got);
        bool lost = json_is_true(json_object_get(w->dev, "lost"));
        if (w->root != NULL && got != (lost ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS)) {
            mismatch(w, "nvmlDeviceGetHandleByIndex_v2", walk_error_name(got),
                     lost ? "GPU_IS_LOST" : "SUCCESS");
        }
        /* A GPU that falls off the bus after some queries ("lost_after_queries") is only
         * printed: which answers precede the loss depends on the walk's order
         * (tests/sim/sim_faults_test.c checks the loss itself). */
        const json_t *root = w->root;
        if (json_object_get(w->dev, "lost_after_queries") != NULL) {
            w->root = NULL;
        }
        if (got == NVML_SUCCESS) {
            walk_scope(w, WALK_DEVICE);
        }
        w->root = root;
    }
    w->api->nvmlShutdown();
    return 0;
}
