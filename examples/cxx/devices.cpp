// libnvitop from C++: RAII owners for a context and a snapshot, then every device with its
// processes, as nvitop's README example walks Device.all() and device.processes().
//
//   usage: example-cxx-devices
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nvitop/nvitop.h>

namespace {

struct context_closer {
    void operator()(nvt_context *ctx) const {
        nvt_close(ctx);
    }
};
struct snapshot_freer {
    void operator()(nvt_snapshot *snap) const {
        nvt_snapshot_free(snap);
    }
};
using context_ptr = std::unique_ptr<nvt_context, context_closer>;
using snapshot_ptr = std::unique_ptr<nvt_snapshot, snapshot_freer>;

std::string bytes(uint64_t value) {
    char text[32];
    nvt_format_bytes(text, sizeof(text), value, 1);
    return text;
}

std::string percent(uint32_t value) {
    char text[16];
    nvt_format_utilization(text, sizeof(text), value); // "87%" or "N/A"
    return text;
}

std::string integer(uint32_t value) {
    char text[16];
    nvt_format_u32(text, sizeof(text), value); // "N/A", never 4294967295
    return text;
}

} // namespace

int main() {
    nvt_context *raw = nullptr;
    nvt_status status = nvt_open(nullptr, &raw);
    if (status != NVT_OK) {
        std::fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    context_ptr ctx(raw);

    nvt_snapshot *taken = nullptr;
    const unsigned flags = NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_INFO;
    status = nvt_snapshot_take(ctx.get(), flags, &taken);
    if (status != NVT_OK) {
        std::fprintf(stderr, "example-cxx-devices: %s\n", nvt_strerror(status));
        return 1;
    }
    snapshot_ptr snap(taken);

    std::printf("driver %s, %zu devices\n", snap->system.driver_version, snap->device_count);
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const nvt_device_snapshot *device = nvt_snapshot_device(snap.get(), slot);
        std::printf(
            "%s%s: %s, %s / %s, GPU %s, %s C\n", device->info.is_mig ? "  MIG " : "GPU ",
            integer(device->info.is_mig ? device->info.mig_index : device->info.index).c_str(),
            device->info.name, bytes(device->state.memory_used_bytes).c_str(),
            bytes(device->state.memory_total_bytes).c_str(),
            percent(device->state.gpu_util_pct).c_str(),
            integer(device->state.temperature_c).c_str());
        std::vector<const nvt_gpu_process *> processes;
        for (size_t i = 0; i < snap->process_count; i++) {
            const nvt_gpu_process *process = nvt_snapshot_process(snap.get(), i);
            if (process->device == slot) {
                processes.push_back(process);
            }
        }
        for (const nvt_gpu_process *process : processes) {
            std::printf("    pid %u (%s): %s\n", process->pid, nvt_process_type_name(process->type),
                        bytes(process->gpu_memory_bytes).c_str());
        }
    }
    return 0;
}
