/* One process from /proc/<pid>/{stat,status,cmdline}, every file of the same process even if its
 * pid is recycled meanwhile (read_new_process() says how).  A process read in the last two passes,
 * whose status and cmdline are younger than host->identity_ttl_s, is read from its stat file
 * alone (or its schedstat, while it has not run: quiet_stat.c): the pid cache keeps the rest, keyed
 * by pid and start time, with the strings made from it (process_strings.c), which every reading
 * shares.  The resident set is status's VmRSS, psutil's figure (statm's), so statm is read only for
 * a process whose status has none, or when stat's count moved between readings of status. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/format.h>

#include "host.h"
#include "linux_internal.h"
#include "util/sys/clock.h"
#include "util/sys/file.h"
#include "util/text/str.h"

#define STAT_BUF_SIZE 4096
/* Seven numbers of at most 20 digits. */
#define STATM_BUF_SIZE 160
#define STATUS_CAP     (64u << 10)
#define STATUS_GUESS   4096
/* ARG_MAX-sized command lines exist (a few MiB); anything larger is not a real command line. */
#define CMDLINE_CAP   (16u << 20)
#define CMDLINE_GUESS 4096
/* The kernel's PF_KTHREAD flag in the flags field of /proc/<pid>/stat. */
#define PF_KTHREAD 0x00200000u
/* No stat count a reading's stat_rss_pages could equal. */
#define UNPAIRED_RSS UINT64_MAX
/* "<pid>/" and a file name in it: the path of a process file under the proc root. */
#define DIR_SIZE  16
#define PATH_SIZE 32

/* "<pid>/" into dir (DIR_SIZE bytes), without the cost of parsing a format. */
static void pid_dir(char *dir, uint32_t pid) {
    size_t len = str_u64(dir, DIR_SIZE - 1, pid);
    dir[len] = '/';
    dir[len + 1] = '\0';
}

/* dir ("<pid>/") then file into path (PATH_SIZE bytes); path. */
static const char *dir_file(char *path, const char *dir, const char *file) {
    str_copy(path, PATH_SIZE, dir);
    str_append(path, PATH_SIZE, file);
    return path;
}

static void set_strings(struct host_process *p) {
    p->pub.user = p->user != NULL ? p->user : "";
    p->pub.name = p->name != NULL ? p->name : "";
    p->pub.command = p->command != NULL ? p->command : "";
    p->pub.cmdline = (const char *const *)p->cmdline;
}

static void init_process(struct host_process *p, uint32_t pid, enum nvt_host_status status) {
    memset(p, 0, sizeof(*p));
    host_process_init_na(&p->pub, pid, status);
}

void host_process_fini(struct host_process *p) {
    if (p == NULL) {
        return;
    }
    if (p->shared != NULL) {
        process_strings_unref(p->shared);
    } else {
        free(p->user);
        free(p->name);
        free(p->command);
        free(p->cmdline);
    }
    init_process(p, p->pub.pid, p->pub.status);
}

void host_generation_end(struct host_ctx *host) {
    if (host != NULL) {
        pass_stat_clear(&host->pids);
        pid_cache_rotate(&host->pids);
    }
}

/* How a failed read of a process file shows in the status. */
enum nvt_host_status host_status_of_errno(int err) {
    return err == EACCES || err == EPERM ? NVT_HOST_NO_PERMISSION : NVT_HOST_GONE;
}

/* CPU percentage against the previous reading of the same process, 0.0 on the first reading (as
 * nvitop shows a process it has just met: psutil measures from its first call, not from the
 * process's start); the reading (its stat read at now, clock_monotonic_s()) is kept with identity
 * (taken, NULL for none).  False when out of memory. */
static bool measure_cpu(struct host_ctx *host, struct host_process *p,
                        const struct proc_pid_stat *st, struct process_identity *identity,
                        double now) {
    double ticks = (double)host->clock_ticks;
    /* Saturate rather than wrap on absurd counters. */
    uint64_t cpu_ticks = st->utime_ticks <= UINT64_MAX - st->stime_ticks
                             ? st->utime_ticks + st->stime_ticks
                             : UINT64_MAX;
    struct pid_cache_entry *previous = pid_cache_find(&host->pids, p->pub.pid, st->start_ticks);
    double percent = NAN;
    if (previous != NULL) {
        if (previous->identity != identity) {
            /* The same process: its kept files stay open for the new identity. */
            if (identity != NULL && previous->identity != NULL) {
                process_identity_move_kept(identity, previous->identity);
            }
            process_identity_free(&host->pids, previous->identity);
        }
        previous->identity = NULL;
        double elapsed = now - previous->monotonic_s;
        double used = cpu_ticks >= previous->cpu_ticks
                          ? (double)(cpu_ticks - previous->cpu_ticks) / ticks
                          : 0.0;
        percent = elapsed > 0.0 ? used / elapsed * 100.0 : 0.0;
    } else {
        percent = 0.0;
        p->cpu_percent_first = true;
    }
    p->pub.cpu_percent = isnan(percent) ? NAN : nvt_round_half_even_digits(percent, 1);
    struct pid_cache_entry entry = {.pid = p->pub.pid,
                                    .start_ticks = st->start_ticks,
                                    .cpu_ticks = cpu_ticks,
                                    .monotonic_s = now,
                                    .identity = identity};
    return pid_cache_store(&host->pids, &entry);
}

/* The resident set as psutil reads it (statm's second field) in place of stat's count, remembered
 * with that count in the identity: from statm's text when given (not NULL), else from status, the
 * one read with the identity (VmRSS, the same figure in KiB).  Nothing changes where neither has
 * it. */
static void take_resident(const struct host_ctx *host, struct process_identity *identity,
                          const char *statm, const struct proc_pid_status *status,
                          struct proc_pid_stat *st) {
    uint64_t resident = 0;
    uint64_t page_kib = (uint64_t)host->page_size / 1024;
    if (statm != NULL) {
        if (!proc_parse_pid_statm_resident(statm, &resident)) {
            return;
        }
    } else if (status->has_rss && page_kib > 0) {
        resident = status->rss_kib / page_kib;
    } else {
        return;
    }
    identity->have_resident = true;
    identity->stat_rss_pages = st->rss_pages;
    identity->resident_pages = resident;
    st->rss_pages = resident;
}

/* How long this process's status and cmdline are used: HOST_IDENTITY_TTL_S spread over half to
 * one and a half times by a hash of the pid (Knuth's multiplicative one). */
static double identity_ttl(const struct host_ctx *host, uint32_t pid) {
    uint32_t spread = (pid * UINT32_C(2654435761)) >> 22; /* 0 .. 1023 */
    return host->identity_ttl_s * (0.5 + (double)spread / 1024.0);
}

static void fill_from_stat(struct host_ctx *host, struct host_process *p,
                           const struct proc_pid_stat *st) {
    p->pub.state = st->state;
    p->pub.ppid = st->ppid;
    p->pub.num_threads = st->num_threads <= UINT32_MAX ? (uint32_t)st->num_threads : NVT_NA_U32;
    if (st->rss_pages <= UINT64_MAX / (uint64_t)host->page_size) {
        p->pub.rss_bytes = st->rss_pages * (uint64_t)host->page_size;
        uint64_t total = host_memory_total(host);
        if (total != NVT_NA_U64 && total > 0) {
            p->pub.memory_percent = (double)p->pub.rss_bytes / (double)total * 100.0;
        }
    }
    double boot = host_boot_time(host);
    if (!isnan(boot)) {
        p->pub.create_time = boot + (double)st->start_ticks / (double)host->clock_ticks;
        double running = clock_wall_s() - p->pub.create_time;
        p->pub.running_time_s = running > 0.0 ? running : 0.0;
    }
}

/* The command line of a fresh identity, held by the caller until the identity's strings are made
 * from it (fill_process()): the identity keeps only those. */
struct raw_cmdline {
    char buf[CMDLINE_GUESS]; /* most fit, read without an allocation */
    char *text;              /* buf or an allocation (raw_cmdline_free()) */
    size_t len;
};

static void raw_cmdline_free(struct raw_cmdline *raw) {
    if (raw->text != raw->buf) {
        free(raw->text);
    }
    raw->text = NULL;
    raw->len = 0;
}

/* The identity's strings, made at its first fill from the command line just read with it (raw) and
 * shared with p from then on; false when out of memory. */
static bool share_strings(struct host_ctx *host, struct host_process *p,
                          const struct proc_pid_stat *st, bool stat_ok,
                          struct process_identity *identity, const struct raw_cmdline *raw) {
    if (identity->strings == NULL) {
        const char *user = NULL;
        if (identity->has_uid) {
            user = users_name(&host->users, identity->uid);
            if (user == NULL) {
                return false;
            }
        }
        bool kernel_thread = stat_ok && ((st->flags & PF_KTHREAD) != 0 || st->ppid == 2);
        bool have_raw = raw != NULL && raw->text != NULL;
        identity->strings = process_strings_make(user, stat_ok ? st->comm : NULL, kernel_thread,
                                                 have_raw ? raw->text : "", have_raw ? raw->len : 0,
                                                 !host->command_only);
        if (identity->strings == NULL) {
            return false;
        }
    }
    process_take_identity(p, identity);
    return true;
}

void process_take_identity(struct host_process *p, const struct process_identity *identity) {
    if (identity->has_uid) {
        p->pub.uid = identity->uid;
        if (identity->has_uid_all) {
            p->pub.uid_effective = identity->uid_effective;
            p->pub.uid_saved = identity->uid_saved;
        }
    }
    struct process_strings *strings = process_strings_ref(identity->strings);
    p->shared = strings;
    p->user = strings->user;
    p->name = strings->name;
    p->command = strings->command;
    p->cmdline = strings->argv;
    p->pub.cmdline_count = strings->argv != NULL ? strings->argc : 0;
    set_strings(p);
}

/* Everything after the files were read (stat at stat_s, clock_monotonic_s()), identity taken
 * (kept in the pid cache or freed), with the command line read with it where it is fresh (raw;
 * unused, and its text NULL, for one whose strings are made); false when out of memory. */
static bool fill_process(struct host_ctx *host, struct host_process *p,
                         const struct proc_pid_stat *st, bool stat_ok,
                         struct process_identity *identity, const struct raw_cmdline *raw,
                         double stat_s) {
    bool ok = share_strings(host, p, st, stat_ok, identity, raw);
    if (ok && stat_ok) {
        fill_from_stat(host, p, st);
        /* stat's count when it fits, status's otherwise. */
        if (p->pub.num_threads == NVT_NA_U32) {
            p->pub.num_threads = identity->threads;
        }
    }
    bool kernel_thread = stat_ok && ((st->flags & PF_KTHREAD) != 0 || st->ppid == 2);
    /* Counted whether or not the arguments are kept (host_set_command_only()). */
    size_t argc = identity->strings != NULL ? identity->strings->argc : 0;
    if ((stat_ok && st->state == 'Z') || (argc == 0 && !kernel_thread)) {
        p->pub.status = NVT_HOST_ZOMBIE;
    }
    if (identity->cmdline_empty && !kernel_thread) {
        /* Read in the middle of an exec() (the new name set, the new arguments not yet) or a
         * zombie: read it again next time rather than show it without a command line for the
         * identity's lifetime. */
        identity->read_s = -INFINITY;
    }
    if (ok && stat_ok) {
        return measure_cpu(host, p, st, identity, stat_s);
    }
    process_identity_free(&host->pids, identity);
    return ok;
}

/* The owner of the process (of its open file fd, or of its directory name when fd is -1), for
 * the user name of a process we may not read. */
static void fill_owner(struct host_ctx *host, struct host_process *p, int fd, const char *name) {
    struct stat sb;
    int err = fd >= 0 ? fstat(fd, &sb) : fstatat(host->root_fd, name, &sb, 0);
    if (err != 0) {
        return;
    }
    p->pub.uid = (uint32_t)sb.st_uid;
    const char *user = users_name(&host->users, (uint32_t)sb.st_uid);
    p->user = user != NULL ? strdup(user) : NULL;
    set_strings(p);
}

/* A fresh identity of what status said (parsed into status) and of the command line read (len
 * bytes), keeping the files *status_fd and *cmdline_fd (which are then -1); NULL when out of
 * memory. */
static struct process_identity *make_identity(const struct proc_pid_status *status, int *status_fd,
                                              int *cmdline_fd, size_t len) {
    struct process_identity *identity = calloc(1, sizeof(*identity));
    if (identity == NULL) {
        return NULL;
    }
    identity->read_s = clock_monotonic_s();
    identity->stat_fd = -1;
    identity->statm_fd = -1;
    identity->schedstat_fd = -1;
    identity->status_fd = *status_fd;
    identity->cmdline_fd = *cmdline_fd;
    *status_fd = -1;
    *cmdline_fd = -1;
    identity->uid = status->uid;
    identity->uid_effective = status->uid_effective;
    identity->uid_saved = status->uid_saved;
    identity->threads = status->has_threads ? status->threads : NVT_NA_U32;
    identity->has_uid = status->has_uid;
    identity->has_uid_all = status->has_uid_all;
    identity->cmdline_empty = len == 0;
    return identity;
}

/* Read status and cmdline into a fresh identity, *status (the whole of what status said, for the
 * caller's reading) and *raw (the caller frees it with raw_cmdline_free()), from <proc
 * root>/<pid>/status and cmdline (dir is "<pid>/"), or again through *status_fd and *cmdline_fd
 * where those are kept (>= 0); with keep, the files stay open in the identity while the pid
 * cache's budget allows (*status_fd and *cmdline_fd are then -1).  0, or the errno of the first
 * that failed (then nothing is kept). */
static int read_identity(struct host_ctx *host, const char *dir, int *status_fd, int *cmdline_fd,
                         bool keep, struct process_identity **out, struct proc_pid_status *status,
                         struct raw_cmdline *raw) {
    char path[PATH_SIZE];
    /* Most status files fit this, read without an allocation. */
    char status_buf[STATUS_GUESS];
    char *status_text = NULL;
    size_t len = 0;
    *out = NULL;
    raw->text = NULL;
    raw->len = 0;
    int err = pid_cache_read_kept_alloc(&host->pids, status_fd, host->root_fd,
                                        dir_file(path, dir, "status"), STATUS_CAP, keep, status_buf,
                                        sizeof(status_buf), &status_text, &len);
    if (err != 0) {
        process_identity_close_text(&host->pids, cmdline_fd);
        return err;
    }
    err = pid_cache_read_kept_alloc(&host->pids, cmdline_fd, host->root_fd,
                                    dir_file(path, dir, "cmdline"), CMDLINE_CAP, keep, raw->buf,
                                    sizeof(raw->buf), &raw->text, &raw->len);
    if (err == EFBIG) {
        /* An absurd command line: treat it as unreadable rather than failing the process. */
        err = 0;
        raw->len = 0;
    }
    struct process_identity *identity = NULL;
    if (err == 0) {
        proc_parse_pid_status(status_text, status);
        identity = make_identity(status, status_fd, cmdline_fd, raw->len);
    }
    if (identity == NULL) {
        err = err == 0 ? ENOMEM : err;
        process_identity_close_text(&host->pids, status_fd);
        process_identity_close_text(&host->pids, cmdline_fd);
        raw_cmdline_free(raw);
    }
    if (status_text != status_buf) {
        free(status_text);
    }
    *out = identity;
    return err;
}

/* A process whose stat file could not be opened (err): gone, outside our PID namespace, or not
 * ours to read (then its owner is still shown); dir is its directory, "<pid>/". */
static void fill_unopened(struct host_ctx *host, const char *dir, int err,
                          struct host_process *out) {
    enum nvt_host_status status = host_status_of_errno(err);
    if (status == NVT_HOST_GONE && host_in_nested_pid_namespace(host)) {
        status = NVT_HOST_NOT_IN_NAMESPACE;
    }
    out->pub.status = status;
    if (status == NVT_HOST_NO_PERMISSION) {
        fill_owner(host, out, -1, dir);
    }
}

/* How many times a first reading is made while an exec moves under it (read_new_process()). */
#define NEW_READ_TRIES 3

/* True when status's name (read before stat) is not stat's: the process called exec(), or
 * renamed itself, between the two reads, so its status and cmdline may be the old program's.  A
 * name status escaped (a backslash in it) is not compared. */
static bool renamed_between(const struct proc_pid_status *status, const struct proc_pid_stat *st) {
    return status->has_name && strchr(status->name, '\\') == NULL &&
           strcmp(status->name, st->comm) != 0;
}

/*
 * A process not read lately, or one whose identity changed: its stat file is opened first and read
 * last, and status and cmdline (and statm, for a status without VmRSS) are read by path in
 * between.  A file of /proc/<pid>/ stays bound to the process its pid named when it was opened,
 * and reading it fails (ESRCH) once that process has exited, even if the pid names another one by
 * then: a process holds its pid until it is reaped, so stat read last shows that the pid named it
 * throughout, and every file opened in between by path was its own.  That is the directory
 * descriptor's guarantee without opening the directory (one open and one close fewer a process).
 * An exec() between the reads would pair the old program's status and command line with the new
 * one's stat: status's name is compared with stat's, and a reading where they differ is made
 * again (read_new_process()).  Nothing is kept open: a process read once (nvitop -1) would hold
 * its files only to close them all at the end, which costs the kernel more than closing each at
 * once; one read again keeps them from then on (read_known_process()).  *renamed tells that the
 * names differed (nothing was filled); on the last try the reading is taken as it is.
 */
static nvt_status read_new_once(struct host_ctx *host, uint32_t pid, const char *dir, bool last_try,
                                bool *renamed, struct host_process *out) {
    char path[PATH_SIZE];
    int stat_fd =
        openat(host->root_fd, dir_file(path, dir, "stat"), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (stat_fd < 0) {
        fill_unopened(host, dir, errno, out);
        return NVT_OK;
    }
    int status_fd = -1;
    int cmdline_fd = -1;
    struct process_identity *identity = NULL;
    struct proc_pid_status status;
    struct raw_cmdline raw;
    int err = read_identity(host, dir, &status_fd, &cmdline_fd, false, &identity, &status, &raw);
    char statm_buf[STATM_BUF_SIZE];
    bool statm_ok = false;
    if (err == 0 && !status.has_rss) {
        statm_ok = file_read_into(host->root_fd, dir_file(path, dir, "statm"), statm_buf,
                                  sizeof(statm_buf), NULL) == 0;
    }
    char stat_buf[STAT_BUF_SIZE];
    if (err == 0) {
        err = file_reread_into(stat_fd, stat_buf, sizeof(stat_buf), NULL);
        err = err == EFBIG ? 0 : err;
        if (err != 0) {
            process_identity_free(&host->pids, identity);
            raw_cmdline_free(&raw);
        }
    }
    if (err != 0) {
        if (err != ENOMEM) {
            init_process(out, pid, host_status_of_errno(err));
            if (out->pub.status == NVT_HOST_NO_PERMISSION) {
                fill_owner(host, out, stat_fd, NULL);
            }
        }
        close(stat_fd);
        return err == ENOMEM ? NVT_ERR_NO_MEMORY : NVT_OK;
    }
    close(stat_fd);
    struct proc_pid_stat st;
    bool stat_ok = proc_parse_pid_stat(stat_buf, &st);
    if (stat_ok && !last_try && renamed_between(&status, &st)) {
        process_identity_free(&host->pids, identity);
        raw_cmdline_free(&raw);
        *renamed = true;
        return NVT_OK;
    }
    if (stat_ok) {
        /* Stat's name goes into the identity's strings, made from st by fill_process(). */
        const struct quiet_sample none = {0};
        quiet_stat_keep(host, identity, &none, &st);
        take_resident(host, identity, statm_ok ? statm_buf : NULL, &status, &st);
        /* Read before stat, the resident set is not paired with stat's count: a process whose
         * memory grew in between would show the smaller figure for as long as its count then
         * stays put.  The next reading takes statm's once (see struct process_identity). */
        identity->stat_rss_pages = UNPAIRED_RSS;
    }
    bool ok = fill_process(host, out, &st, stat_ok, identity, &raw, clock_monotonic_s());
    raw_cmdline_free(&raw);
    set_strings(out);
    if (!ok) {
        host_process_fini(out);
        return NVT_ERR_NO_MEMORY;
    }
    return NVT_OK;
}

/* read_new_once(), again while the process's name changed between its status and its stat (an
 * exec in the middle of the reading), at most NEW_READ_TRIES times in all. */
static nvt_status read_new_process(struct host_ctx *host, uint32_t pid, const char *dir,
                                   struct host_process *out) {
    for (int tries = 1;; tries++) {
        bool renamed = false;
        nvt_status status = read_new_once(host, pid, dir, tries == NEW_READ_TRIES, &renamed, out);
        if (!renamed) {
            return status;
        }
    }
}

int process_read_known_file(struct host_ctx *host, uint32_t pid, int *fd, const char *name,
                            bool keep, char *buf, size_t size) {
    if (*fd >= 0) {
        int err = file_reread_into(*fd, buf, size, NULL);
        if (err != 0 && err != EFBIG) {
            process_identity_close_kept(&host->pids, fd);
        }
        return err;
    }
    char dir[DIR_SIZE];
    char path[PATH_SIZE];
    pid_dir(dir, pid);
    if (!keep) {
        return file_read_into(host->root_fd, dir_file(path, dir, name), buf, size, NULL);
    }
    return pid_cache_open_kept(&host->pids, fd, host->root_fd, dir_file(path, dir, name), buf,
                               size);
}

/* The resident set of a known process into st: the identity's last one while stat's count has
 * not moved since (see struct process_identity), else statm's. */
static void resident_of_known(struct host_ctx *host, uint32_t pid,
                              struct process_identity *identity, struct proc_pid_stat *st) {
    if (identity->have_resident && identity->stat_rss_pages == st->rss_pages) {
        st->rss_pages = identity->resident_pages;
        return;
    }
    /* statm is kept open for a process whose memory moves, not read once more to pair a first
     * reading's figure with stat's count. */
    bool keep = identity->stat_rss_pages != UNPAIRED_RSS;
    char statm_buf[STATM_BUF_SIZE];
    if (process_read_known_file(host, pid, &identity->statm_fd, "statm", keep, statm_buf,
                                sizeof(statm_buf)) == 0) {
        take_resident(host, identity, statm_buf, NULL, st);
    }
}

/* The steady state: a process read in the last two passes, its identity still fresh, needs only
 * its stat file.  False when that does not apply (then nothing was filled). */
static bool read_known_process(struct host_ctx *host, uint32_t pid, struct host_process *out,
                               nvt_status *result) {
    struct pid_cache_entry *known = pid_cache_find_pid(&host->pids, pid);
    if (known == NULL || known->identity == NULL) {
        return false;
    }
    struct proc_pid_stat st;
    double stat_s = 0.0;
    struct process_identity *identity = known->identity;
    double now = clock_monotonic_s();
    bool due = !(now - identity->read_s < identity_ttl(host, pid));
    struct quiet_sample sample = {0};
    bool quiet = false;
    if (pass_stat_take(&host->pids, known, &st, &stat_s)) {
        /* This pass's parent map read it, and found the same process (pass_stat.c). */
        str_copy(st.comm, sizeof(st.comm), process_identity_comm(identity));
    } else if ((quiet = quiet_stat_take(host, pid, identity, now, &sample, &st)) && !due) {
        /* It has not run since its stat was read (quiet_stat.c); when due, stat is read in full
         * with this sample as its base.  Its reading is the sample's, read right after now. */
        str_copy(st.comm, sizeof(st.comm), process_identity_comm(identity));
        st.start_ticks = known->start_ticks;
        stat_s = now;
    } else {
        char stat_buf[STAT_BUF_SIZE];
        int err = process_read_known_file(host, pid, &identity->stat_fd, "stat", true, stat_buf,
                                          sizeof(stat_buf));
        if (err != 0 && err != EFBIG) {
            /* Gone (or no longer ours to read): its other files go with its stat. */
            process_identity_close_all(&host->pids, identity);
        }
        /* A new process under the same pid or an exec (another name): read all. */
        if ((err != 0 && err != EFBIG) || !proc_parse_pid_stat(stat_buf, &st) ||
            st.start_ticks != known->start_ticks ||
            strcmp(process_identity_comm(identity), st.comm) != 0) {
            return false;
        }
        stat_s = clock_monotonic_s();
        /* Due, but it has not been on a CPU since its status and command line were read: only it
         * can change its uids or its arguments, so they stand for another period (its parent and
         * resident set, which can change meanwhile, come from the stat just read). */
        bool unchanged = quiet && quiet_stat_before(identity);
        quiet_stat_keep(host, identity, &sample, &st);
        if (due && unchanged) {
            identity->read_s = sample.read_s;
            due = false;
        }
    }
    bool fresh_resident = false;
    struct raw_cmdline raw = {.text = NULL};
    if (due) {
        /* The same process (its stat just said so), its status and cmdline due: only those two
         * are read again, and its resident set from that status; its kept files (and its last
         * resident set, for a status without one) go to the new identity. */
        struct process_identity *fresh = NULL;
        struct proc_pid_status status;
        char dir[DIR_SIZE];
        pid_dir(dir, pid);
        if (read_identity(host, dir, &identity->status_fd, &identity->cmdline_fd, true, &fresh,
                          &status, &raw) != 0) {
            return false;
        }
        /* Its strings, with stat's name, are made from st (the same name) by fill_process(). */
        process_identity_move_kept(fresh, identity);
        fresh->have_resident = identity->have_resident;
        fresh->resident_pages = identity->resident_pages;
        fresh->stat_rss_pages = identity->stat_rss_pages;
        fresh->quiet = identity->quiet;
        process_identity_free(&host->pids, identity);
        known->identity = fresh;
        identity = fresh;
        if (status.has_rss) {
            /* Paired with stat's count, read just before (see struct process_identity). */
            take_resident(host, fresh, NULL, &status, &st);
            fresh_resident = true;
        }
    }
    known->identity = NULL;
    if (!fresh_resident) {
        resident_of_known(host, pid, identity, &st);
    }
    bool ok = fill_process(host, out, &st, true, identity, &raw, stat_s);
    raw_cmdline_free(&raw);
    set_strings(out);
    if (!ok) {
        host_process_fini(out);
    }
    *result = ok ? NVT_OK : NVT_ERR_NO_MEMORY;
    return true;
}

nvt_status host_process_read(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    if (host == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    init_process(out, pid, NVT_HOST_OK);
    pid_cache_age(&host->pids, clock_monotonic_s());
    nvt_status known = NVT_OK;
    bool any_known = host->pids.count > 0;
    if (host->root_fd >= 0 && pid != 0 && any_known && read_known_process(host, pid, out, &known)) {
        return known;
    }
    char dir[DIR_SIZE];
    pid_dir(dir, pid);
    if (host->root_fd < 0 || pid == 0) {
        fill_unopened(host, dir, ENOENT, out);
        return NVT_OK;
    }
    return read_new_process(host, pid, dir, out);
}
