/*
 * Status snapshots, as in the "Status Snapshot" section of nvitop's README: one snapshot holds
 * every device (physical, then its MIG devices) and every GPU process; the CUDA-visible devices
 * are found in it by their NVML indices.
 *
 *   usage: example-snapshots [CUDA_VISIBLE_DEVICES]
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

static void print_slot(const struct nvt_snapshot *snap, size_t slot, const char *prefix) {
    const struct nvt_device_snapshot *d = &snap->devices[slot];
    char used[32];
    nvt_format_bytes(used, sizeof(used), d->state.memory_used_bytes, NVT_MiB);
    size_t processes = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        processes += snap->processes[i].device == slot;
    }
    if (d->info.is_mig) {
        printf("%sMigDeviceSnapshot(index=(%u, %u), gpu_instance_id=%u, memory_used=%s, "
               "processes=%zu)\n",
               prefix, d->info.index, d->info.mig_index, d->info.gpu_instance_id, used, processes);
    } else {
        printf("%sPhysicalDeviceSnapshot(index=%u, mig_mode=%s, memory_used=%s, processes=%zu)\n",
               prefix, d->info.index,
               d->state.mig_mode == NVT_FEATURE_ENABLED    ? "Enabled"
               : d->state.mig_mode == NVT_FEATURE_DISABLED ? "Disabled"
                                                           : "N/A",
               used, processes);
    }
}

int main(int argc, char **argv) {
    const char *visible = argc > 1 ? argv[1] : getenv("CUDA_VISIBLE_DEVICES");
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    struct nvt_snapshot *snap = NULL;
    status = nvt_snapshot_take(ctx, NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES, &snap);
    if (status != NVT_OK) {
        fprintf(stderr, "example-snapshots: %s\n", nvt_strerror(status));
        nvt_close(ctx);
        return 1;
    }
    printf("SnapshotResult(devices=%zu, gpu_processes=%zu)\n", snap->device_count,
           snap->process_count);
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        print_slot(snap, slot, snap->devices[slot].info.is_mig ? "    " : "  ");
    }

    struct nvt_cuda_device *cuda = NULL;
    size_t count = 0;
    if (nvt_cuda_visible_devices(ctx, visible, &cuda, &count) == NVT_OK) {
        printf("CUDA_VISIBLE_DEVICES=%s: %zu device(s)\n", visible != NULL ? visible : "(unset)",
               count);
        for (size_t i = 0; i < count; i++) {
            for (size_t slot = 0; slot < snap->device_count; slot++) {
                const struct nvt_device_info *info = &snap->devices[slot].info;
                if (info->index == cuda[i].index && info->mig_index == cuda[i].mig_index) {
                    printf("  cuda:%u ", cuda[i].cuda_index);
                    print_slot(snap, slot, "");
                }
            }
        }
        nvt_free(cuda);
    }
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    return 0;
}
