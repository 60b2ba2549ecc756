/*
 * A minimal monitor, the C version of the "Quick Start" of nvitop's README: for every GPU its
 * fan, temperature, utilisation and memory, and the processes on it.
 *
 *   usage: example-monitor
 */
#include <stdio.h>

#include <nvitop/nvitop.h>

/* "72%", "71C" or "N/A". */
static const char *number(char *buf, size_t size, uint32_t value, const char *unit) {
    if (nvt_is_na_u32(value)) {
        return "N/A";
    }
    snprintf(buf, size, "%u%s", value, unit);
    return buf;
}

static void print_device(const struct nvt_snapshot *snap, size_t slot) {
    const struct nvt_device_snapshot *d = &snap->devices[slot];
    char total[32];
    char used[32];
    char free_memory[32];
    char a[16];
    nvt_format_bytes(total, sizeof(total), d->state.memory_total_bytes, 1);
    nvt_format_bytes(used, sizeof(used), d->state.memory_used_bytes, 1);
    nvt_format_bytes(free_memory, sizeof(free_memory), d->state.memory_free_bytes, 1);
    if (d->info.is_mig) {
        printf("MigDevice(index=(%u, %u), name=\"%s\", total_memory=%s)\n", d->info.index,
               d->info.mig_index, d->info.name, total);
    } else {
        printf("PhysicalDevice(index=%u, name=\"%s\", total_memory=%s)\n", d->info.index,
               d->info.handle_status == NVT_OK ? d->info.name : nvt_strerror(d->info.handle_status),
               total);
    }
    printf("  - Fan speed:       %s\n", number(a, sizeof(a), d->state.fan_speed_pct, "%"));
    printf("  - Temperature:     %s\n", number(a, sizeof(a), d->state.temperature_c, "C"));
    printf("  - GPU utilization: %s\n", number(a, sizeof(a), d->state.gpu_util_pct, "%"));
    printf("  - Total memory:    %s\n", total);
    printf("  - Used memory:     %s\n", used);
    printf("  - Free memory:     %s\n", free_memory);
}

static void print_processes(const struct nvt_snapshot *snap, size_t slot) {
    size_t count = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        count += snap->processes[i].device == slot;
    }
    printf("  - Processes (%zu): [", count);
    const char *separator = "";
    for (size_t i = 0; i < snap->process_count; i++) {
        if (snap->processes[i].device == slot) { /* ordered by pid within a device */
            printf("%s%u", separator, snap->processes[i].pid);
            separator = ", ";
        }
    }
    printf("]\n");
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        if (p->device != slot) {
            continue;
        }
        char memory[32];
        nvt_format_bytes(memory, sizeof(memory), p->gpu_memory_bytes, NVT_MiB);
        const char *type = p->type == (NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS) ? "C+G"
                           : p->type == NVT_PROCESS_GRAPHICS                       ? "G"
                                                                                   : "C";
        printf("    - GpuProcess(pid=%u, gpu_memory=%s, type=%s, command=\"%s\")\n", p->pid, memory,
               type, p->host.status == NVT_HOST_OK ? p->host.command : "No Such Process");
    }
}

int main(void) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    struct nvt_snapshot *snap = NULL;
    status = nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap);
    if (status != NVT_OK) {
        fprintf(stderr, "example-monitor: %s\n", nvt_strerror(status));
        nvt_close(ctx);
        return 1;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        print_device(snap, slot);
        print_processes(snap, slot);
        printf("%.120s\n", "----------------------------------------------------------------------"
                           "--------------------------------------------------");
    }
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    return 0;
}
