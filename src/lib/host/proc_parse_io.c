/* Parsers of the host I/O and cgroup proc files (proc_parse_io.h). */
#include "proc_parse_io.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/text/parse.h"
#include "util/text/str.h"

#define SECTOR_BYTES     512u /* /proc/diskstats counts 512-byte sectors, whatever the disk */
#define DISKSTATS_FIELDS 20   /* numbers kept per line (Linux 5.5 has 17, later ones may add) */
#define CONTAINER_ID_LEN 64   /* hex digits of a Docker/OCI container id */
#define SHORT_ID_LEN     12   /* the short form `docker ps` shows */
#define POD_UID_LEN      36   /* a Kubernetes pod UID: 8-4-4-4-12 hex digits */

bool proc_next_line(const char **cursor, char *line, size_t size, bool *too_long) {
    const char *start = *cursor;
    *too_long = false;
    if (start == NULL || *start == '\0' || size == 0) {
        return false;
    }
    const char *end = strchr(start, '\n');
    size_t len = end != NULL ? (size_t)(end - start) : strlen(start);
    *cursor = end != NULL ? end + 1 : start + len;
    if (len >= size) {
        *too_long = true;
        line[0] = '\0';
        return true;
    }
    memcpy(line, start, len);
    line[len] = '\0';
    return true;
}

/* Unsigned fields separated by blanks up to the end of the line; returns how many were read
 * (at most cap), or SIZE_MAX when a field is not a number. */
static size_t scan_fields(const char *cursor, uint64_t *fields, size_t cap) {
    size_t n = 0;
    for (;;) {
        while (*cursor == ' ' || *cursor == '\t') {
            cursor++;
        }
        if (*cursor == '\0') {
            return n;
        }
        uint64_t value = 0;
        if (parse_u64_field(&cursor, &value) != 0 ||
            (*cursor != '\0' && *cursor != ' ' && *cursor != '\t')) {
            return SIZE_MAX;
        }
        if (n < cap) {
            fields[n] = value;
        }
        n++;
    }
}

/* Copy the name between start and end (blanks trimmed) into out; false when empty or too long. */
static bool copy_name(const char *start, const char *end, char *out, size_t size) {
    while (start < end && (*start == ' ' || *start == '\t')) {
        start++;
    }
    while (end > start && (end[-1] == ' ' || end[-1] == '\t')) {
        end--;
    }
    size_t len = (size_t)(end - start);
    if (len == 0 || len >= size) {
        return false;
    }
    memcpy(out, start, len);
    out[len] = '\0';
    return true;
}

bool proc_parse_net_dev_line(const char *line, struct nvt_net_io *out) {
    /* The name ends at the last ':' before the numbers (alias names like "eth0:1" have one). */
    const char *colon = strrchr(line, ':');
    if (colon == NULL || strchr(line, '|') != NULL) {
        return false;
    }
    uint64_t f[16];
    size_t n = scan_fields(colon + 1, f, 16);
    if (n == SIZE_MAX || n < 10 ||
        !copy_name(line, colon, out->interface, sizeof(out->interface))) {
        return false;
    }
    out->bytes_recv = f[0];
    out->packets_recv = f[1];
    out->bytes_sent = f[8];
    out->packets_sent = f[9];
    return true;
}

/* Multiply a sector count by the sector size, saturating (a corrupt file must not wrap). */
static uint64_t sectors_to_bytes(uint64_t sectors) {
    return sectors > UINT64_MAX / SECTOR_BYTES ? UINT64_MAX : sectors * SECTOR_BYTES;
}

bool proc_parse_diskstats_line(const char *line, struct nvt_disk_io *out) {
    /* major minor name numbers... */
    const char *cursor = line;
    uint64_t major = 0;
    uint64_t minor = 0;
    if (parse_u64_field(&cursor, &major) != 0 || parse_u64_field(&cursor, &minor) != 0) {
        return false;
    }
    while (*cursor == ' ' || *cursor == '\t') {
        cursor++;
    }
    const char *name = cursor;
    while (*cursor != '\0' && *cursor != ' ' && *cursor != '\t') {
        cursor++;
    }
    if (!copy_name(name, cursor, out->device, sizeof(out->device))) {
        return false;
    }
    uint64_t f[DISKSTATS_FIELDS];
    size_t n = scan_fields(cursor, f, DISKSTATS_FIELDS);
    size_t total = n + 3; /* psutil counts major, minor and the name too */
    if (n == SIZE_MAX) {
        return false;
    }
    if (total == 14 || total >= 18) {
        /* reads, reads merged, sectors read, ms reading, writes, writes merged, sectors
         * written, ... */
        out->read_count = f[0];
        out->read_bytes = sectors_to_bytes(f[2]);
        out->write_count = f[4];
        out->write_bytes = sectors_to_bytes(f[6]);
        return true;
    }
    if (total == 7) {
        out->read_count = f[0];
        out->read_bytes = sectors_to_bytes(f[1]);
        out->write_count = f[2];
        out->write_bytes = sectors_to_bytes(f[3]);
        return true;
    }
    return false;
}

/* Decode the mount table's octal escapes in place (backslash and three octal digits). */
static void unescape_octal(char *text) {
    char *out = text;
    for (const char *in = text; *in != '\0'; in++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
            in[3] >= '0' && in[3] <= '7') {
            *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
}

/* Cut the next blank-separated field of *cursor in place; NULL when there is none. */
static char *cut_field(char **cursor) {
    char *p = *cursor;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (*p == '\0') {
        return NULL;
    }
    char *start = p;
    while (*p != '\0' && *p != ' ' && *p != '\t') {
        p++;
    }
    if (*p != '\0') {
        *p++ = '\0';
    }
    *cursor = p;
    return start;
}

bool proc_parse_mount_line(char *line, struct proc_mount *out) {
    char *cursor = line;
    char *device = cut_field(&cursor);
    char *mountpoint = cut_field(&cursor);
    char *fstype = cut_field(&cursor);
    if (device == NULL || mountpoint == NULL || fstype == NULL) {
        return false;
    }
    unescape_octal(device);
    unescape_octal(mountpoint);
    unescape_octal(fstype);
    out->device = device;
    out->mountpoint = mountpoint;
    out->fstype = fstype;
    return true;
}

bool proc_filesystems_is_physical(const char *filesystems_text, const char *fstype) {
    const char *cursor = filesystems_text;
    char line[256];
    bool too_long = false;
    while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
        char *p = line;
        char *first = cut_field(&p);
        if (first == NULL) {
            continue;
        }
        if (strcmp(first, "nodev") == 0) {
            const char *type = cut_field(&p);
            if (type != NULL && strcmp(type, "zfs") == 0 && strcmp(fstype, "zfs") == 0) {
                return true;
            }
        } else if (strcmp(first, fstype) == 0) {
            return true;
        }
    }
    return false;
}

/* Length of the run of hex digits at text. */
static size_t hex_run(const char *text) {
    size_t n = 0;
    while (isxdigit((unsigned char)text[n])) {
        n++;
    }
    return n;
}

/* The first run of exactly 64 hex digits in the path segment [start, end); NULL if none. */
static const char *find_container_id(const char *start, const char *end) {
    for (const char *p = start; p < end; p++) {
        if (p != start && isxdigit((unsigned char)p[-1])) {
            continue;
        }
        size_t run = hex_run(p);
        if (p + run <= end && run == CONTAINER_ID_LEN) {
            return p;
        }
    }
    return NULL;
}

/* A pod UID after "pod" in a segment ("pod<uid>" or "kubepods-besteffort-pod<uid>.slice", where
 * systemd writes '_' for '-'), normalised into uid; false if none. */
static bool find_pod_uid(const char *start, const char *end, char uid[POD_UID_LEN + 1]) {
    for (const char *p = start; p + 3 + POD_UID_LEN <= end; p++) {
        if (strncmp(p, "pod", 3) != 0) {
            continue;
        }
        const char *q = p + 3;
        bool ok = true;
        for (size_t i = 0; i < POD_UID_LEN && ok; i++) {
            char c = q[i];
            bool dash = i == 8 || i == 13 || i == 18 || i == 23;
            ok = dash ? (c == '-' || c == '_') : isxdigit((unsigned char)c) != 0;
            uid[i] = dash ? '-' : c;
        }
        if (ok) {
            uid[POD_UID_LEN] = '\0';
            return true;
        }
    }
    return false;
}

/* The container of one cgroup path, into buf; false when the path names none. */
static bool container_of_path(const char *path, char *buf, size_t size) {
    char pod[POD_UID_LEN + 1] = "";
    const char *id = NULL;
    const char *lxc = NULL;
    size_t lxc_len = 0;
    const char *segment = path;
    while (*segment != '\0') {
        const char *end = strchr(segment, '/');
        if (end == NULL) {
            end = segment + strlen(segment);
        }
        const char *found = find_container_id(segment, end);
        if (found != NULL) {
            id = found;
        }
        if (pod[0] == '\0' && strstr(path, "kubepods") != NULL) {
            find_pod_uid(segment, end, pod);
        }
        if (str_starts_with(segment, "lxc.payload.")) {
            lxc = segment + strlen("lxc.payload.");
            lxc_len = (size_t)(end - lxc);
        } else if ((size_t)(end - segment) == 3 && strncmp(segment, "lxc", 3) == 0 && *end == '/') {
            lxc = end + 1;
            const char *lxc_end = strchr(lxc, '/');
            lxc_len = lxc_end != NULL ? (size_t)(lxc_end - lxc) : strlen(lxc);
        }
        segment = *end == '/' ? end + 1 : end;
    }
    if (pod[0] != '\0') {
        if (id != NULL) {
            snprintf(buf, size, "%s/%.*s", pod, SHORT_ID_LEN, id);
        } else {
            snprintf(buf, size, "%s", pod);
        }
        return true;
    }
    if (id != NULL) {
        snprintf(buf, size, "%.*s", SHORT_ID_LEN, id);
        return true;
    }
    if (lxc != NULL && lxc_len > 0) {
        snprintf(buf, size, "lxc/%.*s", (int)lxc_len, lxc);
        return true;
    }
    return false;
}

void proc_parse_cgroup_container(const char *text, char *buf, size_t size) {
    buf[0] = '\0';
    const char *cursor = text;
    char line[4096];
    bool too_long = false;
    while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
        /* hierarchy-id:controllers:path; the path may itself contain ':' */
        const char *first = strchr(line, ':');
        const char *second = first != NULL ? strchr(first + 1, ':') : NULL;
        if (second != NULL && container_of_path(second + 1, buf, size)) {
            return;
        }
    }
}
