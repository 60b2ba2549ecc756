/*
 * `nvitop --query`: everything igpu prints about a GPU (docs/nvitop-behaviour.md §8.3), in igpu's
 * code formats (§8.5: unquoted strings, two decimals), one block per shown physical device.
 */
#include "cmd/nvitop/output/query.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/text/strbuf.h"
#include "view/processes/filter.h"

#define MiB 1048576.0

static void label(struct strbuf *out, const char *name, int width) {
    (void)strbuf_appendf(out, "    %-*s: ", width, name);
}

static void text_or_na(struct strbuf *out, const char *value) {
    (void)strbuf_appendf(out, "%s\n", value == NULL || value[0] == '\0' ? "N/A" : value);
}

/* igpu reads nvmlDeviceGetMemoryInfo's first version, whose "used" counts the driver's reserved
 * memory (the library's used, as nvitop's, leaves it out): total less free, where free is known. */
static void memory_section(struct strbuf *out, const struct nvt_device_state *state) {
    (void)strbuf_append_str(out, "GPU MEMORY:\n");
    bool known = !nvt_is_na_u64(state->memory_total_bytes) &&
                 !nvt_is_na_u64(state->memory_used_bytes) && state->memory_total_bytes > 0;
    double total = known ? (double)state->memory_total_bytes / MiB : NAN;
    double used = known ? (double)state->memory_used_bytes / MiB : NAN;
    if (known && !nvt_is_na_u64(state->memory_free_bytes) &&
        state->memory_free_bytes <= state->memory_total_bytes) {
        used = (double)(state->memory_total_bytes - state->memory_free_bytes) / MiB;
    }
    const char *names[3] = {"Total", "Used", "Free"};
    double values[3] = {total, used, total - used};
    for (size_t i = 0; i < 3; i++) {
        label(out, names[i], 6);
        if (known) {
            (void)strbuf_appendf(out, "%10.2f MiB (%6.2f%%)\n", values[i],
                                 values[i] / total * 100.0);
        } else {
            (void)strbuf_append_str(out, "N/A\n");
        }
    }
}

static void bar_line(struct strbuf *out, const char *name, uint32_t value) {
    label(out, name, 12);
    if (nvt_is_na_u32(value)) {
        (void)strbuf_append_str(out, "N/A\n");
        return;
    }
    char bar[32];
    int bars = (int)((double)value / 4.0);
    bars = bars > 25 ? 25 : bars;
    memset(bar, '|', (size_t)bars);
    bar[bars] = '\0';
    (void)strbuf_appendf(out, "[%-25s] %3.2f%%\n", bar, (double)value);
}

static void utilization_section(struct strbuf *out, const struct nvt_device_state *state) {
    (void)strbuf_append_str(out, "GPU UTILIZATION:\n");
    label(out, "Performance", 12);
    if (nvt_is_na_u32(state->performance_state)) {
        (void)strbuf_append_str(out, "N/A\n");
    } else {
        (void)strbuf_appendf(out, "P%u\n", state->performance_state);
    }
    label(out, "Temperature", 12);
    if (nvt_is_na_u32(state->temperature_c)) {
        (void)strbuf_append_str(out, "N/A\n");
    } else {
        (void)strbuf_appendf(out, "%3.2fC\n", (double)state->temperature_c);
    }
    bar_line(out, "Graphics", state->gpu_util_pct);
    bar_line(out, "Memory", state->memory_bandwidth_util_pct);
    bar_line(out, "Fan", state->fan_speed_pct);
}

static void u32_text(char *buf, size_t size, uint32_t value, const char *suffix) {
    if (nvt_is_na_u32(value)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%u%s", value, suffix);
    }
}

static void hex_line(struct strbuf *out, const char *name, uint32_t value, int digits) {
    label(out, name, 14);
    if (nvt_is_na_u32(value)) {
        (void)strbuf_append_str(out, "N/A\n");
    } else {
        (void)strbuf_appendf(out, "%0*X\n", digits, value);
    }
}

static void pci_section(struct strbuf *out, const struct nvt_device_snapshot *device) {
    const struct nvt_device_info *info = &device->info;
    char a[32];
    char b[32];
    (void)strbuf_append_str(out, "PCI INFO:\n");
    hex_line(out, "Bus", info->pci_bus, 2);
    label(out, "Bus ID", 14);
    text_or_na(out, info->bus_id);
    hex_line(out, "Device", info->pci_device, 2);
    hex_line(out, "Device ID", info->pci_device_id, 8);
    hex_line(out, "Sub-System ID", info->pci_subsystem_id, 8);
    u32_text(a, sizeof(a), device->state.pcie_link_gen, "");
    u32_text(b, sizeof(b), info->pcie_link_gen_max, "");
    label(out, "Generation", 14);
    (void)strbuf_appendf(out, "%s (Max: %s)\n", a, b);
    u32_text(a, sizeof(a), device->state.pcie_link_width, "x");
    u32_text(b, sizeof(b), info->pcie_link_width_max, "x");
    label(out, "Link Width", 14);
    (void)strbuf_appendf(out, "%s (Max: %s)\n", a, b);
}

static void clock_line(struct strbuf *out, const char *name, uint32_t value, uint32_t max) {
    label(out, name, 9);
    char a[32];
    char b[32];
    if (nvt_is_na_u32(value)) {
        snprintf(a, sizeof(a), "N/A");
    } else {
        snprintf(a, sizeof(a), "%.1f MHz", (double)value);
    }
    if (nvt_is_na_u32(max)) {
        snprintf(b, sizeof(b), "N/A");
    } else {
        snprintf(b, sizeof(b), "%.1f", (double)max);
    }
    (void)strbuf_appendf(out, "%s (Max: %s)\n", a, b);
}

static void clock_section(struct strbuf *out, const struct nvt_device_snapshot *device) {
    (void)strbuf_append_str(out, "GPU CLOCK:\n");
    clock_line(out, "Graphics", device->state.clock_graphics_mhz,
               device->info.max_clock_graphics_mhz);
    clock_line(out, "SM", device->state.clock_sm_mhz, device->info.max_clock_sm_mhz);
    clock_line(out, "Memory", device->state.clock_memory_mhz, device->info.max_clock_memory_mhz);
}

static void watts_line(struct strbuf *out, const char *name, uint32_t milliwatts) {
    label(out, name, 11);
    if (nvt_is_na_u32(milliwatts)) {
        (void)strbuf_append_str(out, "N/A\n");
    } else {
        (void)strbuf_appendf(out, "%.2f W\n", (double)milliwatts / 1000.0);
    }
}

static void power_section(struct strbuf *out, const struct nvt_device_snapshot *device) {
    (void)strbuf_append_str(out, "POWER INFO:\n");
    label(out, "Management", 11);
    (void)strbuf_append_str(
        out, device->state.power_management == NVT_FEATURE_ENABLED ? "Supported\n" : "N/A\n");
    watts_line(out, "Draw", device->state.power_usage_mw);
    watts_line(out, "Limit", device->state.power_limit_mw);
    watts_line(out, "Min Limit", device->info.power_limit_min_mw);
    watts_line(out, "Max Limit", device->info.power_limit_max_mw);
}

/* igpu shortens names to 20 characters. */
static void cell(struct strbuf *out, const char *text, int width) {
    char cut[64];
    const char *value = text == NULL || text[0] == '\0' ? "N/A" : text;
    if ((int)strlen(value) > width) {
        snprintf(cut, sizeof(cut), "%.*s...", width - 3, value);
        value = cut;
    }
    (void)strbuf_appendf(out, "%-*s", width, value);
}

static void process_line(struct strbuf *out, const struct nvt_gpu_process *process) {
    const struct nvt_host_process *host = &process->host;
    bool known = host->status == NVT_HOST_OK;
    char created[32] = "N/A";
    time_t when = (time_t)host->create_time;
    struct tm local;
    if (known && !isnan(host->create_time) && localtime_r(&when, &local) != NULL) {
        strftime(created, sizeof(created), "%Y-%m-%d %H:%M:%S", &local);
    }
    (void)strbuf_appendf(out, "    %-6u | ", process->pid);
    cell(out, known ? host->name : NULL, 20);
    (void)strbuf_append_str(out, " | ");
    cell(out, known ? host->user : NULL, 20);
    if (known) {
        (void)strbuf_appendf(out, " | %-8u | %-20s | ", host->ppid, created);
    } else {
        (void)strbuf_appendf(out, " | %-8s | %-20s | ", "N/A", created);
    }
    if (nvt_is_na_u64(process->gpu_memory_bytes)) {
        (void)strbuf_appendf(out, "%-6s\n", "N/A");
    } else {
        (void)strbuf_appendf(out, "%-6llu\n",
                             (unsigned long long)(process->gpu_memory_bytes / (1024 * 1024)));
    }
}

static void process_section(struct strbuf *out, const struct nvt_snapshot *snap, size_t slot,
                            const struct view_config *config) {
    (void)strbuf_append_str(out, "PROCESSES\n");
    (void)strbuf_appendf(out, "    %-6s | %-20s | %-20s | %-8s | %-20s | %-6s\n", "PID", "NAME",
                         "USER", "PARENT", "CREATION TIME", "GPU MEM");
    const struct nvt_device_snapshot *device = &snap->devices[slot];
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *process = &snap->processes[i];
        size_t owner = process->device;
        bool mine = owner == slot || (owner < snap->device_count &&
                                      snap->devices[owner].parent == slot && device->child_count);
        if (mine && view_process_is_shown(process, config)) {
            process_line(out, process);
        }
    }
}

static void device_block(struct strbuf *out, const struct nvt_snapshot *snap, size_t slot,
                         const struct view_config *config) {
    const struct nvt_device_snapshot *device = &snap->devices[slot];
    const struct nvt_device_info *info = &device->info;
    (void)strbuf_appendf(out, "%-13s: %u\n", "INDEX", info->index);
    (void)strbuf_appendf(out, "%-13s: ", "BOARD NAME");
    text_or_na(out, info->handle_status == NVT_OK ? info->name : "ERROR: GPU is Lost");
    (void)strbuf_appendf(out, "%-13s: ", "SERIAL");
    text_or_na(out, info->serial);
    (void)strbuf_appendf(out, "%-13s: ", "UUID");
    text_or_na(out, info->uuid);
    (void)strbuf_appendf(out, "%-13s: ", "BIOS VERSION");
    text_or_na(out, info->vbios_version);
    (void)strbuf_append_char(out, '\n');
    memory_section(out, &device->state);
    (void)strbuf_append_char(out, '\n');
    utilization_section(out, &device->state);
    (void)strbuf_append_char(out, '\n');
    pci_section(out, device);
    (void)strbuf_append_char(out, '\n');
    clock_section(out, device);
    (void)strbuf_append_char(out, '\n');
    power_section(out, device);
    (void)strbuf_append_char(out, '\n');
    process_section(out, snap, slot, config);
}

bool query_print(FILE *out, const struct nvt_snapshot *snap, const struct view_config *config) {
    struct strbuf text = STRBUF_INIT;
    bool first = true;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (snap->devices[slot].info.is_mig || !view_device_is_shown(snap, config, slot)) {
            continue;
        }
        if (!first) {
            (void)strbuf_append_char(&text, '\n');
        }
        first = false;
        device_block(&text, snap, slot, config);
    }
    if (first) {
        (void)strbuf_append_str(&text, "No visible devices found\n");
    }
    bool ok = fwrite(strbuf_cstr(&text), 1, text.len, out) == text.len;
    ok = fflush(out) == 0 && ok;
    strbuf_fini(&text);
    return ok;
}
