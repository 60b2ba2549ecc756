/* Whether we run in a nested PID namespace (a container without --pid=host), where host PIDs
 * reported by the driver may have no /proc entry for us. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "linux_internal.h"

#define STATUS_CAP (64u << 10)

/* The inode of the initial PID namespace (PROC_PID_INIT_INO in the kernel, stable ABI). */
#define INITIAL_PID_NAMESPACE_INODE 4026531836ULL

/* The inode of a PID namespace link such as "pid:[4026531836]"; 0 when unreadable. */
static unsigned long long namespace_inode(const struct host_ctx *host, const char *path) {
    char link[64];
    ssize_t n = readlinkat(host->root_fd, path, link, sizeof(link) - 1);
    if (n <= 0) {
        return 0;
    }
    link[n] = '\0';
    unsigned long long inode = 0;
    if (sscanf(link, "pid:[%llu]", &inode) != 1) {
        return 0;
    }
    return inode;
}

static int detect_nested_namespace(const struct host_ctx *host) {
    if (host->root_fd < 0) {
        return 0;
    }
    /* Seen from a proc mounted in an outer namespace, NSpid lists one pid per level. */
    char *text = NULL;
    size_t len = 0;
    if (host_read_file(host, "self/status", STATUS_CAP, &text, &len) == 0) {
        struct proc_pid_status status;
        proc_parse_pid_status(text, &status);
        free(text);
        if (status.nspid_count > 1) {
            return 1;
        }
    }
    /* A container with its own proc shows one NSpid entry, but its namespace inode differs from
     * the initial namespace's fixed one. */
    unsigned long long self = namespace_inode(host, "self/ns/pid");
    unsigned long long init = namespace_inode(host, "1/ns/pid");
    if (self != 0 && (self != INITIAL_PID_NAMESPACE_INODE || (init != 0 && init != self))) {
        return 1;
    }
    return 0;
}

bool host_in_nested_pid_namespace(struct host_ctx *host) {
    if (host->nested_namespace < 0) {
        host->nested_namespace = detect_nested_namespace(host);
    }
    return host->nested_namespace == 1;
}
