/* File system usage of the public API (nvt_host_disk_usage(), include/nvitop/host.h) on Linux,
 * with psutil's definitions: the mounts disk_partitions(all=False) keeps, each with statvfs(),
 * and "/" always (in a chroot or a container the table lists no disk that is visible there).
 * Which mounts those are is worked out again only when the mount table changes: matching each
 * mount's type against /proc/filesystems was most of the cost of a call. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include <nvitop/host.h>

#include "host.h"
#include "internal.h"
#include "linux_internal.h"
#include "proc_parse_io.h"

/* Caps on what we read: thousands of mounts fit; a runaway file does not. */
#define MOUNTS_FILE_CAP (8u << 20)
#define LINE_MAX_LEN    4096

void host_mounts_fini(struct host_mounts *mounts) {
    free(mounts->offsets);
    free(mounts->strings);
    *mounts = (struct host_mounts){0};
}

/* Append a NUL-terminated copy of text to the strings; its offset, or SIZE_MAX when out of
 * memory. */
static size_t add_string(struct host_mounts *m, size_t *capacity, const char *text) {
    size_t size = strlen(text) + 1;
    if (m->strings_len + size > *capacity) {
        size_t grown =
            *capacity * 2 > m->strings_len + size ? *capacity * 2 : m->strings_len + size;
        char *bigger = realloc(m->strings, grown);
        if (bigger == NULL) {
            return SIZE_MAX;
        }
        m->strings = bigger;
        *capacity = grown;
    }
    memcpy(m->strings + m->strings_len, text, size);
    m->strings_len += size;
    return m->strings_len - size;
}

/* Rebuild the list from the mount table and /proc/filesystems; false when out of memory (the
 * list is then empty and not valid). */
static bool rebuild(struct host_mounts *m, const char *mounts, const char *filesystems) {
    host_mounts_fini(m);
    size_t strings_capacity = 0;
    size_t offsets_capacity = 0;
    const char *cursor = mounts;
    char line[LINE_MAX_LEN];
    bool too_long = false;
    const char *root_fields[3] = {"rootfs", "/", "rootfs"};
    for (size_t i = 0; i < 3; i++) {
        m->root[i] = add_string(m, &strings_capacity, root_fields[i]);
        if (m->root[i] == SIZE_MAX) {
            host_mounts_fini(m);
            return false;
        }
    }
    while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
        struct proc_mount mount;
        if (too_long || !proc_parse_mount_line(line, &mount)) {
            continue;
        }
        if (strcmp(mount.mountpoint, "/") == 0 && strcmp(mount.device, "none") != 0) {
            /* The last mount on "/" is the one seen there. */
            size_t device = add_string(m, &strings_capacity, mount.device);
            size_t fstype = add_string(m, &strings_capacity, mount.fstype);
            if (device == SIZE_MAX || fstype == SIZE_MAX) {
                host_mounts_fini(m);
                return false;
            }
            m->root[0] = device;
            m->root[2] = fstype;
        }
        if (strcmp(mount.device, "none") == 0 ||
            !proc_filesystems_is_physical(filesystems, mount.fstype)) {
            continue;
        }
        if (3 * (m->count + 1) > offsets_capacity) {
            size_t grown = offsets_capacity != 0 ? offsets_capacity * 2 : 3 * 16;
            size_t *bigger = realloc(m->offsets, grown * sizeof(*bigger));
            if (bigger == NULL) {
                host_mounts_fini(m);
                return false;
            }
            m->offsets = bigger;
            offsets_capacity = grown;
        }
        const char *fields[3] = {mount.device, mount.mountpoint, mount.fstype};
        for (size_t i = 0; i < 3; i++) {
            size_t offset = add_string(m, &strings_capacity, fields[i]);
            if (offset == SIZE_MAX) {
                host_mounts_fini(m);
                return false;
            }
            m->offsets[3 * m->count + i] = offset;
        }
        m->count++;
    }
    m->valid = true;
    return true;
}

/* The mounts to report, rebuilt when the mount table changed; NVT_OK with no mount listed when
 * the files are unreadable. */
static nvt_status current_mounts(struct host_ctx *host) {
    const char *mounts = NULL;
    bool changed = true;
    char *fallback = NULL; /* <proc root>/mounts, for a proc tree without self/ */
    int err = host_read_mounts(host, MOUNTS_FILE_CAP, &mounts, &changed);
    if (err != 0 && err != ENOMEM) {
        size_t len = 0;
        err = host_read_file(host, "mounts", MOUNTS_FILE_CAP, &fallback, &len);
        mounts = fallback;
    }
    if (err == 0 && !changed && host->mounts.valid) {
        return NVT_OK;
    }
    /* The file system types only matter for what is mounted: read again with the mounts. */
    const char *filesystems = NULL;
    if (err == 0) {
        err = host_read_kept(host, HOST_FILE_FILESYSTEMS, MOUNTS_FILE_CAP, &filesystems);
    }
    /* Unreadable files list no mount; "/" is still reported. */
    bool ok = err != ENOMEM &&
              rebuild(&host->mounts, err == 0 ? mounts : "", err == 0 ? filesystems : "");
    free(fallback);
    return ok ? NVT_OK : NVT_ERR_NO_MEMORY;
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

static bool has_root(const struct nvt_disk_usage *usage, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(usage[i].mountpoint, "/") == 0) {
            return true;
        }
    }
    return false;
}

nvt_status nvt_host_disk_usage(nvt_context *ctx, struct nvt_disk_usage **out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    struct host_ctx *host = context_host(ctx);
    nvt_status status = current_mounts(host);
    const struct host_mounts *m = &host->mounts;
    if (status != NVT_OK || !m->valid) {
        return status;
    }
    /* One allocation: the entries (one more for "/"), then their strings. */
    size_t entries_size = (m->count + 1) * sizeof(struct nvt_disk_usage);
    struct nvt_disk_usage *result = malloc(entries_size + m->strings_len);
    if (result == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    char *base = (char *)result + entries_size;
    memcpy(base, m->strings, m->strings_len);
    size_t n = 0;
    for (size_t i = 0; i < m->count; i++) {
        struct nvt_disk_usage *u = &result[n];
        u->device = base + m->offsets[3 * i];
        u->mountpoint = base + m->offsets[3 * i + 1];
        u->fstype = base + m->offsets[3 * i + 2];
        if (usage_of(u->mountpoint, u)) {
            n++;
        }
    }
    if (!has_root(result, n)) {
        struct nvt_disk_usage *u = &result[n];
        u->device = base + m->root[0];
        u->mountpoint = base + m->root[1];
        u->fstype = base + m->root[2];
        if (usage_of("/", u)) {
            n++;
        }
    }
    if (n == 0) {
        free(result);
        return NVT_OK;
    }
    *out = result;
    *count = n;
    return NVT_OK;
}
