/* Host figures beyond struct nvt_host_state on Linux (include/nvitop/host.h): psutil's
 * cpu_times(), virtual_memory() and swap_memory() in full, and a process's memory_info(). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/host.h>

#include "host.h"
#include "internal.h"
#include "linux_internal.h"
#include "util/array.h"
#include "util/text/parse.h"

#define DETAIL_FILE_CAP (256u << 10)
#define SWAP_PAGE_BYTES 4096u /* psutil counts pswpin/pswpout in 4 KiB pages */

static nvt_status status_of_errno(int err) {
    if (err == ENOMEM) {
        return NVT_ERR_NO_MEMORY;
    }
    return err == EACCES || err == EPERM ? NVT_ERR_NO_PERMISSION : NVT_ERR_NO_SUCH_PROCESS;
}

/* The value after "key" at the start of a line of text, with blanks between: NVT_NA_U64 when no
 * line has it or the number is malformed. */
static uint64_t line_value(const char *text, const char *key) {
    size_t n = strlen(key);
    for (const char *p = text; p != NULL && *p != '\0';) {
        if (strncmp(p, key, n) == 0 && (p[n] == ' ' || p[n] == '\t')) {
            const char *cursor = p + n;
            uint64_t value = 0;
            return parse_u64_field(&cursor, &value) == 0 ? value : NVT_NA_U64;
        }
        p = strchr(p, '\n');
        p = p != NULL ? p + 1 : NULL;
    }
    return NVT_NA_U64;
}

static uint64_t kib_value(const char *text, const char *key) {
    uint64_t kib = line_value(text, key);
    return kib != NVT_NA_U64 && kib <= UINT64_MAX / 1024 ? kib * 1024 : NVT_NA_U64;
}

static void *alloc_result(size_t size) {
    return calloc(1, size);
}

nvt_status nvt_host_cpu_times(nvt_context *ctx, struct nvt_cpu_times **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_ctx *host = context_host(ctx);
    const char *text = NULL;
    int err = host_read_kept(host, HOST_FILE_STAT, DETAIL_FILE_CAP, &text);
    if (err != 0) {
        return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_ERR_NOT_FOUND;
    }
    if (strncmp(text, "cpu ", 4) != 0 || host->clock_ticks <= 0) {
        return NVT_ERR_NOT_FOUND;
    }
    /* user nice system idle iowait irq softirq steal guest guest_nice; old kernels stop early. */
    double ticks[10];
    size_t count = 0;
    const char *cursor = text + 3;
    for (; count < ARRAY_SIZE(ticks); count++) {
        uint64_t value = 0;
        if (parse_u64_field(&cursor, &value) != 0) {
            break;
        }
        ticks[count] = (double)value / (double)host->clock_ticks;
    }
    if (count < 4) {
        return NVT_ERR_NOT_FOUND;
    }
    for (size_t i = count; i < ARRAY_SIZE(ticks); i++) {
        ticks[i] = 0.0;
    }
    struct nvt_cpu_times *times = alloc_result(sizeof(*times));
    if (times == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    *times = (struct nvt_cpu_times){
        .user = ticks[0],
        .nice = ticks[1],
        .system = ticks[2],
        .idle = ticks[3],
        .iowait = ticks[4],
        .irq = ticks[5],
        .softirq = ticks[6],
        .steal = ticks[7],
        .guest = ticks[8],
        .guest_nice = ticks[9],
    };
    *out = times;
    return NVT_OK;
}

/* The figures struct nvt_host_state has, with psutil's rules (linux_memory.c). */
static nvt_status memory_state(struct host_ctx *host, struct nvt_host_state *state) {
    host_state_init_na(state);
    host_memory_sample(host, state);
    return state->memory_total_bytes != NVT_NA_U64 ? NVT_OK : NVT_ERR_NOT_FOUND;
}

nvt_status nvt_host_virtual_memory(nvt_context *ctx, struct nvt_virtual_memory **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_ctx *host = context_host(ctx);
    struct nvt_host_state state;
    nvt_status status = memory_state(host, &state);
    if (status != NVT_OK) {
        return status;
    }
    const char *text = NULL;
    int err = host_read_kept(host, HOST_FILE_MEMINFO, DETAIL_FILE_CAP, &text);
    if (err != 0) {
        return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_ERR_NOT_FOUND;
    }
    struct nvt_virtual_memory *vm = alloc_result(sizeof(*vm));
    if (vm == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    uint64_t cached = kib_value(text, "Cached:");
    uint64_t reclaimable = kib_value(text, "SReclaimable:");
    if (cached != NVT_NA_U64 && reclaimable != NVT_NA_U64) {
        cached += reclaimable;
    }
    *vm = (struct nvt_virtual_memory){
        .total_bytes = state.memory_total_bytes,
        .available_bytes = state.memory_available_bytes,
        .percent = state.memory_percent,
        .used_bytes = state.memory_used_bytes,
        .free_bytes = state.memory_free_bytes,
        .active_bytes = kib_value(text, "Active:"),
        .inactive_bytes = kib_value(text, "Inactive:"),
        .buffers_bytes = kib_value(text, "Buffers:"),
        .cached_bytes = cached,
        .shared_bytes = kib_value(text, "Shmem:"),
        .slab_bytes = kib_value(text, "Slab:"),
    };
    *out = vm;
    return NVT_OK;
}

static uint64_t swap_pages(const char *text, const char *key) {
    uint64_t pages = text != NULL ? line_value(text, key) : NVT_NA_U64;
    return pages != NVT_NA_U64 && pages <= UINT64_MAX / SWAP_PAGE_BYTES ? pages * SWAP_PAGE_BYTES
                                                                        : NVT_NA_U64;
}

nvt_status nvt_host_swap_memory(nvt_context *ctx, struct nvt_swap_memory **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_ctx *host = context_host(ctx);
    struct nvt_host_state state;
    nvt_status status = memory_state(host, &state);
    if (status != NVT_OK) {
        return status;
    }
    char *vmstat = NULL;
    size_t len = 0;
    int err = host_read_file(host, "vmstat", DETAIL_FILE_CAP, &vmstat, &len);
    if (err == ENOMEM) {
        return NVT_ERR_NO_MEMORY;
    }
    struct nvt_swap_memory *swap = alloc_result(sizeof(*swap));
    if (swap == NULL) {
        free(vmstat);
        return NVT_ERR_NO_MEMORY;
    }
    *swap = (struct nvt_swap_memory){
        .total_bytes = state.swap_total_bytes,
        .used_bytes = state.swap_used_bytes,
        .free_bytes = state.swap_free_bytes,
        .percent = state.swap_percent,
        .sin_bytes = swap_pages(vmstat, "pswpin"),
        .sout_bytes = swap_pages(vmstat, "pswpout"),
    };
    free(vmstat);
    *out = swap;
    return NVT_OK;
}

nvt_status nvt_host_process_memory_info(nvt_context *ctx, uint32_t pid,
                                        struct nvt_memory_info **out) {
    if (ctx == NULL || out == NULL || pid == 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_ctx *host = context_host(ctx);
    char path[32];
    snprintf(path, sizeof(path), "%" PRIu32 "/statm", pid);
    char *text = NULL;
    size_t len = 0;
    int err = host_read_file(host, path, DETAIL_FILE_CAP, &text, &len);
    if (err != 0) {
        return status_of_errno(err);
    }
    /* size resident shared text lib data dt, in pages. */
    uint64_t pages[7];
    const char *cursor = text;
    size_t count = 0;
    for (; count < ARRAY_SIZE(pages); count++) {
        if (parse_u64_field(&cursor, &pages[count]) != 0) {
            break;
        }
    }
    free(text);
    if (count < ARRAY_SIZE(pages)) {
        return NVT_ERR_NO_SUCH_PROCESS; /* an exiting process leaves an empty file */
    }
    struct nvt_memory_info *info = alloc_result(sizeof(*info));
    if (info == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    uint64_t page = (uint64_t)host->page_size;
    *info = (struct nvt_memory_info){
        .vms_bytes = pages[0] * page,
        .rss_bytes = pages[1] * page,
        .shared_bytes = pages[2] * page,
        .text_bytes = pages[3] * page,
        .lib_bytes = pages[4] * page,
        .data_bytes = pages[5] * page,
        .dirty_bytes = pages[6] * page,
    };
    *out = info;
    return NVT_OK;
}
