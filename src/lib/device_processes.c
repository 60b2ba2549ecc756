/*
 * nvt_device_processes: the process list of one device on its own, for a front end that watches
 * one process at a faster rate than it takes whole snapshots (the monitor's metrics screen).  It
 * costs the driver's process-list and utilisation calls for that device only, and no /proc read.
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/process.h>

#include "host/host.h"
#include "internal.h"
#include "nvml/nvml_backend.h"

nvt_status nvt_device_processes(nvt_device *device, struct nvt_gpu_process **out, size_t *count) {
    if (device == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    if (device->info.handle_status != NVT_OK || device->ctx->nvml == NULL) {
        return NVT_OK; /* a device without a handle has no processes to list */
    }
    if (device->info.is_mig) {
        device_ensure_facts(device, NVML_FACTS_MIG, NULL); /* the instance ids filled in below */
    }
    struct nvml_process_list list = {0};
    nvt_status status = nvml_device_processes(device->ctx->nvml, device->nvml, &list);
    if (status != NVT_OK || list.count == 0) {
        free(list.items);
        return status;
    }
    struct nvt_gpu_process *processes = calloc(list.count, sizeof(*processes));
    if (processes == NULL) {
        free(list.items);
        return NVT_ERR_NO_MEMORY;
    }
    const struct nvt_device_info *info = &device->info;
    for (size_t i = 0; i < list.count; i++) {
        const struct nvml_process *in = &list.items[i];
        struct nvt_gpu_process *p = &processes[i];
        p->pid = in->pid;
        p->device = NVT_NA_SIZE;
        p->type = in->type;
        p->gpu_memory_bytes = in->gpu_memory_bytes;
        /* As in snapshots: on a MIG device a process without its own ids runs in the device's. */
        bool own_ids = !info->is_mig || in->gpu_instance_id != NVT_NA_U32;
        p->gpu_instance_id = own_ids ? in->gpu_instance_id : info->gpu_instance_id;
        own_ids = !info->is_mig || in->compute_instance_id != NVT_NA_U32;
        p->compute_instance_id = own_ids ? in->compute_instance_id : info->compute_instance_id;
        p->sm_util_pct = in->sm_util_pct;
        p->memory_util_pct = in->memory_util_pct;
        p->encoder_util_pct = in->encoder_util_pct;
        p->decoder_util_pct = in->decoder_util_pct;
        host_process_init_na(&p->host, in->pid, NVT_HOST_OK);
    }
    *out = processes;
    *count = list.count;
    free(list.items);
    return NVT_OK;
}
