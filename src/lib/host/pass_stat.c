/*
 * One read of /proc/<pid>/stat per process and pass: the parent map (nvt_host_ppid_map()) reads
 * the stat file of every process, and the tree view then reads thousands of those processes
 * (host_process_read()) in the same pass.  For a process the pid cache knows, the map reads stat
 * through the descriptor the cache keeps (no open or close) and remembers what it read until the
 * pass ends (a second at most); the process's reading then takes that instead of reading the file
 * again.  A process the cache does not know is read by path, as before, and read in full by
 * host_process_read().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linux_internal.h"
#include "util/sys/clock.h"
#include "util/sys/file.h"
#include "util/text/str.h"

#define STAT_BUF_SIZE 4096
#define PATH_SIZE     32

/* Remember st for entry's process until the pass ends; nothing when out of memory (the process's
 * reading then reads stat itself). */
static void remember(struct pid_cache *cache, struct pid_cache_entry *entry,
                     const struct proc_pid_stat *st, double read_s) {
    if (cache->pass_stat_count == cache->pass_stat_cap) {
        size_t cap = cache->pass_stat_cap == 0 ? 256 : cache->pass_stat_cap * 2;
        if (cap > PID_CACHE_PASS_STAT_MAX) {
            return;
        }
        struct pass_stat *bigger = realloc(cache->pass_stats, cap * sizeof(*bigger));
        if (bigger == NULL) {
            return;
        }
        cache->pass_stats = bigger;
        cache->pass_stat_cap = cap;
    }
    size_t index = cache->pass_stat_count++;
    cache->pass_stats[index] = (struct pass_stat){entry->pid, read_s, *st};
    entry->pass_stat = (uint32_t)(index + 1);
}

bool pass_stat_read_ppid(struct host_ctx *host, uint32_t pid, uint32_t *ppid) {
    char buf[STAT_BUF_SIZE];
    struct proc_pid_stat st;
    struct pid_cache_entry *known = pid_cache_find_pid(&host->pids, pid);
    if (known == NULL || known->identity == NULL) {
        char path[PATH_SIZE];
        size_t len = str_u64(path, PATH_SIZE - sizeof("/stat"), pid);
        memcpy(path + len, "/stat", sizeof("/stat"));
        if (file_read_into(host->root_fd, path, buf, sizeof(buf), NULL) != 0 ||
            !proc_parse_pid_stat(buf, &st)) {
            return false;
        }
        *ppid = st.ppid;
        return true;
    }
    struct process_identity *identity = known->identity;
    int err =
        process_read_known_file(host, pid, &identity->stat_fd, "stat", true, buf, sizeof(buf));
    if (err != 0 && err != EFBIG) {
        /* Gone (or no longer ours to read): its other files go with its stat. */
        process_identity_close_all(&host->pids, identity);
        return false;
    }
    double read_s = clock_monotonic_s();
    if (!proc_parse_pid_stat(buf, &st)) {
        return false;
    }
    /* Another process under the pid, or an exec: its reading finds out and reads it in full. */
    if (st.start_ticks == known->start_ticks &&
        strcmp(process_identity_comm(identity), st.comm) == 0) {
        remember(&host->pids, known, &st, read_s);
    }
    *ppid = st.ppid;
    return true;
}

bool pass_stat_take(struct pid_cache *cache, struct pid_cache_entry *entry,
                    struct proc_pid_stat *stat, double *read_s) {
    size_t index = entry->pass_stat;
    entry->pass_stat = 0;
    if (index == 0 || index > cache->pass_stat_count ||
        cache->pass_stats[index - 1].pid != entry->pid) {
        return false;
    }
    struct pass_stat *remembered = &cache->pass_stats[index - 1];
    remembered->pid = 0;
    if (!(clock_monotonic_s() - remembered->read_s < cache->pass_stat_max_age_s)) {
        return false;
    }
    *stat = remembered->stat;
    *read_s = remembered->read_s;
    return true;
}

void pass_stat_clear(struct pid_cache *cache) {
    free(cache->pass_stats);
    cache->pass_stats = NULL;
    cache->pass_stat_count = 0;
    cache->pass_stat_cap = 0;
}
