/* System-wide host metrics from the proc file system, with psutil's definitions
 * (docs/nvitop-behaviour.md §5.6.4). */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <nvitop/format.h>

#include "host.h"
#include "linux_internal.h"
#include "util/sys/clock.h"
#include "util/sys/file.h"
#include "util/text/str.h"

/* Caps on what we read: generous for the real files (/proc/stat carries one "intr" number per
 * interrupt line, tens of KiB on big machines), small enough to bound a corrupt fixture. */
#define STAT_FILE_CAP     (16u << 20)
#define SMALL_FILE_CAP    4096 /* loadavg, uptime, hostname */
#define INITIAL_CPU_SLOTS 64

nvt_status host_open(const char *proc_root, struct host_ctx **out) {
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_ctx *host = calloc(1, sizeof(*host));
    if (host == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    host->proc_root = strdup(proc_root != NULL ? proc_root : "/proc");
    if (host->proc_root == NULL) {
        free(host);
        return NVT_ERR_NO_MEMORY;
    }
    /* A missing proc root is not an error here: every value reads as N/A later. */
    host->root_fd = open(host->proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    host->clock_ticks = sysconf(_SC_CLK_TCK);
    if (host->clock_ticks <= 0) {
        host->clock_ticks = 100;
    }
    host->identity_ttl_s = HOST_IDENTITY_TTL_S;
    pid_cache_init(&host->pids);
    host->page_size = sysconf(_SC_PAGESIZE);
    if (host->page_size <= 0) {
        host->page_size = 4096;
    }
    host->boot_time = NAN;
    host->memory_total = NVT_NA_U64;
    host->nested_namespace = -1;
    for (size_t i = 0; i < HOST_FILE_COUNT; i++) {
        host->files[i].fd = -1;
    }
    *out = host;
    return NVT_OK;
}

void host_set_command_only(struct host_ctx *host, bool command_only) {
    if (host != NULL) {
        host->command_only = command_only;
    }
}

void host_close(struct host_ctx *host) {
    if (host == NULL) {
        return;
    }
    if (host->root_fd >= 0) {
        close(host->root_fd);
    }
    free(host->proc_root);
    free(host->previous_per_cpu);
    free(host->scratch_per_cpu);
    pid_cache_fini(&host->pids);
    users_fini(&host->users);
    for (size_t i = 0; i < HOST_FILE_COUNT; i++) {
        if (host->files[i].fd >= 0) {
            close(host->files[i].fd);
        }
        free(host->files[i].buf);
    }
    host_mounts_fini(&host->mounts);
    free(host);
}

uint32_t host_cpu_count(const struct host_ctx *host) {
    return host != NULL ? host->cpu_count : 0;
}

int host_read_file(const struct host_ctx *host, const char *path, size_t cap, char **out,
                   size_t *len) {
    if (host->root_fd < 0) {
        return ENOENT;
    }
    return file_read_at(host->root_fd, path, cap, out, len);
}

int host_read_kept(struct host_ctx *host, enum host_file which, size_t cap, const char **text) {
    static const char *const paths[HOST_FILE_COUNT] = {
        [HOST_FILE_STAT] = "stat",
        [HOST_FILE_MEMINFO] = "meminfo",
        [HOST_FILE_LOADAVG] = "loadavg",
        [HOST_FILE_UPTIME] = "uptime",
        [HOST_FILE_HOSTNAME] = "sys/kernel/hostname",
        [HOST_FILE_NET_DEV] = "net/dev",
        [HOST_FILE_DISKSTATS] = "diskstats",
        [HOST_FILE_MOUNTS] = "self/mounts",
        [HOST_FILE_FILESYSTEMS] = "filesystems",
    };
    *text = NULL;
    if (host->root_fd < 0) {
        return ENOENT;
    }
    struct host_kept_file *file = &host->files[which];
    file->valid = false;
    size_t len = 0;
    int err = EBADF;
    if (file->fd >= 0) {
        err = file_reread_grow(file->fd, cap, &file->buf, &file->size, &len);
        if (err != 0 && err != ENOMEM) {
            /* Gone or replaced (a fixture tree rewritten): open it again below. */
            close(file->fd);
            file->fd = -1;
        }
    }
    if (file->fd < 0) {
        file->fd = openat(host->root_fd, paths[which], O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (file->fd < 0) {
            return errno;
        }
        struct statfs fs;
        file->on_procfs = fstatfs(file->fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
        err = file_reread_grow(file->fd, cap, &file->buf, &file->size, &len);
    }
    if (err == 0) {
        file->valid = true;
        *text = file->buf;
    }
    return err;
}

int host_read_mounts(struct host_ctx *host, size_t cap, const char **text, bool *changed) {
    struct host_kept_file *file = &host->files[HOST_FILE_MOUNTS];
    if (file->fd >= 0 && file->valid && file->on_procfs) {
        /* The kernel's generated text can only change with the mount table, which poll(2)
         * signals: on a machine with hundreds of mounts (a Kubernetes node) generating it is
         * most of the cost of nvt_host_disk_usage(). */
        struct pollfd pfd = {.fd = file->fd, .events = POLLPRI};
        if (poll(&pfd, 1, 0) == 0) { /* neither POLLPRI nor POLLERR: no change */
            *text = file->buf;
            *changed = false;
            return 0;
        }
    }
    *changed = true;
    return host_read_kept(host, HOST_FILE_MOUNTS, cap, text);
}

/* psutil's percentage between two CPU readings: field-wise deltas (never negative, a CPU that
 * went offline and back restarts its counters), busy over total, rounded to one decimal. */
static double busy_percent(const struct proc_cpu_times *before, const struct proc_cpu_times *now) {
    const uint64_t *b = &before->user;
    const uint64_t *n = &now->user;
    struct proc_cpu_times delta;
    uint64_t *d = &delta.user;
    for (size_t i = 0; i < sizeof(delta) / sizeof(uint64_t); i++) {
        d[i] = n[i] > b[i] ? n[i] - b[i] : 0;
    }
    double total = proc_cpu_total(&delta);
    if (total <= 0.0) {
        return 0.0;
    }
    double percent = proc_cpu_busy(&delta) / total * 100.0;
    percent = percent < 0.0 ? 0.0 : (percent > 100.0 ? 100.0 : percent);
    return nvt_round_half_even_digits(percent, 1);
}

static bool ensure_cpu_slots(struct host_ctx *host, uint32_t count) {
    if (count <= host->per_cpu_capacity) {
        return true;
    }
    uint32_t capacity = count < INITIAL_CPU_SLOTS ? INITIAL_CPU_SLOTS : count;
    struct proc_cpu_times *scratch = calloc(capacity, sizeof(*scratch));
    struct proc_cpu_times *previous = calloc(capacity, sizeof(*previous));
    if (scratch == NULL || previous == NULL) {
        free(scratch);
        free(previous);
        return false;
    }
    if (host->previous_per_cpu != NULL) {
        memcpy(previous, host->previous_per_cpu,
               host->previous_cpu_count * sizeof(struct proc_cpu_times));
    }
    free(host->scratch_per_cpu);
    free(host->previous_per_cpu);
    host->scratch_per_cpu = scratch;
    host->previous_per_cpu = previous;
    host->per_cpu_capacity = capacity;
    return true;
}

static void sample_cpu(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                       uint32_t per_cpu_cap) {
    const char *text = NULL;
    if (host_read_kept(host, HOST_FILE_STAT, STAT_FILE_CAP, &text) != 0) {
        return;
    }
    struct proc_stat stat;
    proc_parse_stat(text, &stat, host->scratch_per_cpu, host->per_cpu_capacity);
    if (stat.cpu_count > host->per_cpu_capacity) {
        if (!ensure_cpu_slots(host, stat.cpu_count)) {
            /* Without memory for per-CPU history, report the total only. */
            stat.cpu_count = host->per_cpu_capacity;
        }
        proc_parse_stat(text, &stat, host->scratch_per_cpu, host->per_cpu_capacity);
        stat.cpu_count =
            stat.cpu_count < host->per_cpu_capacity ? stat.cpu_count : host->per_cpu_capacity;
    }
    if (stat.has_boot_time) {
        host->boot_time = (double)stat.boot_time;
    }
    if (!stat.has_total) {
        return;
    }
    /* The first sample measures since boot: the previous reading counts as all zeros. */
    static const struct proc_cpu_times zero;
    bool have_previous = host->have_previous_cpu;
    out->cpu_percent = busy_percent(have_previous ? &host->previous_total : &zero, &stat.total);
    bool same_cpus = have_previous && host->previous_cpu_count == stat.cpu_count;
    for (uint32_t i = 0; i < stat.cpu_count && i < per_cpu_cap; i++) {
        per_cpu[i] =
            busy_percent(same_cpus ? &host->previous_per_cpu[i] : &zero, &host->scratch_per_cpu[i]);
    }
    out->cpu_count = stat.cpu_count < per_cpu_cap ? stat.cpu_count : per_cpu_cap;
    host->cpu_count = stat.cpu_count;
    host->previous_total = stat.total;
    host->have_previous_cpu = true;
    /* Swap the buffers: this reading becomes the previous one. */
    struct proc_cpu_times *swap = host->previous_per_cpu;
    host->previous_per_cpu = host->scratch_per_cpu;
    host->scratch_per_cpu = swap;
    host->previous_cpu_count = stat.cpu_count;
}

static void sample_loadavg(struct host_ctx *host, struct nvt_host_state *out) {
    const char *text = NULL;
    double load[3];
    if (host_read_kept(host, HOST_FILE_LOADAVG, SMALL_FILE_CAP, &text) == 0 &&
        proc_parse_loadavg(text, load)) {
        out->load_1m = load[0];
        out->load_5m = load[1];
        out->load_15m = load[2];
    }
}

/* Seconds since boot from /proc/uptime; NaN when unreadable. */
static double read_uptime(struct host_ctx *host) {
    const char *text = NULL;
    double uptime = NAN;
    if (host_read_kept(host, HOST_FILE_UPTIME, SMALL_FILE_CAP, &text) != 0 ||
        !proc_parse_uptime(text, &uptime)) {
        return NAN;
    }
    return uptime;
}

double host_boot_time(struct host_ctx *host) {
    if (isnan(host->boot_time)) {
        char *text = NULL;
        size_t len = 0;
        if (host_read_file(host, "stat", STAT_FILE_CAP, &text, &len) == 0) {
            struct proc_stat stat;
            proc_parse_stat(text, &stat, NULL, 0);
            if (stat.has_boot_time) {
                host->boot_time = (double)stat.boot_time;
            }
            free(text);
        }
    }
    return host->boot_time;
}

/*
 * The host name: <proc root>/sys/kernel/hostname, which is the UTS node name on a real system and
 * lets fixture trees fix it; uname() when that file is missing.
 */
static void sample_hostname(struct host_ctx *host, struct nvt_host_state *out) {
    const char *text = NULL;
    if (host_read_kept(host, HOST_FILE_HOSTNAME, SMALL_FILE_CAP, &text) == 0) {
        size_t len = strcspn(text, "\n");
        if (len > 0 && len < sizeof(out->hostname)) {
            memcpy(out->hostname, text, len);
            out->hostname[len] = '\0';
            return;
        }
    }
    struct utsname uts;
    if (uname(&uts) == 0) {
        str_copy(out->hostname, sizeof(out->hostname), uts.nodename);
    }
}

nvt_status host_sample(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                       uint32_t per_cpu_cap) {
    if (host == NULL || out == NULL || (per_cpu == NULL && per_cpu_cap > 0)) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    host_state_init_na(out);
    if (host->per_cpu_capacity == 0) {
        /* Failing here only costs the per-CPU figures; sample_cpu copes with no slots. */
        ensure_cpu_slots(host, INITIAL_CPU_SLOTS);
    }
    sample_cpu(host, out, per_cpu, per_cpu_cap);
    host_memory_sample(host, out);
    sample_loadavg(host, out);
    out->uptime_s = read_uptime(host);
    out->boot_time = host->boot_time;
    sample_hostname(host, out);
    return NVT_OK;
}
