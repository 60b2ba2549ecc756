/*
 * N/A host state and host processes, shared by every host back-end and by snapshots taken without
 * host data.
 */
#include <math.h>
#include <string.h>

#include "host.h"

void host_state_init_na(struct nvt_host_state *out) {
    memset(out, 0, sizeof(*out));
    out->cpu_percent = NAN;
    out->load_1m = NAN;
    out->load_5m = NAN;
    out->load_15m = NAN;
    out->memory_total_bytes = NVT_NA_U64;
    out->memory_available_bytes = NVT_NA_U64;
    out->memory_used_bytes = NVT_NA_U64;
    out->memory_free_bytes = NVT_NA_U64;
    out->memory_percent = NAN;
    out->swap_total_bytes = NVT_NA_U64;
    out->swap_used_bytes = NVT_NA_U64;
    out->swap_free_bytes = NVT_NA_U64;
    out->swap_percent = NAN;
    out->uptime_s = NAN;
    out->boot_time = NAN;
}

void host_process_init_na(struct nvt_host_process *out, uint32_t pid, enum nvt_host_status status) {
    memset(out, 0, sizeof(*out));
    out->pid = pid;
    out->status = status;
    out->ppid = NVT_NA_U32;
    out->uid = NVT_NA_U32;
    out->uid_effective = NVT_NA_U32;
    out->uid_saved = NVT_NA_U32;
    out->num_threads = NVT_NA_U32;
    out->user = "";
    out->name = "";
    out->command = "";
    out->cpu_percent = NAN;
    out->memory_percent = NAN;
    out->rss_bytes = NVT_NA_U64;
    out->create_time = NAN;
    out->running_time_s = NAN;
}
