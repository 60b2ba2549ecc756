/* Host I/O lists of the public API (include/nvitop/host.h) on Linux: network and disk counters,
 * with psutil's definitions, and the container of a process (file system usage: linux_mounts.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/host.h>

#include "host.h"
#include "internal.h"
#include "linux_internal.h"
#include "proc_parse_io.h"

/* Caps on what we read: thousands of interfaces, disks or mounts fit; a runaway file does not. */
#define IO_FILE_CAP     (8u << 20)
#define CGROUP_FILE_CAP (64u << 10)
#define LINE_MAX_LEN    4096

/* A growing array of fixed-size entries. */
struct entry_list {
    void *items;
    size_t count;
    size_t capacity;
    size_t item_size;
};

/* Room for one more entry; NULL when out of memory. */
static void *list_add(struct entry_list *list) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity != 0 ? list->capacity * 2 : 16;
        void *items = realloc(list->items, capacity * list->item_size);
        if (items == NULL) {
            return NULL;
        }
        list->items = items;
        list->capacity = capacity;
    }
    return (char *)list->items + list->item_size * list->count++;
}

/* Hand the list over as the result: NULL when empty (and freed). */
static nvt_status list_finish(struct entry_list *list, void **out, size_t *count) {
    if (list->count == 0) {
        free(list->items);
        list->items = NULL;
    }
    *out = list->items;
    *count = list->count;
    return NVT_OK;
}

/* Read a kept proc file; NULL text (an empty list follows) when unreadable.  The text is the
 * kept file's buffer, valid until its next read. */
static nvt_status read_kept_or_empty(struct host_ctx *host, enum host_file which,
                                     const char **text) {
    int err = host_read_kept(host, which, IO_FILE_CAP, text);
    return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_OK;
}

typedef bool (*line_parser)(const char *line, void *entry);

static bool parse_net(const char *line, void *entry) {
    return proc_parse_net_dev_line(line, entry);
}

static bool parse_disk(const char *line, void *entry) {
    return proc_parse_diskstats_line(line, entry);
}

/* One entry per line that parses, in file order. */
static nvt_status parse_lines(struct host_ctx *host, enum host_file which, size_t item_size,
                              line_parser parse, void **out, size_t *count) {
    *out = NULL;
    *count = 0;
    const char *text = NULL;
    nvt_status status = read_kept_or_empty(host, which, &text);
    if (text == NULL) {
        return status;
    }
    struct entry_list list = {.item_size = item_size};
    const char *cursor = text;
    char line[LINE_MAX_LEN];
    bool too_long = false;
    while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
        if (too_long) {
            continue;
        }
        void *entry = list_add(&list);
        if (entry == NULL) {
            free(list.items);
            return NVT_ERR_NO_MEMORY;
        }
        memset(entry, 0, item_size);
        if (!parse(line, entry)) {
            list.count--;
        }
    }
    return list_finish(&list, out, count);
}

nvt_status nvt_host_net_io(nvt_context *ctx, struct nvt_net_io **out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    void *items = NULL;
    nvt_status status = parse_lines(context_host(ctx), HOST_FILE_NET_DEV, sizeof(struct nvt_net_io),
                                    parse_net, &items, count);
    *out = items;
    return status;
}

nvt_status nvt_host_disk_io(nvt_context *ctx, struct nvt_disk_io **out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    void *items = NULL;
    nvt_status status = parse_lines(context_host(ctx), HOST_FILE_DISKSTATS,
                                    sizeof(struct nvt_disk_io), parse_disk, &items, count);
    *out = items;
    return status;
}

nvt_status nvt_host_process_container(nvt_context *ctx, uint32_t pid, char *buf, size_t size) {
    if (ctx == NULL || buf == NULL || size == 0 || pid == 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    buf[0] = '\0';
    char path[32];
    snprintf(path, sizeof(path), "%" PRIu32 "/cgroup", pid);
    char *text = NULL;
    size_t len = 0;
    int err = host_read_file(context_host(ctx), path, CGROUP_FILE_CAP, &text, &len);
    if (err != 0) {
        if (err == ENOMEM) {
            return NVT_ERR_NO_MEMORY;
        }
        return err == EACCES || err == EPERM ? NVT_ERR_NO_PERMISSION : NVT_ERR_NO_SUCH_PROCESS;
    }
    proc_parse_cgroup_container(text, buf, size);
    free(text);
    return NVT_OK;
}
