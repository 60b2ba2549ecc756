/* A GPU process outside a snapshot's focus (nvt_snapshot_focus()): what the pid cache kept of its
 * last reading stands in for one, so that a pass reads /proc only for the processes a screen
 * shows, and the others keep their user, command line and times for sorting and filtering. */
#include <math.h>
#include <string.h>

#include "host.h"
#include "linux_internal.h"
#include "util/sys/clock.h"

/* The memory fields from the resident set the identity kept, if any. */
static void keep_memory(struct host_ctx *host, const struct process_identity *identity,
                        struct nvt_host_process *out) {
    if (!identity->have_resident ||
        identity->resident_pages > UINT64_MAX / (uint64_t)host->page_size) {
        return;
    }
    out->rss_bytes = identity->resident_pages * (uint64_t)host->page_size;
    uint64_t total = host_memory_total(host);
    if (total != NVT_NA_U64 && total > 0) {
        out->memory_percent = (double)out->rss_bytes / (double)total * 100.0;
    }
}

bool host_process_keep(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    if (host == NULL || out == NULL || pid == 0) {
        return false;
    }
    pid_cache_age(&host->pids, clock_monotonic_s());
    const struct pid_cache_entry *entry = pid_cache_carry(&host->pids, pid);
    if (entry == NULL || entry->identity == NULL || entry->identity->strings == NULL ||
        entry->identity->strings->argc == 0) {
        return false; /* unknown, or a zombie when last read: read it */
    }
    const struct process_identity *identity = entry->identity;
    memset(out, 0, sizeof(*out));
    host_process_init_na(&out->pub, pid, NVT_HOST_OK);
    process_take_identity(out, identity);
    keep_memory(host, identity, &out->pub);
    double boot = host_boot_time(host);
    if (!isnan(boot)) {
        out->pub.create_time = boot + (double)entry->start_ticks / (double)host->clock_ticks;
        double running = clock_wall_s() - out->pub.create_time;
        out->pub.running_time_s = running > 0.0 ? running : 0.0;
    }
    return true;
}
