/*
 * A minimal monitor, the C version of the first example of nvitop's README: every GPU's name,
 * memory and utilisation, and the processes on it.  Prints one report and exits.
 *
 *   usage: example-monitor
 */
#include <stdio.h>

#include <nvitop/nvitop.h>

static void print_device(const struct nvt_snapshot *snap, size_t slot) {
    const struct nvt_device_snapshot *d = &snap->devices[slot];
    char used[32];
    char total[32];
    nvt_format_bytes(used, sizeof(used), d->state.memory_used_bytes, NVT_MiB);
    nvt_format_bytes(total, sizeof(total), d->state.memory_total_bytes, NVT_MiB);
    if (d->info.is_mig) {
        printf("  MIG %u:%u", d->info.index, d->info.mig_index);
    } else {
        printf("GPU %u", d->info.index);
    }
    if (d->info.handle_status != NVT_OK) {
        printf(": ERROR: %s\n", nvt_strerror(d->info.handle_status));
        return;
    }
    printf(": %s, memory %s / %s", d->info.name, used, total);
    if (!nvt_is_na_u32(d->state.gpu_util_pct)) {
        printf(", utilization %u%%", d->state.gpu_util_pct);
    }
    printf("\n");
}

static void print_process(const struct nvt_gpu_process *p) {
    char memory[32];
    nvt_format_bytes(memory, sizeof(memory), p->gpu_memory_bytes, NVT_MiB);
    const char *type = p->type == (NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS) ? "C+G"
                       : p->type == NVT_PROCESS_GRAPHICS                       ? "G"
                                                                               : "C";
    printf("    pid %u %-3s %8s  %s\n", p->pid, type, memory,
           p->host.status == NVT_HOST_OK ? p->host.name : "(no such process)");
}

int main(void) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    const struct nvt_system_info *system = nvt_system_info(ctx);
    printf("Driver %s, %u GPU(s)\n", system->driver_version, system->device_count);

    struct nvt_snapshot *snap = NULL;
    status = nvt_snapshot_take(
        ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES, &snap);
    if (status != NVT_OK) {
        fprintf(stderr, "example-monitor: %s\n", nvt_strerror(status));
        nvt_close(ctx);
        return 1;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        print_device(snap, slot);
        for (size_t i = 0; i < snap->process_count; i++) {
            if (snap->processes[i].device == slot) {
                print_process(&snap->processes[i]);
            }
        }
    }
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    return 0;
}
