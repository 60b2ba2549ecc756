/* The host side of the public process API (include/nvitop/process.h) on Linux. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nvitop/process.h>

#include "host.h"
#include "internal.h"
#include "linux_internal.h"
#include "util/sys/file.h"
#include "util/text/parse.h"

/* A few MiB of environment is already extreme. */
#define ENVIRON_CAP (16u << 20)
/* Two create times denote the same process when they differ by less than this
 * (docs/nvitop-behaviour.md §3.7). */
#define IDENTITY_TOLERANCE_S 0.01

static nvt_status status_of_errno(int err) {
    switch (err) {
    case 0:
        return NVT_OK;
    case ENOENT:
    case ESRCH:
        return NVT_ERR_NO_SUCH_PROCESS;
    case EACCES:
    case EPERM:
        return NVT_ERR_NO_PERMISSION;
    case ENOMEM:
        return NVT_ERR_NO_MEMORY;
    default:
        return NVT_ERR_IO;
    }
}

/* psutil's parse_environ_block: NUL-terminated "NAME=value" entries up to the first empty one;
 * entries without a name before '=' are skipped, an unterminated tail is ignored. */
static size_t environ_entries(char *data, size_t len, char **entries) {
    size_t count = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *nul = memchr(data + pos, '\0', len - pos);
        if (nul == NULL || nul == data + pos) {
            break;
        }
        const char *eq = strchr(data + pos, '=');
        if (eq != NULL && eq > data + pos) {
            if (entries != NULL) {
                entries[count] = data + pos;
            }
            count++;
        }
        pos = (size_t)(nul - data) + 1;
    }
    return count;
}

/*
 * Open <proc root>/<pid> for the calls that read one more file of a process.  Reads through the
 * directory descriptor all come from the process it was opened for (those of an exited one fail,
 * even when the pid has been reused), and its start time is checked against the process this
 * context last read under that pid (a snapshot or nvt_host_process_read): a pid now used by
 * another process answers NVT_ERR_NO_SUCH_PROCESS, as nvt_process_signal does.  -1 on failure
 * with *status set.
 */
static int open_same_process(struct host_ctx *host, uint32_t pid, nvt_status *status) {
    char name[16];
    snprintf(name, sizeof(name), "%" PRIu32, pid);
    int dir_fd =
        host->root_fd >= 0 ? openat(host->root_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dir_fd < 0) {
        *status = host->root_fd >= 0 ? status_of_errno(errno) : NVT_ERR_NO_SUCH_PROCESS;
        return -1;
    }
    const struct pid_cache_entry *known = pid_cache_find_pid(&host->pids, pid);
    if (known != NULL) {
        char buf[4096];
        struct proc_pid_stat st;
        int err = file_read_into(dir_fd, "stat", buf, sizeof(buf), NULL);
        if (err != 0 && err != EFBIG) {
            *status = status_of_errno(err);
        } else if (!proc_parse_pid_stat(buf, &st) || st.start_ticks != known->start_ticks) {
            *status = NVT_ERR_NO_SUCH_PROCESS;
        } else {
            *status = NVT_OK;
        }
        if (*status != NVT_OK) {
            close(dir_fd);
            return -1;
        }
    }
    *status = NVT_OK;
    return dir_fd;
}

nvt_status nvt_host_process_environ(nvt_context *ctx, uint32_t pid, char ***out, size_t *count) {
    if (ctx == NULL || out == NULL || count == NULL || pid == 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    *count = 0;
    nvt_status st = NVT_OK;
    int dir_fd = open_same_process(context_host(ctx), pid, &st);
    if (dir_fd < 0) {
        return st;
    }
    char *data = NULL;
    size_t len = 0;
    int err = file_read_at(dir_fd, "environ", ENVIRON_CAP, &data, &len);
    close(dir_fd);
    if (err != 0) {
        return status_of_errno(err);
    }
    size_t n = environ_entries(data, len, NULL);
    size_t pointers = (n + 1) * sizeof(char *);
    char **block = malloc(pointers + len + 1);
    if (block == NULL) {
        free(data);
        return NVT_ERR_NO_MEMORY;
    }
    char *strings = (char *)block + pointers;
    memcpy(strings, data, len + 1);
    free(data);
    environ_entries(strings, len, block);
    block[n] = NULL;
    *out = block;
    *count = n;
    return NVT_OK;
}

nvt_status nvt_host_process_cwd(nvt_context *ctx, uint32_t pid, char *buf, size_t size) {
    if (ctx == NULL || buf == NULL || size == 0 || pid == 0) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    buf[0] = '\0';
    nvt_status st = NVT_OK;
    int dir_fd = open_same_process(context_host(ctx), pid, &st);
    if (dir_fd < 0) {
        return st;
    }
    char link[4096];
    ssize_t n = readlinkat(dir_fd, "cwd", link, sizeof(link) - 1);
    int err = n < 0 ? errno : 0;
    close(dir_fd);
    if (n < 0) {
        return status_of_errno(err);
    }
    link[n] = '\0';
    snprintf(buf, size, "%s", link);
    return NVT_OK;
}

/* Create time of pid from <proc root>/<pid>/stat; NVT_ERR_NO_SUCH_PROCESS when it is gone. */
static nvt_status read_create_time(struct host_ctx *host, uint32_t pid, double *create_time) {
    char path[32];
    snprintf(path, sizeof(path), "%" PRIu32 "/stat", pid);
    char *text = NULL;
    size_t len = 0;
    int err = host_read_file(host, path, 4096, &text, &len);
    if (err != 0) {
        return err == EACCES || err == EPERM ? NVT_ERR_NO_PERMISSION : NVT_ERR_NO_SUCH_PROCESS;
    }
    struct proc_pid_stat st;
    bool ok = proc_parse_pid_stat(text, &st);
    free(text);
    double boot = host_boot_time(host);
    if (!ok || isnan(boot)) {
        return NVT_ERR_NO_SUCH_PROCESS;
    }
    *create_time = boot + (double)st.start_ticks / (double)host->clock_ticks;
    return NVT_OK;
}

/* What a failed kill(2) or pidfd_send_signal(2) means. */
static nvt_status signal_error(int err) {
    return err == EINVAL ? NVT_ERR_INVALID_ARGUMENT : status_of_errno(err);
}

nvt_status nvt_process_signal(nvt_context *ctx, uint32_t pid, double create_time,
                              int signal_number) {
    /* pid 0 and "negative" pids would signal process groups or everyone. */
    if (ctx == NULL || pid == 0 || pid > INT32_MAX || isnan(create_time)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    struct host_ctx *host = context_host(ctx);
#ifdef SYS_pidfd_open
    /* A pidfd pins the process: checked through it, the identity cannot change under us. */
    int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (pidfd < 0 && errno == ESRCH) {
        return NVT_ERR_NO_SUCH_PROCESS;
    }
    if (pidfd >= 0) {
        double seen = NAN;
        nvt_status st = read_create_time(host, pid, &seen);
        if (st == NVT_OK && fabs(seen - create_time) >= IDENTITY_TOLERANCE_S) {
            st = NVT_ERR_NO_SUCH_PROCESS;
        }
        if (st == NVT_OK) {
            if (syscall(SYS_pidfd_send_signal, pidfd, signal_number, NULL, 0) != 0) {
                st = signal_error(errno);
            }
        }
        close(pidfd);
        return st;
    }
#endif
    /* Without pidfds (old kernels), re-read the identity right before kill(2). */
    double seen = NAN;
    nvt_status st = read_create_time(host, pid, &seen);
    if (st != NVT_OK) {
        return st;
    }
    if (fabs(seen - create_time) >= IDENTITY_TOLERANCE_S) {
        return NVT_ERR_NO_SUCH_PROCESS;
    }
    if (kill((pid_t)pid, signal_number) != 0) {
        return signal_error(errno);
    }
    return NVT_OK;
}

struct pid_pair {
    uint32_t pid;
    uint32_t ppid;
};

/* Append one pair, doubling the array as needed; false when out of memory. */
static bool push_pair(struct pid_pair **pairs, size_t *count, size_t *capacity,
                      struct pid_pair pair) {
    if (*count == *capacity) {
        size_t grown = *capacity == 0 ? 256 : *capacity * 2;
        struct pid_pair *bigger = realloc(*pairs, grown * sizeof(*bigger));
        if (bigger == NULL) {
            return false;
        }
        *pairs = bigger;
        *capacity = grown;
    }
    (*pairs)[(*count)++] = pair;
    return true;
}

static nvt_status collect_pairs(struct host_ctx *host, struct pid_pair **pairs, size_t *count) {
    int fd =
        host->root_fd >= 0 ? openat(host->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (dir == NULL) {
        int err = errno;
        if (fd >= 0) {
            close(fd);
        }
        return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_ERR_IO; /* fdopendir allocates */
    }
    size_t capacity = 0;
    nvt_status st = NVT_OK;
    /* The stats the last map remembered are this map's to replace (pass_stat.c). */
    pass_stat_clear(&host->pids);
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        uint32_t pid = 0;
        if (parse_u32(e->d_name, 10, &pid) != 0 || pid == 0) {
            continue;
        }
        uint32_t ppid = 0;
        /* Processes exit while we walk the directory: skip whatever cannot be read. */
        if (!pass_stat_read_ppid(host, pid, &ppid)) {
            continue;
        }
        if (!push_pair(pairs, count, &capacity, (struct pid_pair){pid, ppid})) {
            st = NVT_ERR_NO_MEMORY;
            break;
        }
    }
    closedir(dir);
    return st;
}

nvt_status nvt_host_ppid_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids, size_t *count) {
    if (ctx == NULL || pids == NULL || ppids == NULL || count == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *pids = NULL;
    *ppids = NULL;
    *count = 0;
    struct pid_pair *pairs = NULL;
    size_t n = 0;
    nvt_status st = collect_pairs(context_host(ctx), &pairs, &n);
    if (st != NVT_OK) {
        free(pairs);
        return st;
    }
    /* One allocation: pids then ppids, so that free(*pids) releases both. */
    uint32_t *block = malloc((n > 0 ? n : 1) * 2 * sizeof(uint32_t));
    if (block == NULL) {
        free(pairs);
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        block[i] = pairs[i].pid;
        block[n + i] = pairs[i].ppid;
    }
    free(pairs);
    *pids = block;
    *ppids = block + n;
    *count = n;
    return NVT_OK;
}
