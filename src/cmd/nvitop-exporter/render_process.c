/* The process families of the exposition (render.h).  A process is rendered from the snapshot of
 * this pass only, so the series of a process that exited are gone at the next pass, as
 * nvitop-exporter removes them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

enum process_metric {
    PROC_RUNNING_TIME,
    PROC_CPU_PERCENT,
    PROC_RSS_MEMORY,
    PROC_MEMORY_PERCENT,
    PROC_GPU_MEMORY,
    PROC_GPU_SM_UTIL,
    PROC_GPU_MEMORY_UTIL,
    PROC_GPU_ENCODER_UTIL,
    PROC_GPU_DECODER_UTIL,
    PROC_METRIC_COUNT
};

static const struct {
    const char *name;
    const char *help;
} process_families[PROC_METRIC_COUNT] = {
    [PROC_RUNNING_TIME] = {"process_running_time_Second", "Process running time (s)."},
    [PROC_CPU_PERCENT] = {"process_cpu_percent_Percentage", "Process CPU percent (%)."},
    [PROC_RSS_MEMORY] = {"process_rss_memory_MiB", "Process memory resident set size (MiB)."},
    [PROC_MEMORY_PERCENT] = {"process_memory_percent_Percentage", "Process memory percent (%)."},
    [PROC_GPU_MEMORY] = {"process_gpu_memory_MiB", "Process GPU memory (MiB)."},
    [PROC_GPU_SM_UTIL] = {"process_gpu_sm_utilization_Percentage",
                          "Process GPU SM utilization (%)."},
    [PROC_GPU_MEMORY_UTIL] = {"process_gpu_memory_utilization_Percentage",
                              "Process GPU memory utilization (%)."},
    [PROC_GPU_ENCODER_UTIL] = {"process_gpu_encoder_utilization_Percentage",
                               "Process GPU encoder utilization (%)."},
    [PROC_GPU_DECODER_UTIL] = {"process_gpu_decoder_utilization_Percentage",
                               "Process GPU decoder utilization (%)."},
};

static double process_value(const struct nvt_gpu_process *p, enum process_metric metric) {
    switch (metric) {
    case PROC_RUNNING_TIME:
        return p->host.running_time_s;
    case PROC_CPU_PERCENT:
        return p->host.cpu_percent;
    case PROC_RSS_MEMORY:
        return render_u64_mib(p->host.rss_bytes);
    case PROC_MEMORY_PERCENT:
        return p->host.memory_percent;
    case PROC_GPU_MEMORY:
        return render_u64_mib(p->gpu_memory_bytes);
    case PROC_GPU_SM_UTIL:
        return render_u32(p->sm_util_pct);
    case PROC_GPU_MEMORY_UTIL:
        return render_u32(p->memory_util_pct);
    case PROC_GPU_ENCODER_UTIL:
        return render_u32(p->encoder_util_pct);
    case PROC_GPU_DECODER_UTIL:
        return render_u32(p->decoder_util_pct);
    case PROC_METRIC_COUNT:
        break;
    }
    return NAN;
}

/* psutil's status string of a /proc state letter; "terminated" when the host process cannot be
 * read (gone, not in our PID namespace, no permission), nvitop's failsafe value. */
static const char *status_name(const struct nvt_host_process *h) {
    if (h->status == NVT_HOST_GONE || h->status == NVT_HOST_NOT_IN_NAMESPACE ||
        h->status == NVT_HOST_NO_PERMISSION) {
        return "terminated";
    }
    switch (h->state) {
    case 'R':
        return "running";
    case 'S':
        return "sleeping";
    case 'D':
        return "disk-sleep";
    case 'T':
        return "stopped";
    case 't':
        return "tracing-stop";
    case 'Z':
        return "zombie";
    case 'X':
    case 'x':
        return "dead";
    case 'K':
        return "wake-kill";
    case 'W':
        return "waking";
    case 'I':
        return "idle";
    case 'P':
        return "parked";
    default:
        return "N/A";
    }
}

/* The command line, or what nvitop shows in its place when the host data is missing. */
static const char *command_text(const struct nvt_host_process *h) {
    if (h->command != NULL && h->command[0] != '\0') {
        return h->command;
    }
    switch (h->status) {
    case NVT_HOST_ZOMBIE:
        return "Zombie Process";
    case NVT_HOST_NO_PERMISSION:
        return "No Permissions";
    case NVT_HOST_GONE:
    case NVT_HOST_NOT_IN_NAMESPACE:
        return "No Such Process";
    case NVT_HOST_OK:
        break;
    }
    return "N/A";
}

/* Device labels, then pid, username and our container label, appended to labels. */
static void process_labels(struct render_out *out, const struct render_input *in, size_t i,
                           const struct strbuf *device_labels, struct strbuf *labels) {
    const struct nvt_gpu_process *p = &in->snapshot->processes[i];
    char pid[24];
    render_uint(pid, p->pid);
    const char *user = p->host.user != NULL && p->host.user[0] != '\0' ? p->host.user : "N/A";
    const char *container =
        in->containers != NULL && in->containers[i] != NULL ? in->containers[i] : "";
    out->ok = strbuf_append(labels, strbuf_cstr(device_labels), device_labels->len) && out->ok;
    render_label(out, labels, "pid", pid, false);
    render_label(out, labels, "username", user, false);
    render_label(out, labels, "container", container, false);
}

/* One series set of the exposition: a process under one device. */
struct process_row {
    size_t process; /* index into the snapshot's processes */
    size_t device;  /* the device whose labels it carries; NVT_NA_SIZE: none */
};

static bool pid_listed(const struct nvt_snapshot *snap, const struct process_row *rows, size_t from,
                       size_t to, uint32_t pid) {
    for (size_t r = from; r < to; r++) {
        if (snap->processes[rows[r].process].pid == pid) {
            return true;
        }
    }
    return false;
}

/* The rows in nvitop-exporter 1.7's order: device by device, each device's processes.  A GPU with
 * MIG devices lists every process of its MIG devices too, once per pid (the first row of that pid
 * gives the values), before the MIG devices list them: NVML's process query on a MIG-enabled GPU
 * answers for all its instances, and 1.7 exports what it answers.  Processes of no known device
 * come last.  rows has room for twice the processes; returns the count. */
static size_t process_rows(const struct nvt_snapshot *snap, struct process_row *rows) {
    size_t n = 0;
    size_t processes = snap->process_count;
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *d = &snap->devices[slot];
        if (!d->info.is_mig && d->child_count > 0 && d->first_child != NVT_NA_SIZE) {
            size_t first = n;
            for (size_t i = 0; i < processes; i++) {
                size_t device = snap->processes[i].device;
                if (device >= d->first_child && device < d->first_child + d->child_count &&
                    !pid_listed(snap, rows, first, n, snap->processes[i].pid)) {
                    rows[n++] = (struct process_row){i, slot};
                }
            }
        }
        for (size_t i = 0; i < processes; i++) {
            if (snap->processes[i].device == slot) {
                rows[n++] = (struct process_row){i, slot};
            }
        }
    }
    for (size_t i = 0; i < processes; i++) {
        if (snap->processes[i].device >= snap->device_count) {
            rows[n++] = (struct process_row){i, NVT_NA_SIZE};
        }
    }
    return n;
}

/* Row r's label text in the buffer all, where ends[r] is where each row's text ends. */
static struct render_text row_labels(const char *all, const size_t *ends, size_t r) {
    size_t start = r > 0 ? ends[r - 1] : 0;
    return (struct render_text){all + start, ends[r] - start};
}

void render_processes(struct render_out *out, const struct render_input *in,
                      const struct strbuf *device_labels) {
    const struct nvt_snapshot *snap = in->snapshot;
    size_t capacity = 2 * snap->process_count + 1;
    struct process_row *rows = calloc(capacity, sizeof(*rows));
    /* Every row's label text, one after the other in one buffer: ends[r] is where row r's ends
     * (a row's text starts where the one before it ends). */
    size_t *ends = calloc(capacity, sizeof(*ends));
    struct strbuf labels = STRBUF_INIT;
    struct strbuf info = STRBUF_INIT;
    if (rows == NULL || ends == NULL) {
        free(rows);
        free(ends);
        out->ok = false;
        return;
    }
    size_t n = process_rows(snap, rows);
    static const struct strbuf no_device = STRBUF_INIT;
    for (size_t r = 0; r < n; r++) {
        /* The device's label text of this pass, or none for a process of an unknown device. */
        const struct strbuf *device =
            rows[r].device != NVT_NA_SIZE ? &device_labels[rows[r].device] : &no_device;
        process_labels(out, in, rows[r].process, device, &labels);
        ends[r] = labels.len;
    }
    const char *all = strbuf_cstr(&labels);
    static const char info_name[] = "process_info_info";
    render_family(out, info_name, "Process information.");
    for (size_t r = 0; r < n; r++) {
        const struct nvt_host_process *h = &snap->processes[rows[r].process].host;
        struct render_text process = row_labels(all, ends, r);
        strbuf_clear(&info);
        out->ok = strbuf_append(&info, process.text, process.len) && out->ok;
        render_label(out, &info, "status", status_name(h), false);
        render_label(out, &info, "command", command_text(h), false);
        struct render_text family = {info_name, sizeof(info_name) - 1};
        struct render_text text = {strbuf_cstr(&info), info.len};
        render_sample_text(out, family, text, "", 0, 1.0);
    }
    for (int metric = 0; metric < PROC_METRIC_COUNT; metric++) {
        const char *name = process_families[metric].name;
        render_family(out, name, process_families[metric].help);
        struct render_text family = {name, strlen(name)};
        for (size_t r = 0; r < n; r++) {
            render_sample_text(
                out, family, row_labels(all, ends, r), "", 0,
                process_value(&snap->processes[rows[r].process], (enum process_metric)metric));
        }
    }
    strbuf_fini(&labels);
    free(ends);
    free(rows);
    strbuf_fini(&info);
}
