/*
 * Deep copies of snapshots as frames (frame.h): the writer's previous frame, the reader's copies
 * of its current frame.
 */
#include <string.h>

#include "record/codec/frame.h"
#include "util/xalloc.h"

static const char *copy_text(struct frame *frame, const char *text) {
    text = text != NULL ? text : "";
    return frame_own_text(frame, text, strlen(text));
}

/* The strings and argv of a host process, copied into the frame's blocks. */
static void copy_host_strings(struct frame *frame, struct nvt_host_process *host) {
    host->user = copy_text(frame, host->user);
    host->name = copy_text(frame, host->name);
    host->command = copy_text(frame, host->command);
    if (host->cmdline == NULL || host->cmdline_count == 0) {
        host->cmdline = NULL;
        host->cmdline_count = 0;
        return;
    }
    const char **argv = frame_own(frame, xcalloc(host->cmdline_count + 1, sizeof(char *)));
    for (size_t i = 0; i < host->cmdline_count; i++) {
        argv[i] = copy_text(frame, host->cmdline[i]);
    }
    host->cmdline = argv;
}

struct frame *frame_copy(const struct nvt_snapshot *snap, const struct nvt_host_process *related,
                         size_t related_count) {
    struct frame *frame = xcalloc(1, sizeof(*frame));
    frame->snap = *snap;
    size_t n = snap->device_count;
    struct nvt_device_snapshot *devices = frame_own(frame, xcalloc(n + 1, sizeof(*devices)));
    for (size_t i = 0; i < n; i++) {
        devices[i] = *nvt_snapshot_device(snap, i);
    }
    frame->snap.devices = devices;
    frame->snap.device_stride = sizeof(*devices);
    n = snap->process_count;
    struct nvt_gpu_process *processes = frame_own(frame, xcalloc(n + 1, sizeof(*processes)));
    for (size_t i = 0; i < n; i++) {
        processes[i] = *nvt_snapshot_process(snap, i);
        copy_host_strings(frame, &processes[i].host);
    }
    frame->snap.processes = processes;
    frame->snap.process_stride = sizeof(*processes);
    if (snap->host.cpu_percent_per_cpu != NULL) {
        size_t size = snap->host.cpu_count * sizeof(double);
        double *per_cpu = frame_own(frame, xcalloc(snap->host.cpu_count + 1U, sizeof(double)));
        memcpy(per_cpu, snap->host.cpu_percent_per_cpu, size);
        frame->snap.host.cpu_percent_per_cpu = per_cpu;
        frame->per_cpu_rw = per_cpu;
        frame->per_cpu_count = snap->host.cpu_count;
    }
    struct nvt_host_process *copies = frame_own(frame, xcalloc(related_count + 1, sizeof(*copies)));
    for (size_t i = 0; i < related_count; i++) {
        copies[i] = related[i];
        copy_host_strings(frame, &copies[i]);
    }
    frame->related = copies;
    frame->related_count = related_count;
    frame->devices_rw = devices;
    frame->processes_rw = processes;
    frame->related_rw = copies;
    return frame;
}

void frame_show_lost(struct frame *frame) {
    for (size_t i = 0; i < frame->snap.device_count; i++) {
        struct nvt_device_info *info = &frame->devices_rw[i].info;
        if (frame->devices_rw[i].state.status != NVT_ERR_GPU_IS_LOST ||
            info->handle_status != NVT_OK) {
            continue;
        }
        /* As the library sets up a device it has no handle for: every number N/A. */
        uint32_t index = info->index;
        uint32_t mig_index = info->mig_index;
        bool is_mig = info->is_mig;
        memset(info, 0xFF, sizeof(*info));
        info->index = index;
        info->mig_index = mig_index;
        info->is_mig = is_mig;
        info->handle_status = NVT_ERR_GPU_IS_LOST;
        info->name[0] = '\0';
        info->uuid[0] = '\0';
        info->bus_id[0] = '\0';
        info->serial[0] = '\0';
        info->vbios_version[0] = '\0';
        info->cuda_cc_major = NVT_NA_I32;
        info->cuda_cc_minor = NVT_NA_I32;
        info->mig_supported = false;
        info->mig_max_count = 0;
        info->nvlink_count = 0;
    }
}
