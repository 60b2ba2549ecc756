/* Host I/O lists of the public API (include/nvitop/host.h) on Linux: network and disk counters
 * and file system usage, with psutil's definitions, and the container of a process. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

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

/* psutil.disk_usage() of a path; false when statvfs() refuses. */
static bool usage_of(const char *path, struct nvt_disk_usage *out) {
    struct statvfs st;
    if (statvfs(path, &st) != 0) {
        return false;
    }
    uint64_t frsize = st.f_frsize != 0 ? st.f_frsize : st.f_bsize;
    out->total_bytes = (uint64_t)st.f_blocks * frsize;
    uint64_t free_root = (uint64_t)st.f_bfree * frsize;
    out->free_bytes = (uint64_t)st.f_bavail * frsize;
    out->used_bytes = out->total_bytes >= free_root ? out->total_bytes - free_root : 0;
    uint64_t user_total = out->used_bytes + out->free_bytes;
    out->percent =
        user_total != 0 ? round((double)out->used_bytes / (double)user_total * 1000.0) / 10.0 : 0.0;
    return true;
}

/* The mounts psutil.disk_partitions(all=False) keeps, with their usage, into list; the string
 * fields hold offsets into *strings (fixed up by the caller).  False when out of memory. */
static bool collect_mounts(const char *mounts, const char *filesystems, struct entry_list *list,
                           char **strings, size_t *strings_len) {
    const char *cursor = mounts;
    char line[LINE_MAX_LEN];
    bool too_long = false;
    while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
        struct proc_mount mount;
        if (too_long || !proc_parse_mount_line(line, &mount) || strcmp(mount.device, "none") == 0 ||
            !proc_filesystems_is_physical(filesystems, mount.fstype)) {
            continue;
        }
        struct nvt_disk_usage usage;
        if (!usage_of(mount.mountpoint, &usage)) {
            continue;
        }
        const char *fields[3] = {mount.device, mount.mountpoint, mount.fstype};
        size_t need = 0;
        for (size_t i = 0; i < 3; i++) {
            need += strlen(fields[i]) + 1;
        }
        char *grown = realloc(*strings, *strings_len + need);
        struct nvt_disk_usage *entry = grown != NULL ? list_add(list) : NULL;
        if (grown != NULL) {
            *strings = grown;
        }
        if (entry == NULL) {
            return false;
        }
        const char **targets[3] = {&usage.device, &usage.mountpoint, &usage.fstype};
        for (size_t i = 0; i < 3; i++) {
            size_t size = strlen(fields[i]) + 1;
            memcpy(*strings + *strings_len, fields[i], size);
            *targets[i] = (const char *)(uintptr_t)*strings_len;
            *strings_len += size;
        }
        *entry = usage;
    }
    return true;
}

nvt_status nvt_host_disk_usage(nvt_context *ctx, struct nvt_disk_usage **out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    struct host_ctx *host = context_host(ctx);
    const char *mounts = NULL;
    const char *filesystems = NULL;
    bool changed = true;
    char *fallback = NULL; /* <proc root>/mounts, for a proc tree without self/ */
    int err = host_read_mounts(host, IO_FILE_CAP, &mounts, &changed);
    if (err != 0 && err != ENOMEM) {
        size_t len = 0;
        err = host_read_file(host, "mounts", IO_FILE_CAP, &fallback, &len);
        mounts = fallback;
    }
    /* The file system types only matter for what is mounted: read again with the mounts. */
    const struct host_kept_file *kept = &host->files[HOST_FILE_FILESYSTEMS];
    if (err == 0 && !changed && kept->valid) {
        filesystems = kept->buf;
    } else if (err == 0) {
        err = host_read_kept(host, HOST_FILE_FILESYSTEMS, IO_FILE_CAP, &filesystems);
    }
    if (mounts == NULL || filesystems == NULL) {
        free(fallback);
        return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_OK;
    }
    struct entry_list list = {.item_size = sizeof(struct nvt_disk_usage)};
    char *strings = NULL;
    size_t strings_len = 0;
    bool ok = collect_mounts(mounts, filesystems, &list, &strings, &strings_len);
    free(fallback);
    struct nvt_disk_usage *result = NULL;
    if (ok && list.count > 0) {
        /* One allocation: the entries, then their strings. */
        size_t entries_size = list.count * sizeof(struct nvt_disk_usage);
        result = malloc(entries_size + strings_len);
        if (result != NULL) {
            char *base = (char *)result + entries_size;
            memcpy(result, list.items, entries_size);
            memcpy(base, strings, strings_len);
            for (size_t i = 0; i < list.count; i++) {
                result[i].device = base + (uintptr_t)result[i].device;
                result[i].mountpoint = base + (uintptr_t)result[i].mountpoint;
                result[i].fstype = base + (uintptr_t)result[i].fstype;
            }
        }
    }
    size_t n = list.count;
    free(list.items);
    free(strings);
    if (!ok || (n > 0 && result == NULL)) {
        return NVT_ERR_NO_MEMORY;
    }
    *out = result;
    *count = n;
    return NVT_OK;
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
