/*
 * nvt_snapshot_take: one sampling pass over devices (physical, then each one's MIG devices), the
 * GPU processes of the leaf devices, the host, and the host data of each distinct GPU process,
 * read once even when it runs on several devices.  No NVML query is repeated within a pass.
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/snapshot.h>

#include "host/host.h"
#include "internal.h"
#include "nvml/nvml_backend.h"
#include "snapshot_internal.h"
#include "util/sys/clock.h"

/* What one host reading owns: the strings its public part, copied into the GPU-process entries
 * of its pid, points at.  Released once the pass is packed (release_owner()). */
struct host_owner {
    char *user;
    char *name;
    char *command;
    char **cmdline;
    struct process_strings *shared;
};

/* Everything a pass collects before packing, in ordinary growable arrays. */
struct pass {
    nvt_context *ctx;
    unsigned flags;
    nvt_device *const *roots; /* the devices to sample, each followed by its MIG devices */
    size_t root_count;
    struct nvt_device_snapshot *devices;
    nvt_device **handles; /* the device behind each slot */
    size_t device_count;
    size_t device_capacity;
    enum snapshot_layout layout;
    /* The GPU processes, gathered where the packed snapshot will hold them (in block, at
     * snapshot_process_offset()), so that packing does not copy them. */
    void *block;
    struct nvt_gpu_process *processes;
    size_t process_count;
    size_t process_capacity;
    struct nvml_process_list list;
    /* Where host processes were sampled: per entry, the first entry of its pid (which holds the
     * pid's reading), and what each distinct pid's reading owns. */
    uint32_t *host_first;
    struct host_owner *owners;
    size_t owner_count;
    double *per_cpu;
    struct nvt_host_state host;
};

static void keep_owner(struct host_owner *owner, const struct host_process *reading) {
    owner->user = reading->user;
    owner->name = reading->name;
    owner->command = reading->command;
    owner->cmdline = reading->cmdline;
    owner->shared = reading->shared;
}

static void release_owner(const struct host_owner *owner) {
    struct host_process reading;
    memset(&reading, 0, sizeof(reading));
    reading.user = owner->user;
    reading.name = owner->name;
    reading.command = owner->command;
    reading.cmdline = owner->cmdline;
    reading.shared = owner->shared;
    host_process_fini(&reading);
}

static void pass_fini(struct pass *pass) {
    free(pass->devices);
    free(pass->handles);
    free(pass->block);
    free(pass->list.items);
    for (size_t i = 0; i < pass->owner_count; i++) {
        release_owner(&pass->owners[i]);
    }
    free(pass->owners);
    free(pass->host_first);
    free(pass->per_cpu);
}

static unsigned fact_groups(unsigned flags) {
    unsigned groups = NVML_FACTS_CORE;
    if ((flags & NVT_SAMPLE_INFO) != 0) {
        groups |= NVML_FACTS_UUID | NVML_FACTS_EXTRA | NVML_FACTS_NVLINK | NVML_FACTS_MIG;
    }
    return groups;
}

static nvt_status add_slot(struct pass *pass, nvt_device *device, size_t parent) {
    if (pass->device_count == pass->device_capacity) {
        size_t capacity = pass->device_capacity == 0 ? 8 : 2 * pass->device_capacity;
        struct nvt_device_snapshot *devices = realloc(pass->devices, capacity * sizeof(*devices));
        if (devices == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        pass->devices = devices;
        nvt_device **handles = realloc(pass->handles, capacity * sizeof(nvt_device *));
        if (handles == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        pass->handles = handles;
        pass->device_capacity = capacity;
    }
    struct nvt_device_snapshot *slot = &pass->devices[pass->device_count];
    pass->handles[pass->device_count] = device;
    pass->device_count++;
    device_read_state(device, pass->flags, &slot->state);
    if (!device->info.is_mig && !device->mig_known && device->info.handle_status == NVT_OK &&
        slot->state.status == NVT_OK) {
        /* The MIG mode just read tells whether MIG is supported: no extra query. */
        device->info.mig_supported = slot->state.mig_mode != NVT_FEATURE_NA;
        device->mig_known = true;
    }
    unsigned groups = fact_groups(pass->flags);
    if (device->info.is_mig || slot->state.mig_mode == NVT_FEATURE_ENABLED) {
        groups |= NVML_FACTS_MIG;
    }
    device_ensure_facts(device, groups, &slot->state);
    slot->info = device->info;
    slot->parent = parent;
    slot->first_child = NVT_NA_SIZE;
    slot->child_count = 0;
    return NVT_OK;
}

static nvt_status sample_devices(struct pass *pass) {
    for (size_t i = 0; i < pass->root_count; i++) {
        nvt_device *device = pass->roots[i];
        size_t slot = pass->device_count;
        nvt_status status = add_slot(pass, device, NVT_NA_SIZE);
        if (status != NVT_OK) {
            return status;
        }
        if (pass->devices[slot].state.mig_mode != NVT_FEATURE_ENABLED) {
            continue;
        }
        /* A MIG device whose read fails was most likely destroyed: read the layout again and
         * sample the new one (once per pass; a layout check is otherwise periodic). */
        bool failed = false;
        for (int attempt = 0; attempt < 2; attempt++) {
            status = device_refresh_children(device, failed);
            if (status != NVT_OK) {
                return status;
            }
            pass->device_count = slot + 1;
            failed = false;
            for (uint32_t k = 0; k < device->child_count; k++) {
                status = add_slot(pass, device->children[k], slot);
                if (status != NVT_OK) {
                    return status;
                }
                failed = failed || pass->devices[pass->device_count - 1].state.status != NVT_OK;
            }
            if (!failed) {
                break;
            }
        }
        pass->devices[slot].first_child = device->child_count > 0 ? slot + 1 : NVT_NA_SIZE;
        pass->devices[slot].child_count = device->child_count;
    }
    return NVT_OK;
}

static nvt_status add_process(struct pass *pass, size_t slot, const struct nvml_process *in) {
    if (pass->process_count == pass->process_capacity) {
        size_t first = pass->ctx->process_hint > 32 ? pass->ctx->process_hint : 32;
        size_t capacity = pass->process_capacity == 0 ? first : 2 * pass->process_capacity;
        size_t offset = snapshot_process_offset(pass->layout, pass->device_count);
        if (capacity > (SIZE_MAX - offset) / sizeof(struct nvt_gpu_process)) {
            return NVT_ERR_NO_MEMORY;
        }
        char *block = realloc(pass->block, offset + capacity * sizeof(struct nvt_gpu_process));
        if (block == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        pass->block = block;
        pass->processes = (struct nvt_gpu_process *)(void *)(block + offset);
        pass->process_capacity = capacity;
    }
    const struct nvt_device_info *info = &pass->devices[slot].info;
    struct nvt_gpu_process *out = &pass->processes[pass->process_count++];
    memset(out, 0, sizeof(*out));
    out->pid = in->pid;
    out->device = slot;
    out->type = in->type;
    out->gpu_memory_bytes = in->gpu_memory_bytes;
    /* On a MIG device a process without its own ids runs in the device's instances. */
    out->gpu_instance_id = in->gpu_instance_id != NVT_NA_U32 || !info->is_mig
                               ? in->gpu_instance_id
                               : info->gpu_instance_id;
    out->compute_instance_id = in->compute_instance_id != NVT_NA_U32 || !info->is_mig
                                   ? in->compute_instance_id
                                   : info->compute_instance_id;
    out->sm_util_pct = in->sm_util_pct;
    out->memory_util_pct = in->memory_util_pct;
    out->encoder_util_pct = in->encoder_util_pct;
    out->decoder_util_pct = in->decoder_util_pct;
    out->host.pid = in->pid;
    return NVT_OK;
}

static nvt_status sample_processes(struct pass *pass) {
    for (size_t slot = 0; slot < pass->device_count; slot++) {
        const struct nvt_device_snapshot *device = &pass->devices[slot];
        bool leaf = device->info.is_mig || device->state.mig_mode != NVT_FEATURE_ENABLED;
        if (!leaf || device->info.handle_status != NVT_OK || device->state.status != NVT_OK) {
            continue;
        }
        nvt_status status =
            nvml_device_processes(pass->ctx->nvml, pass->handles[slot]->nvml, &pass->list);
        if (status == NVT_ERR_GPU_IS_LOST) {
            /* Lost between its state and its processes: a lost device, not an idle one. */
            pass->devices[slot].state.status = NVT_ERR_GPU_IS_LOST;
            device_note_lost(pass->handles[slot]);
            continue;
        }
        if (status != NVT_OK) {
            return status;
        }
        for (size_t i = 0; i < pass->list.count; i++) {
            status = add_process(pass, slot, &pass->list.items[i]);
            if (status != NVT_OK) {
                return status;
            }
        }
    }
    return NVT_OK;
}

static nvt_status sample_host(struct pass *pass) {
    return host_sample_owned(pass->ctx->host, &pass->host, &pass->per_cpu);
}

/* Entries by pid, then by place, so that each pid's first entry comes first. */
static int compare_entries(const void *a, const void *b, void *arg) {
    const struct nvt_gpu_process *processes = arg;
    uint32_t x = *(const uint32_t *)a;
    uint32_t y = *(const uint32_t *)b;
    uint32_t px = processes[x].pid;
    uint32_t py = processes[y].pid;
    if (px != py) {
        return px < py ? -1 : 1;
    }
    return (x > y) - (x < y);
}

/* Host data of each distinct pid, read once (or kept, outside the focus) in pid order, into the
 * pid's first entry and copied to its others: no array of readings beside the entries (a
 * reading is 168 bytes, what it owns 40). */
static nvt_status sample_host_processes(struct pass *pass) {
    size_t count = pass->process_count;
    if (count == 0) {
        host_generation_end(pass->ctx->host); /* processes that exited age out all the same */
        return NVT_OK;
    }
    if (count > UINT32_MAX) {
        return NVT_ERR_NO_MEMORY;
    }
    uint32_t *order = malloc(count * sizeof(*order));
    pass->host_first = malloc(count * sizeof(*pass->host_first));
    pass->owners = malloc(count * sizeof(*pass->owners));
    if (order == NULL || pass->host_first == NULL || pass->owners == NULL) {
        free(order);
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < count; i++) {
        order[i] = (uint32_t)i;
    }
    qsort_r(order, count, sizeof(*order), compare_entries, pass->processes);
    nvt_status status = NVT_OK;
    uint32_t first = 0;
    for (size_t k = 0; k < count && status == NVT_OK; k++) {
        uint32_t i = order[k];
        uint32_t pid = pass->processes[i].pid;
        if (k > 0 && pass->processes[first].pid == pid) {
            pass->processes[i].host = pass->processes[first].host;
            pass->host_first[i] = first;
            continue;
        }
        first = i;
        pass->host_first[i] = i;
        struct host_process reading;
        bool kept = !context_reads_process(pass->ctx, pid) &&
                    host_process_keep(pass->ctx->host, pid, &reading);
        if (!kept) {
            status = host_process_read(pass->ctx->host, pid, &reading);
        }
        if (status == NVT_OK) {
            reading.pub.pid = pid;
            keep_owner(&pass->owners[pass->owner_count++], &reading);
            pass->processes[i].host = reading.pub;
        }
    }
    free(order);
    host_generation_end(pass->ctx->host);
    return status;
}

/* The facts of a device the driver gave no handle for (device.c): its place, nothing else. */
static void forget_facts(struct nvt_device_info *info) {
    device_info_init_na(info, info->index, info->mig_index, info->is_mig);
    info->handle_status = NVT_ERR_GPU_IS_LOST;
}

/* A GPU lost during the pass (its state, facts or process list answered GPU_IS_LOST after earlier
 * queries had succeeded) is shown as one lost at open: no value read before the loss is kept
 * beside N/A ones, and its MIG devices are lost with it. */
static void settle_lost(struct pass *pass) {
    for (size_t slot = 0; slot < pass->device_count; slot++) {
        struct nvt_device_snapshot *device = &pass->devices[slot];
        bool parent_lost = device->parent != NVT_NA_SIZE &&
                           pass->devices[device->parent].info.handle_status == NVT_ERR_GPU_IS_LOST;
        if (device->state.status != NVT_ERR_GPU_IS_LOST && !parent_lost) {
            continue;
        }
        nvml_state_set_na(&device->state);
        device->state.status = NVT_ERR_GPU_IS_LOST;
        forget_facts(&device->info);
    }
}

static nvt_status run_pass(struct pass *pass) {
    nvt_status status = NVT_OK;
    /* A host-only snapshot lists no device and asks the driver nothing. */
    unsigned host_only = NVT_SAMPLE_HOST | NVT_SAMPLE_HOST_PROCESSES;
    if (pass->ctx->nvml != NULL && (pass->flags & ~host_only) != 0) {
        status = sample_devices(pass);
    }
    if (status == NVT_OK && (pass->flags & NVT_SAMPLE_PROCESSES) != 0) {
        status = sample_processes(pass);
    }
    settle_lost(pass);
    if (status == NVT_OK && (pass->flags & NVT_SAMPLE_HOST) != 0) {
        status = sample_host(pass);
    }
    if (status == NVT_OK && (pass->flags & NVT_SAMPLE_HOST_PROCESSES) != 0) {
        status = sample_host_processes(pass);
    }
    return status;
}

nvt_status snapshot_take_some(nvt_context *ctx, unsigned flags, nvt_device *const *roots,
                              size_t root_count, enum snapshot_layout layout, void **out,
                              size_t *process_count) {
    struct pass pass;
    memset(&pass, 0, sizeof(pass));
    pass.ctx = ctx;
    pass.flags = flags;
    pass.roots = roots;
    pass.root_count = root_count;
    pass.layout = layout;
    host_state_init_na(&pass.host);
    double timestamp = clock_wall_s();
    nvt_status status = run_pass(&pass);
    if (status == NVT_OK) {
        struct snapshot_parts parts = {
            .flags = flags,
            .timestamp = timestamp,
            .system = ctx->system,
            .host = pass.host,
            .per_cpu = pass.per_cpu,
            .devices = pass.devices,
            .device_count = pass.device_count,
            .processes = pass.processes,
            .process_count = pass.process_count,
            .host_first = pass.host_first,
            .block = pass.block,
        };
        status = snapshot_pack(&parts, layout, out);
        pass.block = parts.block; /* NULL once the snapshot took it */
    }
    if (process_count != NULL) {
        *process_count = status == NVT_OK ? pass.process_count : 0;
    }
    if (status == NVT_OK && layout == SNAPSHOT_WHOLE && (flags & NVT_SAMPLE_PROCESSES) != 0) {
        ctx->process_hint = pass.process_count;
    }
    pass_fini(&pass);
    return status;
}

nvt_status nvt_snapshot_take(nvt_context *ctx, unsigned flags, struct nvt_snapshot **out) {
    if (ctx == NULL || out == NULL || (flags & ~(unsigned)NVT_SAMPLE_ALL) != 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    void *block = NULL;
    nvt_status status = snapshot_take_some(ctx, flags, ctx->devices, ctx->system.device_count,
                                           SNAPSHOT_WHOLE, &block, NULL);
    *out = block;
    return status;
}
