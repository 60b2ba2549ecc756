/*
 * One CUDA device without a whole snapshot, with the strings nvitop prints: the device a CUDA
 * program sees as an ordinal (honouring $CUDA_VISIBLE_DEVICES), its processes, a snapshot of that
 * GPU alone, and the CUDA driver and runtime versions.
 *
 *   usage: example-processes [CUDA_ORDINAL [LIBCUDART]]     (default ordinal 0)
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvitop/nvitop.h>

static void print_device(const struct nvt_device_snapshot *d) {
    char usage[64];
    char power[64];
    char util[16];
    nvt_format_memory_usage(usage, sizeof(usage), d->state.memory_used_bytes,
                            d->state.memory_total_bytes);
    nvt_format_power_status(power, sizeof(power), d->state.power_usage_mw, d->state.power_limit_mw);
    nvt_format_utilization(util, sizeof(util), d->state.gpu_util_pct);
    printf("%s: memory %s (%.1f%%), power %s, GPU %s\n", d->info.name, usage,
           nvt_percent(d->state.memory_used_bytes, d->state.memory_total_bytes), power, util);
}

int main(int argc, char **argv) {
    uint32_t ordinal = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 0;
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    char driver[16];
    char runtime[16];
    int32_t runtime_version = NVT_NA_I32;
    nvt_cuda_runtime_version(argc > 2 ? argv[2] : NULL, &runtime_version);
    nvt_cuda_version_string(driver, sizeof(driver), nvt_system_info(ctx)->cuda_driver_version);
    nvt_cuda_version_string(runtime, sizeof(runtime), runtime_version);
    printf("CUDA driver %s, runtime %s\n", driver, runtime);

    nvt_device *device = NULL;
    status = nvt_device_by_cuda_index(ctx, getenv("CUDA_VISIBLE_DEVICES"), ordinal, &device);
    if (status != NVT_OK) {
        fprintf(stderr, "CUDA Error: invalid device ordinal: %u (%s)\n", ordinal,
                nvt_strerror(status));
        nvt_close(ctx);
        return 1;
    }
    const struct nvt_device_info *info = nvt_device_info(device);
    printf("cuda:%u is %s %s\n", ordinal, info->is_mig ? "MIG device of GPU" : "GPU", info->uuid);

    struct nvt_gpu_process *processes = NULL;
    size_t count = 0;
    if (nvt_device_processes(device, NVT_SAMPLE_HOST_PROCESSES, &processes, &count) == NVT_OK) {
        for (size_t i = 0; i < count; i++) {
            /* Through the accessor: the entries may be larger in a later library. */
            const struct nvt_gpu_process *process = nvt_gpu_process_at(processes, i);
            char memory[32];
            nvt_format_bytes(memory, sizeof(memory), process->gpu_memory_bytes, 1);
            printf("  pid %u: %s, SM %u%%\n", process->pid, memory, process->sm_util_pct);
        }
        nvt_free(processes);
    }

    /* The physical GPU alone (with its MIG devices), as nvitop's take_snapshots(devices). */
    struct nvt_snapshot *snap = NULL;
    if (nvt_snapshot_take_devices(ctx, NVT_SAMPLE_DEVICES, &info->index, 1, &snap) == NVT_OK) {
        for (size_t slot = 0; slot < snap->device_count; slot++) {
            print_device(nvt_snapshot_device(snap, slot));
        }
        nvt_snapshot_free(snap);
    }
    nvt_close(ctx);
    return 0;
}
