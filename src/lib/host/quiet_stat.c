/*
 * A process that has not run since its last reading is not read again: a single-threaded
 * process's /proc/<pid>/schedstat (about 1 us in the kernel) says whether it was on a CPU since
 * its stat (about 5 us) was last read in full.  linux_internal.h says what is kept and why it
 * holds; docs/performance.md has the measurements.
 */
#include <errno.h>
#include <string.h>

#include "linux_internal.h"

/* Three numbers of at most 20 digits. */
#define SCHEDSTAT_BUF_SIZE 80

bool quiet_stat_take(struct host_ctx *host, uint32_t pid, struct process_identity *identity,
                     double now, struct quiet_sample *sample, struct proc_pid_stat *st) {
    memset(sample, 0, sizeof(*sample));
    const struct quiet_stat *quiet = &identity->quiet;
    if (!quiet->eligible || host->no_schedstat) {
        return false;
    }
    sample->kept = identity->schedstat_fd >= 0;
    if (!sample->kept && host->pids.kept_fds >= host->pids.kept_max) {
        /* Opened, read and closed each time, it would cost about what stat does. */
        return false;
    }
    char buf[SCHEDSTAT_BUF_SIZE];
    sample->read_s = now;
    int err = process_read_known_file(host, pid, &identity->schedstat_fd, "schedstat", true, buf,
                                      sizeof(buf));
    if (err != 0) {
        sample->missing = err == ENOENT;
        return false;
    }
    if (!proc_parse_pid_schedstat(buf, &sample->runtime_ns, &sample->slices)) {
        return false;
    }
    /* A kernel that keeps no scheduler statistics writes zeros. */
    sample->missing = sample->runtime_ns == 0 && sample->slices == 0;
    sample->valid = !sample->missing;
    /* Only through a descriptor kept since the base was read is it the same process for sure (a
     * file of /proc/<pid>/ stays bound to the process it was opened for). */
    if (!sample->valid || !sample->kept || !quiet->have_base ||
        sample->runtime_ns != quiet->base_runtime_ns || sample->slices != quiet->base_slices) {
        return false;
    }
    st->state = quiet->state;
    st->ppid = quiet->ppid;
    st->flags = quiet->flags;
    st->utime_ticks = quiet->utime_ticks;
    st->stime_ticks = quiet->stime_ticks;
    st->num_threads = 1;
    st->rss_pages = quiet->rss_pages;
    return true;
}

void quiet_stat_keep(struct host_ctx *host, struct process_identity *identity,
                     const struct quiet_sample *sample, const struct proc_pid_stat *st) {
    struct quiet_stat *quiet = &identity->quiet;
    if (sample->missing && st->utime_ticks + st->stime_ticks > 0) {
        /* The process is there (its stat just read) and has run, yet has no schedstat. */
        host->no_schedstat = true;
    }
    /* Running or runnable ('R'), it may be on a CPU right now, between the kernel's updates of
     * its counters; a zombie or a dead task is read as it is. */
    quiet->eligible = st->num_threads == 1 && st->state != 'R' && st->state != 'Z' &&
                      st->state != 'X' && !host->no_schedstat;
    if (st->num_threads != 1 || host->no_schedstat) {
        /* Not read again while that lasts (a running process may sleep at the next reading). */
        process_identity_close_kept(&host->pids, &identity->schedstat_fd);
    }
    quiet->have_base = quiet->eligible && sample->valid && identity->schedstat_fd >= 0;
    quiet->state = st->state;
    quiet->ppid = st->ppid;
    quiet->flags = st->flags;
    quiet->utime_ticks = st->utime_ticks;
    quiet->stime_ticks = st->stime_ticks;
    quiet->rss_pages = st->rss_pages;
    quiet->base_runtime_ns = sample->runtime_ns;
    quiet->base_slices = sample->slices;
    quiet->base_s = sample->read_s;
}

bool quiet_stat_before(const struct process_identity *identity) {
    return identity->quiet.have_base && identity->quiet.base_s <= identity->read_s;
}
