/*
 * Packing a snapshot into one block: the header, the device and process arrays, the per-CPU
 * percentages, the command-line pointer arrays and every string, so that one free() releases it
 * all and the result can be handed to another thread as is.  The same walk runs twice: once to
 * measure, once to write.
 */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot_internal.h"

struct packer {
    char *base; /* NULL while measuring */
    size_t used;
};

static void *take(struct packer *p, size_t size, size_t align) {
    p->used = (p->used + align - 1) / align * align;
    void *at = p->base != NULL ? p->base + p->used : NULL;
    p->used += size;
    return at;
}

static const char *put_string(struct packer *p, const char *text) {
    if (text == NULL) {
        text = "";
    }
    size_t size = strlen(text) + 1;
    char *at = take(p, size, 1);
    if (at != NULL) {
        memcpy(at, text, size);
    }
    return at;
}

/* Copy one host process's strings; returns it pointing into the block. */
static struct nvt_host_process pack_host(struct packer *p, const struct nvt_host_process *in) {
    struct nvt_host_process out = *in;
    out.cmdline_count = in->cmdline != NULL ? in->cmdline_count : 0;
    const char **argv = take(p, out.cmdline_count * sizeof(char *), alignof(char *));
    for (size_t i = 0; i < out.cmdline_count; i++) {
        const char *arg = put_string(p, in->cmdline[i]);
        if (argv != NULL) {
            argv[i] = arg;
        }
    }
    out.cmdline = argv;
    out.user = put_string(p, in->user);
    out.name = put_string(p, in->name);
    out.command = put_string(p, in->command);
    return out;
}

/* The host part of process entry i: its strings packed where it is its pid's first entry, or a
 * copy of that first entry's packed part (write pass), so that a pid on two GPUs shares its
 * strings; N/A where host processes were not sampled. */
static struct nvt_host_process host_of(struct packer *p, const struct snapshot_parts *parts,
                                       const struct nvt_gpu_process *processes, size_t i) {
    struct nvt_host_process host;
    if (parts->host_first == NULL) {
        host_process_init_na(&host, parts->processes[i].pid, NVT_HOST_OK);
        return host;
    }
    size_t first = parts->host_first[i];
    if (first == i) {
        return pack_host(p, &parts->processes[i].host);
    }
    if (processes != NULL) {
        return processes[first].host; /* written already: first < i */
    }
    memset(&host, 0, sizeof(host)); /* measuring: nothing to copy */
    return host;
}

static void walk(struct packer *p, const struct snapshot_parts *parts,
                 enum snapshot_layout layout) {
    struct nvt_gpu_process *processes = NULL;
    if (layout == SNAPSHOT_PROCESSES) {
        processes =
            take(p, parts->process_count * sizeof(*processes), alignof(struct nvt_gpu_process));
    }
    struct nvt_snapshot *snap = take(p, sizeof(*snap), alignof(struct nvt_snapshot));
    struct nvt_device_snapshot *devices =
        take(p, parts->device_count * sizeof(*devices), alignof(struct nvt_device_snapshot));
    if (layout == SNAPSHOT_WHOLE) {
        processes =
            take(p, parts->process_count * sizeof(*processes), alignof(struct nvt_gpu_process));
    }
    double *per_cpu = take(p, parts->host.cpu_count * sizeof(double), alignof(double));
    for (size_t i = 0; i < parts->process_count; i++) {
        struct nvt_host_process host = host_of(p, parts, processes, i);
        if (processes != NULL) {
            if (processes != parts->processes) { /* gathered elsewhere */
                processes[i] = parts->processes[i];
            }
            processes[i].host = host;
        }
    }
    if (snap == NULL) {
        return; /* measuring */
    }
    if (parts->device_count > 0) {
        memcpy(devices, parts->devices, parts->device_count * sizeof(*devices));
    }
    if (parts->host.cpu_count > 0) {
        memcpy(per_cpu, parts->per_cpu, parts->host.cpu_count * sizeof(double));
    }
    memset(snap, 0, sizeof(*snap));
    snap->timestamp = parts->timestamp;
    snap->flags = parts->flags;
    snap->system = parts->system;
    snap->host = parts->host;
    snap->host.cpu_percent_per_cpu = parts->host.cpu_count > 0 ? per_cpu : NULL;
    snap->device_count = parts->device_count;
    snap->devices = parts->device_count > 0 ? devices : NULL;
    snap->device_stride = sizeof(struct nvt_device_snapshot);
    snap->process_stride = sizeof(struct nvt_gpu_process);
    snap->process_count = parts->process_count;
    snap->processes = parts->process_count > 0 ? processes : NULL;
}

size_t snapshot_process_offset(enum snapshot_layout layout, size_t device_count) {
    struct packer p = {NULL, 0};
    if (layout == SNAPSHOT_WHOLE) { /* as walk() lays it out */
        take(&p, sizeof(struct nvt_snapshot), alignof(struct nvt_snapshot));
        take(&p, device_count * sizeof(struct nvt_device_snapshot),
             alignof(struct nvt_device_snapshot));
    }
    take(&p, 0, alignof(struct nvt_gpu_process));
    return p.used;
}

nvt_status snapshot_pack(struct snapshot_parts *parts, enum snapshot_layout layout, void **out) {
    struct packer measure = {NULL, 0};
    walk(&measure, parts, layout);
    struct packer write = {NULL, 0};
    if (parts->block != NULL) {
        /* The entries stay where they were gathered; the rest is written around them. */
        write.base = realloc(parts->block, measure.used);
        if (write.base == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        parts->block = NULL;
        parts->processes =
            (const struct nvt_gpu_process *)(write.base +
                                             snapshot_process_offset(layout, parts->device_count));
    } else {
        write.base = malloc(measure.used);
        if (write.base == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
    }
    walk(&write, parts, layout);
    *out = write.base;
    return NVT_OK;
}

void nvt_snapshot_free(struct nvt_snapshot *snapshot) {
    free(snapshot);
}

bool nvt_snapshot_is_leaf(const struct nvt_snapshot *snapshot, size_t slot) {
    if (snapshot == NULL || slot >= snapshot->device_count) {
        return false;
    }
    const struct nvt_device_snapshot *device = &snapshot->devices[slot];
    return device->info.is_mig || device->state.mig_mode != NVT_FEATURE_ENABLED;
}

const struct nvt_device_snapshot *nvt_snapshot_device(const struct nvt_snapshot *snapshot,
                                                      size_t slot) {
    if (snapshot == NULL || slot >= snapshot->device_count) {
        return NULL;
    }
    return &snapshot->devices[slot];
}

const struct nvt_gpu_process *nvt_snapshot_process(const struct nvt_snapshot *snapshot, size_t i) {
    if (snapshot == NULL || i >= snapshot->process_count) {
        return NULL;
    }
    return &snapshot->processes[i];
}
