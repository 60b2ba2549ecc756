/* Physical and swap memory from /proc/meminfo with psutil's definitions (docs/nvitop-behaviour.md
 * §5.6.4). */
#include <math.h>
#include <stdlib.h>

#include <nvitop/format.h>

#include "host.h"
#include "linux_internal.h"

#define MEMINFO_CAP  (64u << 10)
#define ZONEINFO_CAP (4u << 20)

/* psutil's fallback for kernels without MemAvailable (before 3.14), from the low watermarks. */
static uint64_t estimate_available(const struct host_ctx *host, const struct proc_meminfo *m,
                                   uint64_t cached_only) {
    uint64_t fallback = m->mem_free + cached_only;
    if (m->active_file == NVT_NA_U64 || m->inactive_file == NVT_NA_U64 ||
        m->sreclaimable == NVT_NA_U64) {
        return fallback;
    }
    char *text = NULL;
    size_t len = 0;
    if (host_read_file(host, "zoneinfo", ZONEINFO_CAP, &text, &len) != 0) {
        return fallback;
    }
    uint64_t low_pages = 0;
    proc_parse_zoneinfo_low(text, &low_pages);
    free(text);
    double low = (double)low_pages * (double)host->page_size;
    double pagecache = (double)m->active_file + (double)m->inactive_file;
    double slab = (double)m->sreclaimable;
    double available = (double)m->mem_free - low;
    available += pagecache - fmin(pagecache / 2.0, low);
    available += slab - fmin(slab / 2.0, low);
    return available <= 0.0 ? 0 : (uint64_t)available;
}

static double usage_percent(uint64_t used, uint64_t total) {
    if (total == 0) {
        return 0.0;
    }
    return nvt_round_half_even_digits((double)used / (double)total * 100.0, 1);
}

/* Total and available memory with psutil's rules; false when MemTotal or MemFree is missing. */
static bool memory_figures(const struct host_ctx *host, const struct proc_meminfo *m,
                           uint64_t *cached_out, uint64_t *available_out) {
    if (m->mem_total == NVT_NA_U64 || m->mem_free == NVT_NA_U64) {
        return false;
    }
    uint64_t cached = m->cached != NVT_NA_U64 ? m->cached : 0;
    uint64_t available = m->mem_available;
    if (available == NVT_NA_U64) {
        available = estimate_available(host, m, cached);
    }
    if (m->sreclaimable != NVT_NA_U64) {
        cached += m->sreclaimable;
    }
    if (available > m->mem_total) {
        available = m->mem_free;
    }
    *cached_out = cached;
    *available_out = available;
    return true;
}

/* psutil's used: total - free - cached - buffers, or total - free when that would go negative. */
static uint64_t used_memory(const struct proc_meminfo *m, uint64_t cached) {
    uint64_t total = m->mem_total;
    uint64_t buffers = m->buffers != NVT_NA_U64 ? m->buffers : 0;
    uint64_t taken = m->mem_free;
    bool fits = taken <= total && cached <= total - taken && buffers <= total - taken - cached;
    return fits ? total - taken - cached - buffers : (taken <= total ? total - taken : 0);
}

static bool read_meminfo(struct host_ctx *host, struct proc_meminfo *m) {
    const char *text = NULL;
    if (host_read_kept(host, HOST_FILE_MEMINFO, MEMINFO_CAP, &text) != 0) {
        return false;
    }
    proc_parse_meminfo(text, m);
    return true;
}

void host_memory_sample(struct host_ctx *host, struct nvt_host_state *out) {
    struct proc_meminfo m;
    if (!read_meminfo(host, &m)) {
        return;
    }
    uint64_t cached = 0;
    uint64_t available = 0;
    if (memory_figures(host, &m, &cached, &available)) {
        uint64_t total = m.mem_total;
        out->memory_total_bytes = total;
        out->memory_free_bytes = m.mem_free;
        out->memory_available_bytes = available;
        out->memory_used_bytes = used_memory(&m, cached);
        out->memory_percent = usage_percent(total - available, total);
        host->memory_total = total;
    }
    if (m.swap_total != NVT_NA_U64 && m.swap_free != NVT_NA_U64) {
        uint64_t used = m.swap_free <= m.swap_total ? m.swap_total - m.swap_free : 0;
        out->swap_total_bytes = m.swap_total;
        out->swap_free_bytes = m.swap_free;
        out->swap_used_bytes = used;
        out->swap_percent = usage_percent(used, m.swap_total);
    }
}

uint64_t host_memory_total(struct host_ctx *host) {
    if (host == NULL) {
        return NVT_NA_U64;
    }
    if (host->memory_total == NVT_NA_U64) {
        struct proc_meminfo m;
        if (read_meminfo(host, &m) && m.mem_total != NVT_NA_U64) {
            host->memory_total = m.mem_total;
        }
    }
    return host->memory_total;
}

void host_virtual_memory(struct host_ctx *host, uint64_t *total, uint64_t *free, uint64_t *used) {
    *total = NVT_NA_U64;
    *free = NVT_NA_U64;
    *used = NVT_NA_U64;
    struct proc_meminfo m;
    uint64_t cached = 0;
    uint64_t available = 0;
    if (host != NULL && read_meminfo(host, &m) && memory_figures(host, &m, &cached, &available)) {
        *total = m.mem_total;
        *free = m.mem_free;
        *used = used_memory(&m, cached);
    }
}
