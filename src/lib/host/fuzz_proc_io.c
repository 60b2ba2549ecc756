/*
 * libFuzzer target for the host I/O and cgroup parsers (proc_parse_io.h): the first byte chooses
 * the parser, the rest is the file's text, parsed line by line as the readers do.  Whatever the
 * bytes, the parsers must neither crash nor read or write out of bounds, and every string they
 * return must be terminated within its buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc_parse_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_terminated(const char *text, size_t size) {
    if (memchr(text, '\0', size) == NULL) {
        abort();
    }
}

static void parse_line(unsigned which, char *line) {
    struct nvt_net_io net;
    struct nvt_disk_io disk;
    struct proc_mount mount;
    switch (which) {
    case 0:
        if (proc_parse_net_dev_line(line, &net)) {
            check_terminated(net.interface, sizeof(net.interface));
        }
        break;
    case 1:
        if (proc_parse_diskstats_line(line, &disk)) {
            check_terminated(disk.device, sizeof(disk.device));
        }
        break;
    default:
        if (proc_parse_mount_line(line, &mount)) {
            /* The fields are cut in place: they must lie inside the line. */
            const char *end = line + 256;
            if (mount.device < line || mount.mountpoint >= end || mount.fstype >= end) {
                abort();
            }
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    char *text = malloc(size);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    unsigned which = data[0] % 5;
    if (which == 3) {
        char buf[40];
        proc_parse_cgroup_container(text, buf, sizeof(buf));
        check_terminated(buf, sizeof(buf));
    } else if (which == 4) {
        (void)proc_filesystems_is_physical(text, "ext4");
    } else {
        const char *cursor = text;
        char line[256];
        bool too_long = false;
        while (proc_next_line(&cursor, line, sizeof(line), &too_long)) {
            if (!too_long) {
                parse_line(which, line);
            }
        }
    }
    free(text);
    return 0;
}
