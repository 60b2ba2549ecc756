/* A node's metrics as a snapshot (remote_snapshot.h).  Devices come from gpu_memory_total_MiB
 * (every device has it), ordered physical GPU then its MIG devices as a local snapshot is;
 * processes from process_gpu_memory_MiB, joined with the other process_* series by (index, pid),
 * those a GPU with MIG devices lists again for them left out (a node's processes are its leaf
 * devices', as the monitor shows them). */
#include "cluster/remote_snapshot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/node.h"
#include "cluster/parse/dcgm.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/xalloc.h"

static void device_na(struct nvt_device_snapshot *d) {
    memset(d, 0, sizeof *d);
    d->parent = NVT_NA_SIZE;
    d->first_child = NVT_NA_SIZE;
    struct nvt_device_info *i = &d->info;
    i->mig_index = NVT_NA_U32;
    i->handle_status = NVT_OK;
    i->pci_domain = i->pci_bus = i->pci_device = i->pci_device_id = NVT_NA_U32;
    i->pci_subsystem_id = i->pcie_link_gen_max = i->pcie_link_width_max = NVT_NA_U32;
    i->max_clock_graphics_mhz = i->max_clock_sm_mhz = NVT_NA_U32;
    i->max_clock_memory_mhz = i->max_clock_video_mhz = NVT_NA_U32;
    i->power_limit_min_mw = i->power_limit_max_mw = NVT_NA_U32;
    i->cuda_cc_major = i->cuda_cc_minor = NVT_NA_I32;
    i->mig_max_count = i->gpu_instance_id = i->compute_instance_id = NVT_NA_U32;
    struct nvt_device_state *s = &d->state;
    s->struct_size = sizeof *s;
    s->status = NVT_OK;
    s->memory_total_bytes = s->memory_used_bytes = s->memory_free_bytes = NVT_NA_U64;
    s->memory_reserved_bytes = NVT_NA_U64;
    s->bar1_total_bytes = s->bar1_used_bytes = s->bar1_free_bytes = NVT_NA_U64;
    s->gpu_util_pct = s->memory_bandwidth_util_pct = NVT_NA_U32;
    s->encoder_util_pct = s->decoder_util_pct = NVT_NA_U32;
    s->clock_graphics_mhz = s->clock_sm_mhz = s->clock_memory_mhz = NVT_NA_U32;
    s->clock_video_mhz = s->fan_speed_pct = s->temperature_c = NVT_NA_U32;
    s->power_usage_mw = s->power_limit_mw = s->performance_state = NVT_NA_U32;
    s->persistence_mode = s->display_active = s->display_mode = NVT_FEATURE_NA;
    s->power_management = s->mig_mode = NVT_FEATURE_NA;
    s->compute_mode = NVT_COMPUTE_MODE_NA;
    s->ecc_uncorrected_volatile = NVT_NA_U64;
    s->pcie_link_gen = s->pcie_link_width = s->pcie_tx_kibps = s->pcie_rx_kibps = NVT_NA_U32;
    for (size_t k = 0; k < NVT_NVLINK_MAX_LINKS; k++) {
        s->nvlink_tx_kibps[k] = s->nvlink_rx_kibps[k] = NAN;
    }
}

static uint32_t u32_of(double v, double scale) {
    return isnan(v) || v < 0 || v * scale >= (double)NVT_NA_U32 ? NVT_NA_U32
                                                                : (uint32_t)llround(v * scale);
}

static uint64_t mib_bytes(double v) {
    return isnan(v) || v < 0 || v > 1e12 ? NVT_NA_U64 : (uint64_t)llround(v * 1048576.0);
}

/* "3" -> gpu 3, mig NA; "0:1" -> gpu 0, mig 1.  False for anything else. */
static bool parse_index(const char *text, uint32_t *gpu, uint32_t *mig) {
    char *end;
    unsigned long g = strtoul(text, &end, 10);
    if (end == text || g > 1000000) {
        return false;
    }
    *gpu = (uint32_t)g;
    *mig = NVT_NA_U32;
    if (*end == ':') {
        const char *m = end + 1;
        unsigned long k = strtoul(m, &end, 10);
        if (end == m || k > 1000000) {
            return false;
        }
        *mig = (uint32_t)k;
    }
    return *end == '\0';
}

static int by_index(const void *a, const void *b) {
    const struct nvt_device_snapshot *x = a, *y = b;
    if (x->info.index != y->info.index) {
        return x->info.index < y->info.index ? -1 : 1;
    }
    uint32_t mx = x->info.is_mig ? x->info.mig_index : 0,
             my = y->info.is_mig ? y->info.mig_index : 0;
    if (x->info.is_mig != y->info.is_mig) {
        return x->info.is_mig ? 1 : -1;
    }
    return mx < my ? -1 : mx > my;
}

static size_t find_device(const struct remote_snapshot *rs, const char *index) {
    uint32_t gpu, mig;
    if (index == NULL || !parse_index(index, &gpu, &mig)) {
        return NVT_NA_SIZE;
    }
    for (size_t i = 0; i < rs->snap.device_count; i++) {
        const struct nvt_device_info *info = &rs->devices[i].info;
        if (info->index == gpu && (mig == NVT_NA_U32 ? !info->is_mig : info->mig_index == mig)) {
            return i;
        }
    }
    return NVT_NA_SIZE;
}

static void set_device_value(struct nvt_device_snapshot *d, const char *name, double v) {
    struct nvt_device_state *s = &d->state;
    static const struct {
        const char *name;
        size_t offset;
        double scale;
    } u32s[] = {
        {"gpu_utilization_Percentage", offsetof(struct nvt_device_state, gpu_util_pct), 1},
        {"gpu_memory_utilization_Percentage",
         offsetof(struct nvt_device_state, memory_bandwidth_util_pct), 1},
        {"gpu_encoder_utilization_Percentage", offsetof(struct nvt_device_state, encoder_util_pct),
         1},
        {"gpu_decoder_utilization_Percentage", offsetof(struct nvt_device_state, decoder_util_pct),
         1},
        {"gpu_clock_sm_MHz", offsetof(struct nvt_device_state, clock_sm_mhz), 1},
        {"gpu_clock_memory_MHz", offsetof(struct nvt_device_state, clock_memory_mhz), 1},
        {"gpu_clock_graphics_MHz", offsetof(struct nvt_device_state, clock_graphics_mhz), 1},
        {"gpu_clock_video_MHz", offsetof(struct nvt_device_state, clock_video_mhz), 1},
        {"gpu_power_usage_W", offsetof(struct nvt_device_state, power_usage_mw), 1000},
        {"gpu_power_limit_W", offsetof(struct nvt_device_state, power_limit_mw), 1000},
        {"gpu_temperature_C", offsetof(struct nvt_device_state, temperature_c), 1},
        {"gpu_fan_speed_Percentage", offsetof(struct nvt_device_state, fan_speed_pct), 1},
        {"gpu_pcie_tx_throughput_MiBps", offsetof(struct nvt_device_state, pcie_tx_kibps), 1024},
        {"gpu_pcie_rx_throughput_MiBps", offsetof(struct nvt_device_state, pcie_rx_kibps), 1024},
    };
    for (size_t i = 0; i < sizeof u32s / sizeof u32s[0]; i++) {
        if (strcmp(name, u32s[i].name) == 0) {
            uint32_t value = u32_of(v, u32s[i].scale);
            memcpy((char *)s + u32s[i].offset, &value, sizeof value);
            return;
        }
    }
    if (strcmp(name, "gpu_memory_used_MiB") == 0) {
        s->memory_used_bytes = mib_bytes(v);
    } else if (strcmp(name, "gpu_memory_free_MiB") == 0) {
        s->memory_free_bytes = mib_bytes(v);
    } else if (strcmp(name, "nvitop_ecc_uncorrected_volatile") == 0) { /* parse/dcgm.h */
        s->ecc_uncorrected_volatile = isnan(v) ? NVT_NA_U64 : (uint64_t)v;
    }
}

/* The process of (device slot, pid), added when new. */
static struct nvt_gpu_process *process_of(struct remote_snapshot *rs, size_t slot, uint32_t pid,
                                          size_t *cap) {
    for (size_t i = 0; i < rs->snap.process_count; i++) {
        if (rs->processes[i].device == slot && rs->processes[i].pid == pid) {
            return &rs->processes[i];
        }
    }
    if (rs->snap.process_count == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        rs->processes = xrealloc(rs->processes, *cap * sizeof *rs->processes);
    }
    struct nvt_gpu_process *p = &rs->processes[rs->snap.process_count++];
    memset(p, 0, sizeof *p);
    p->pid = pid;
    p->device = slot;
    p->type = NVT_PROCESS_COMPUTE; /* the exporter does not say; compute is the common case */
    p->gpu_memory_bytes = NVT_NA_U64;
    p->gpu_instance_id = p->compute_instance_id = NVT_NA_U32;
    p->sm_util_pct = p->memory_util_pct = p->encoder_util_pct = p->decoder_util_pct = NVT_NA_U32;
    struct nvt_host_process *h = &p->host;
    h->pid = pid;
    h->status = NVT_HOST_OK;
    h->ppid = h->uid = h->uid_effective = h->uid_saved = h->num_threads = NVT_NA_U32;
    h->user = h->name = h->command = "";
    h->cpu_percent = h->memory_percent = h->create_time = h->running_time_s = NAN;
    h->rss_bytes = NVT_NA_U64;
    return p;
}

static void set_process_value(struct nvt_gpu_process *p, const struct prom_doc *doc,
                              const struct prom_sample *s) {
    const char *name = s->name;
    double v = node_reading(s->value);
    struct nvt_host_process *h = &p->host;
    const char *user = prom_label_value(doc, s, "username");
    if (user != NULL && strcmp(user, "N/A") != 0) {
        h->user = user;
    }
    if (strcmp(name, "process_info_info") == 0) {
        const char *command = prom_label_value(doc, s, "command");
        if (command != NULL) {
            h->command = h->name = command;
            /* The exporter's texts for processes it could not read. */
            if (strcmp(command, "No Such Process") == 0) {
                h->status = NVT_HOST_GONE;
            } else if (strcmp(command, "No Permissions") == 0) {
                h->status = NVT_HOST_NO_PERMISSION;
            } else if (strcmp(command, "Zombie Process") == 0) {
                h->status = NVT_HOST_ZOMBIE;
            }
        }
    } else if (strcmp(name, "process_gpu_memory_MiB") == 0) {
        p->gpu_memory_bytes = mib_bytes(v);
    } else if (strcmp(name, "process_gpu_sm_utilization_Percentage") == 0) {
        p->sm_util_pct = u32_of(v, 1);
    } else if (strcmp(name, "process_gpu_memory_utilization_Percentage") == 0) {
        p->memory_util_pct = u32_of(v, 1);
    } else if (strcmp(name, "process_gpu_encoder_utilization_Percentage") == 0) {
        p->encoder_util_pct = u32_of(v, 1);
    } else if (strcmp(name, "process_gpu_decoder_utilization_Percentage") == 0) {
        p->decoder_util_pct = u32_of(v, 1);
    } else if (strcmp(name, "process_cpu_percent_Percentage") == 0) {
        h->cpu_percent = v;
    } else if (strcmp(name, "process_memory_percent_Percentage") == 0) {
        h->memory_percent = v;
    } else if (strcmp(name, "process_rss_memory_MiB") == 0) {
        h->rss_bytes = mib_bytes(v);
    } else if (strcmp(name, "process_running_time_Second") == 0) {
        h->running_time_s = v;
        h->create_time = isnan(v) ? NAN : clock_wall_s() - v;
    }
}

static int by_device_pid(const void *a, const void *b) {
    const struct nvt_gpu_process *x = a, *y = b;
    if (x->device != y->device) {
        return x->device < y->device ? -1 : 1;
    }
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void link_devices(struct remote_snapshot *rs) {
    size_t n = rs->snap.device_count;
    qsort(rs->devices, n, sizeof *rs->devices, by_index);
    for (size_t i = 0; i < n; i++) {
        struct nvt_device_snapshot *d = &rs->devices[i];
        if (!d->info.is_mig) {
            continue;
        }
        for (size_t p = i; p-- > 0;) {
            if (!rs->devices[p].info.is_mig && rs->devices[p].info.index == d->info.index) {
                d->parent = p;
                struct nvt_device_snapshot *parent = &rs->devices[p];
                if (parent->child_count++ == 0) {
                    parent->first_child = i;
                }
                parent->state.mig_mode = NVT_FEATURE_ENABLED;
                parent->info.mig_supported = true;
                break;
            }
        }
    }
}

struct remote_snapshot *remote_snapshot_build(const char *body, size_t len, char *err,
                                              size_t errlen) {
    struct remote_snapshot *rs = xcalloc(1, sizeof *rs);
    if (prom_parse(body, len, &rs->doc, err, errlen) != 0) {
        free(rs);
        return NULL;
    }
    /* A dcgm-exporter node: its series in our exporter's names (parse/dcgm.h). */
    struct prom_doc translated;
    if (dcgm_translate_doc(&rs->doc, &translated)) {
        prom_doc_free(&rs->doc);
        rs->doc = translated;
    }
    const struct prom_doc *doc = &rs->doc;
    struct nvt_snapshot *snap = &rs->snap;
    snap->timestamp = clock_wall_s();
    snap->flags = NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
    snap->system.cuda_driver_version = NVT_NA_I32;
    size_t dev_cap = 0, proc_cap = 0;
    /* Pass 1: devices and node facts. */
    for (size_t i = 0; i < doc->sample_count; i++) {
        const struct prom_sample *s = &doc->samples[i];
        if (strcmp(s->name, "nvitop_info") == 0) {
            const char *driver = prom_label_value(doc, s, "driver_version");
            const char *cuda = prom_label_value(doc, s, "cuda_driver_version");
            str_copy(snap->system.driver_version, sizeof snap->system.driver_version,
                     driver != NULL ? driver : "");
            int major = 0, minor = 0;
            if (cuda != NULL && sscanf(cuda, "%d.%d", &major, &minor) == 2) {
                snap->system.cuda_driver_version = major * 1000 + minor * 10;
            }
            continue;
        }
        const char *host = prom_label_value(doc, s, "hostname");
        if (host != NULL && snap->host.hostname[0] == '\0') {
            str_copy(snap->host.hostname, sizeof snap->host.hostname, host);
        }
        uint32_t gpu, mig;
        const char *index = prom_label_value(doc, s, "index");
        if (strcmp(s->name, "gpu_memory_total_MiB") != 0 || index == NULL ||
            !parse_index(index, &gpu, &mig) || find_device(rs, index) != NVT_NA_SIZE) {
            continue;
        }
        if (snap->device_count == dev_cap) {
            dev_cap = dev_cap ? dev_cap * 2 : 8;
            rs->devices = xrealloc(rs->devices, dev_cap * sizeof *rs->devices);
        }
        struct nvt_device_snapshot *d = &rs->devices[snap->device_count++];
        device_na(d);
        d->info.index = gpu;
        d->info.is_mig = mig != NVT_NA_U32;
        d->info.mig_index = mig;
        const char *name = prom_label_value(doc, s, "devicename");
        const char *uuid = prom_label_value(doc, s, "uuid");
        str_copy(d->info.name, sizeof d->info.name, name != NULL ? name : "");
        str_copy(d->info.uuid, sizeof d->info.uuid, uuid != NULL ? uuid : "");
        d->state.memory_total_bytes = mib_bytes(node_reading(s->value));
        snap->devices = rs->devices;
    }
    if (snap->device_count == 0) {
        str_copy(
            err, errlen,
            "no nvitop-exporter (gpu_*) or dcgm-exporter (DCGM_FI_*) GPU metrics in the answer");
        remote_snapshot_free(rs);
        return NULL;
    }
    link_devices(rs);
    rs->health = xcalloc(snap->device_count, sizeof *rs->health);
    for (size_t i = 0; i < snap->device_count; i++) {
        rs->health[i].xid_last = NAN;
        if (strcmp(rs->devices[i].info.name, "ERROR: GPU is Lost") == 0) {
            rs->health[i].flags |= NODE_FLAG_LOST;
        }
    }
    /* Pass 2: device values, health and processes. */
    for (size_t i = 0; i < doc->sample_count; i++) {
        const struct prom_sample *s = &doc->samples[i];
        size_t slot = find_device(rs, prom_label_value(doc, s, "index"));
        if (slot == NVT_NA_SIZE) {
            continue;
        }
        double v = node_reading(s->value);
        if (strcmp(s->name, "nvitop_health_flags") == 0) { /* parse/dcgm.h */
            rs->health[slot].flags |= isnan(v) ? 0 : (unsigned)v & NODE_FLAG_ALL;
            continue;
        }
        if (strcmp(s->name, "nvitop_xid_last") == 0) {
            rs->health[slot].xid_last = v > 0 ? v : rs->health[slot].xid_last;
            continue;
        }
        if (str_starts_with(s->name, "gpu_") ||
            strcmp(s->name, "nvitop_ecc_uncorrected_volatile") == 0) {
            set_device_value(&rs->devices[slot], s->name, node_reading(s->value));
            continue;
        }
        const char *pid_text = prom_label_value(doc, s, "pid");
        char *end;
        unsigned long pid = pid_text != NULL ? strtoul(pid_text, &end, 10) : 0;
        if (!str_starts_with(s->name, "process_") || pid_text == NULL || *end != '\0' ||
            pid > UINT32_MAX) {
            continue;
        }
        if (rs->devices[slot].child_count > 0) {
            continue; /* a GPU with MIG devices lists their processes again: they are shown there */
        }
        set_process_value(process_of(rs, slot, (uint32_t)pid, &proc_cap), doc, s);
    }
    if (snap->process_count > 1) { /* a node without processes has no array (qsort wants one) */
        qsort(rs->processes, snap->process_count, sizeof *rs->processes, by_device_pid);
    }
    rs->cmdlines = xcalloc(snap->process_count + 1, sizeof *rs->cmdlines);
    for (size_t i = 0; i < snap->process_count; i++) {
        struct nvt_host_process *h = &rs->processes[i].host;
        rs->cmdlines[i] = h->command;
        h->cmdline = &rs->cmdlines[i];
        h->cmdline_count = h->command[0] != '\0' ? 1 : 0;
    }
    snap->devices = rs->devices;
    snap->processes = rs->processes;
    snap->device_stride = sizeof *rs->devices;
    snap->process_stride = sizeof *rs->processes;
    snap->system.device_count = 0;
    for (size_t i = 0; i < snap->device_count; i++) {
        snap->system.device_count += !rs->devices[i].info.is_mig;
    }
    return rs;
}

void remote_snapshot_free(struct remote_snapshot *rs) {
    if (rs == NULL) {
        return;
    }
    prom_doc_free(&rs->doc);
    free(rs->devices);
    free(rs->processes);
    free(rs->cmdlines);
    free(rs->health);
    free(rs);
}
