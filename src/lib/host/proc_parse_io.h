/*
 * Parsers for the proc files of host I/O and containers: /proc/net/dev, /proc/diskstats, the mount
 * table (/proc/self/mounts), /proc/filesystems and /proc/<pid>/cgroup.  Like proc_parse.h they
 * never allocate and accept any bytes: a line they cannot parse is reported as such, never
 * guessed.  Each line parser takes one line without its newline, NUL-terminated.  Pure and
 * thread-safe.
 */
#ifndef NVITOP_SRC_LIB_HOST_PROC_PARSE_IO_H
#define NVITOP_SRC_LIB_HOST_PROC_PARSE_IO_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/host.h>

/* The line of text starting at *cursor, copied without its newline into line (size bytes, NUL
 * terminated); *cursor moves past the newline.  Returns false at the end of the text.  A line
 * longer than size - 1 bytes is skipped whole (*too_long set), so that it is never parsed cut. */
bool proc_next_line(const char **cursor, char *line, size_t size, bool *too_long);

/* One interface line of /proc/net/dev ("  eth0: 123 4 0 0 0 0 0 0 567 8 ..."); false for the two
 * header lines and anything malformed. */
bool proc_parse_net_dev_line(const char *line, struct nvt_net_io *out);

/* One line of /proc/diskstats, with psutil's field layouts: 14 or at least 18 fields (Linux 2.6
 * and later), or 7 (old partition lines); sectors are 512 bytes.  False otherwise. */
bool proc_parse_diskstats_line(const char *line, struct nvt_disk_io *out);

/* One mount table line "device mountpoint fstype options freq passno": the first three fields
 * are cut in place and their octal escapes (\040 for a space, \011, \012, \134) decoded, as
 * getmntent(3) does; the pointers point into line.  False when a field is missing. */
struct proc_mount {
    const char *device;
    const char *mountpoint;
    const char *fstype;
};
bool proc_parse_mount_line(char *line, struct proc_mount *out);

/* Whether /proc/filesystems lists fstype as device-backed (a line without "nodev"), or fstype is
 * zfs listed as nodev: psutil's rule for the partitions of disk_partitions(all=False). */
bool proc_filesystems_is_physical(const char *filesystems_text, const char *fstype);

/* The container named by the text of /proc/<pid>/cgroup, as nvt_host_process_container()
 * describes it, into buf (size bytes, at least 1); "" when none. */
void proc_parse_cgroup_container(const char *text, char *buf, size_t size);

#endif /* NVITOP_SRC_LIB_HOST_PROC_PARSE_IO_H */
