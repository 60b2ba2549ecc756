/*
 * State of the Linux host back-end, shared by its source files (linux_host.c, linux_process.c,
 * pid_cache.c, pass_stat.c, users.c, process_api.c).  Nothing outside src/lib/host/ includes this.
 * Like host.h, everything here works on one host_ctx used by one thread at a time.
 */
#ifndef NVITOP_SRC_LIB_HOST_LINUX_INTERNAL_H
#define NVITOP_SRC_LIB_HOST_LINUX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "host.h"
#include "proc_parse.h"

/* How long what /proc/<pid>/status and cmdline said of a process is used before they are read
 * again: in between, a pass reads only /proc/<pid>/stat (a third of the files).  Each process
 * keeps them between half and one and a half times this long (spread by pid), so that a thousand
 * processes met at once are not all read again in the same pass.  A process that changes its
 * title or its uids shows the change within that time; one that calls exec() (its name in stat
 * changes) at once.  One that has not run since they were read keeps them for another period
 * (quiet_stat_before()): only the process itself changes its uids or its arguments. */
#define HOST_IDENTITY_TTL_S 10.0

/* /proc/<pid>/stat, statm, status and cmdline files are kept open between reads (read again with
 * pread(2) instead of opened and closed each time), from a process's second reading (a process
 * read once keeps nothing), up to a budget fixed at host_open(): half the soft RLIMIT_NOFILE then
 * (the other half is the program's; the programs raise the soft limit to the hard one first), at
 * most HOST_KEPT_FDS_MAX, or HOST_KEPT_FDS_UNKNOWN where the limit is unknown; status and cmdline
 * only within half of it.  Past the budget, files are opened each time.  A kept file is closed when
 * its process is forgotten (below), its read fails, or at host_close(). */
#define HOST_KEPT_FDS_MAX     65536
#define HOST_KEPT_FDS_UNKNOWN 256

/* Bounds on the pid cache for callers that read processes without snapshots (which end a
 * generation after every pass): a generation also ends when it holds this many processes or when
 * its first reading is this old, so that processes not read again are forgotten (with their kept
 * descriptors) after two generations.  A pass of a snapshot reads fewer processes and is quicker,
 * so neither bound ends a generation in the middle of one. */
#define HOST_GENERATION_MAX_COUNT 65536
#define HOST_GENERATION_MAX_AGE_S 60.0

/* A stat the parent map remembered for a process's reading (pass_stat.c) older than this is read
 * again: a caller that maps parents and reads processes much later, without ending the pass in
 * between, gets a fresh reading. */
#define HOST_PASS_STAT_MAX_AGE_S 1.0

/* The strings of a process that change only with its identity: its user name, its name (comm or
 * argv[0]'s basename), stat's name (comm, which later readings compare with stat's to tell an
 * exec), its command line split into arguments and the command joined from them.
 * Made once per identity (process_strings.c) in one block, plus the command, and shared by
 * reference: the identity holds one reference and each host_process filled from it another
 * (host.h), so the strings a pass read stay valid after the pid cache replaced or forgot the
 * identity, until every holder let go.  The count is not atomic: like the host_ctx, a block is
 * used by one thread at a time. */
struct process_strings {
    size_t refs;
    size_t argc;   /* arguments in the command line, kept or not */
    char **argv;   /* argc + 1 pointers (the last NULL) into the block; NULL when argc is 0 or
                      the arguments are not kept (host_set_command_only()) */
    char *user;    /* NULL when status gave no uid */
    char *name;    /* NULL when stat could not be parsed */
    char *comm;    /* stat's name, NULL with name: name, or its own copy where name is argv[0]'s
                      basename */
    char *command; /* its own allocation, "" for none */
};

/* A block of the strings of one identity with one reference: user (NULL for none), comm (stat's
 * name, NULL when unknown), whether the process is a kernel thread (whose command is its name)
 * and the bytes of its cmdline (cmdline_len of them, then a NUL); without keep_arguments the
 * block keeps the command and the name made from them, not the arguments.  NULL when out of
 * memory. */
struct process_strings *process_strings_make(const char *user, const char *comm, bool kernel_thread,
                                             const char *cmdline, size_t cmdline_len,
                                             bool keep_arguments);

/* Take one more reference (strings may be NULL); returns strings. */
struct process_strings *process_strings_ref(struct process_strings *strings);

/* Drop one reference, freeing the block with the last; NULL is ignored. */
void process_strings_unref(struct process_strings *strings);

/* What the last full read of a process's /proc/<pid>/stat said that a reading uses, and the main
 * thread's counters in /proc/<pid>/schedstat read right before it (quiet_stat.c). */
struct quiet_stat {
    bool eligible;  /* that read showed one thread, not running: schedstat is read before stat */
    bool have_base; /* base_* were read through the kept schedstat_fd right before that read */
    char state;
    uint32_t ppid;
    uint64_t flags;
    uint64_t utime_ticks;
    uint64_t stime_ticks;
    uint64_t rss_pages; /* stat's own count */
    uint64_t base_runtime_ns;
    uint64_t base_slices;
    double base_s; /* clock_monotonic_s() when the base was read */
};

/* A reading of /proc/<pid>/schedstat made before the process's stat in one reading. */
struct quiet_sample {
    bool valid;
    bool missing;  /* the file was not there (the kernel may have none) */
    bool kept;     /* read through a descriptor kept from an earlier reading */
    double read_s; /* clock_monotonic_s() right before the read */
    uint64_t runtime_ns;
    uint64_t slices;
};

/* What /proc/<pid>/status and cmdline said of a process, when, and the files kept open to read it
 * again.  Only what later readings use is kept: status's name (compared with stat's at the first
 * reading) and resident set (taken into the reading that read it) stay with that reading, and
 * stat's name is in the strings.  The fields go from the widest to the narrowest, so that they
 * leave no padding between them. */
struct process_identity {
    double read_s; /* clock_monotonic_s() of the read */
    struct quiet_stat quiet;
    /* The last reading of the resident set as psutil reports it (statm's second field, which
     * status's VmRSS is in KiB; valid with have_resident, below), and stat's resident count when
     * it was taken: all come from the same per-process counters (stat's approximately), so while
     * stat's count stays the same neither status nor statm is read again for it.  A fresh
     * identity (every HOST_IDENTITY_TTL_S or so) takes it from its status, or from statm where
     * status has no VmRSS (a process without memory of its own). */
    uint64_t resident_pages;
    uint64_t stat_rss_pages;
    struct process_strings *strings; /* one reference, made at the first fill; NULL until then */
    int stat_fd;                     /* /proc/<pid>/stat kept open, or -1 */
    int statm_fd;                    /* /proc/<pid>/statm kept open, or -1 */
    int status_fd;    /* /proc/<pid>/status kept open for the next identity's read, or -1 */
    int cmdline_fd;   /* /proc/<pid>/cmdline, the same */
    int schedstat_fd; /* /proc/<pid>/schedstat kept open (quiet_stat.c), or -1 */
    /* Status's uids (as struct proc_pid_status has them) and thread count (NVT_NA_U32 where it
     * had none). */
    uint32_t uid;
    uint32_t uid_effective;
    uint32_t uid_saved;
    uint32_t threads;
    bool has_uid;
    bool has_uid_all;
    bool have_resident;
    bool cmdline_empty; /* the command line read was empty: a zombie or a process caught in an
                           exec() */
};

/* Stat's name of the identity's process as its strings hold it; "" before they are made (an
 * identity is kept in the pid cache only once they are, from a stat that parsed). */
const char *process_identity_comm(const struct process_identity *identity);

/* The largest pass_stat an entry holds (its bit-field's). */
#define PID_CACHE_PASS_STAT_MAX ((UINT32_C(1) << 30) - 1)

/* CPU time of one process at one moment, to measure its CPU percentage at the next read, and
 * what its slow-changing files said: one slot of the pid cache's table.  The flags share the
 * pass_stat word, so that a slot takes 40 bytes rather than 48. */
struct pid_cache_entry {
    uint32_t pid;
    uint32_t pass_stat : 30; /* 1 + its index in pid_cache.pass_stats, 0 for none (pass_stat.c) */
    uint32_t used : 1;       /* the slot holds an entry */
    uint32_t generation : 1; /* the low bit of the generation it was last stored in */
    uint64_t start_ticks;    /* with pid, the identity of the process */
    uint64_t cpu_ticks;      /* utime + stime */
    double monotonic_s;
    struct process_identity *identity; /* owned by the cache; NULL when not kept */
};

/* A known process's stat as the parent map of this pass read it (pass_stat.c). */
struct pass_stat {
    uint32_t pid;  /* 0 once taken */
    double read_s; /* clock_monotonic_s() of the read */
    struct proc_pid_stat stat;
};

/*
 * The readings of two generations, those stored in this sampling pass and those of the previous
 * one, in one open-addressing hash table keyed by pid (pid_cache.c).  Each entry is stamped with
 * the generation it was last stored in; a reading of a process stored again in this generation
 * takes over its entry (restamped), and ending the generation forgets the entries the ending one
 * did not store (those of the previous one, with their identities and kept descriptors).  A pid
 * has at most one entry of each generation: two only when another process took the pid in
 * between (another start time).
 */
struct pid_cache {
    struct pid_cache_entry *slots;
    size_t capacity;              /* 0 or a power of two, at least twice count */
    size_t count;                 /* entries of either generation */
    size_t current_count;         /* of which stored in the current generation */
    uint32_t generation;          /* generations ended so far; its low bit stamps entries */
    size_t kept_fds;              /* the kept descriptors of identities in either generation */
    size_t kept_text_fds;         /* of which status_fd and cmdline_fd, at most kept_max / 2 */
    size_t kept_max;              /* the budget of kept_fds (HOST_KEPT_FDS_MAX above) */
    double current_started_s;     /* clock_monotonic_s() of the first store into current */
    size_t generation_max;        /* HOST_GENERATION_MAX_COUNT; tests lower it */
    double generation_max_age_s;  /* HOST_GENERATION_MAX_AGE_S; tests lower it */
    double pass_stat_max_age_s;   /* HOST_PASS_STAT_MAX_AGE_S; tests raise it */
    struct pass_stat *pass_stats; /* this pass's, until host_generation_end() */
    size_t pass_stat_count;
    size_t pass_stat_cap;
};

struct user_entry {
    uint32_t uid;
    char *name;
};

struct user_cache {
    struct user_entry *entries;
    size_t count;
    size_t capacity;
};

/* The host files read on every sample, kept open between samples with their read buffers: a
 * file in /proc is generated afresh by each read from its start, and opening it (for /proc/stat,
 * allocating the kernel's buffer) costs about as much as reading it.  The I/O lists' files
 * (nvt_host_net_io() and the others, read by the exporter every interval) are kept too. */
enum host_file {
    HOST_FILE_STAT,
    HOST_FILE_MEMINFO,
    HOST_FILE_LOADAVG,
    HOST_FILE_UPTIME,
    HOST_FILE_HOSTNAME,
    HOST_FILE_NET_DEV,
    HOST_FILE_DISKSTATS,
    HOST_FILE_MOUNTS, /* self/mounts */
    HOST_FILE_FILESYSTEMS,
    HOST_FILE_COUNT
};

struct host_kept_file {
    int fd; /* -1 until first read */
    char *buf;
    size_t size;
    bool on_procfs; /* fd is a file of the proc file system (not of a fixture tree) */
    bool valid;     /* buf holds the text of the last successful read */
};

/* The mounts nvt_host_disk_usage() reports (those psutil's disk_partitions() keeps) as of the
 * last read of the mount table, rebuilt only when that table changes (host_read_mounts()): their
 * device, mount point and type, NUL-terminated strings one after the other.  root holds the same
 * three for "/" as the table names it whatever its type (an overlay in a container), or "rootfs"
 * where the table has no "/" (a chroot): the entry reported when no kept mount is "/". */
struct host_mounts {
    bool valid;
    size_t count;
    size_t root[3];  /* into strings: device, "/", type */
    size_t *offsets; /* 3 per mount, into strings: device, mount point, type */
    char *strings;
    size_t strings_len;
};

/* Forget the mounts (linux_mounts.c). */
void host_mounts_fini(struct host_mounts *mounts);

struct host_ctx {
    char *proc_root;
    int root_fd; /* directory of proc_root, or -1 when it could not be opened */
    long clock_ticks;
    long page_size;
    double identity_ttl_s; /* HOST_IDENTITY_TTL_S; tests shorten it */

    /* System CPU counters of the previous host_sample(). */
    bool have_previous_cpu;
    struct proc_cpu_times previous_total;
    struct proc_cpu_times *previous_per_cpu;
    struct proc_cpu_times *scratch_per_cpu; /* buffer for the current read */
    uint32_t per_cpu_capacity;
    uint32_t previous_cpu_count;
    uint32_t cpu_count;

    double boot_time;      /* NaN until known */
    uint64_t memory_total; /* NVT_NA_U64 until known */
    int nested_namespace;  /* -1 unknown, 0 the initial PID namespace, 1 a nested one */
    bool no_schedstat;     /* the kernel has no /proc/<pid>/schedstat (quiet_stat.c) */
    bool command_only;     /* identities keep no argument list (host_set_command_only()) */

    struct pid_cache pids;
    struct user_cache users;
    struct host_kept_file files[HOST_FILE_COUNT];
    struct host_mounts mounts;
};

/* Close the identity's kept files, if open (counted in cache->kept_fds), drop its reference to its
 * strings and free it; NULL is ignored. */
void process_identity_free(struct pid_cache *cache, struct process_identity *identity);

/* Close one kept descriptor of an identity, &identity->stat_fd, statm_fd or schedstat_fd, if
 * open. */
void process_identity_close_kept(struct pid_cache *cache, int *fd);

/* An identity's uids and its strings (one more reference, dropped by host_process_fini()) into a
 * reading, as a fresh reading and a kept one (linux_process_kept.c) both show them. */
void process_take_identity(struct host_process *p, const struct process_identity *identity);

/* The same for &identity->status_fd or cmdline_fd. */
void process_identity_close_text(struct pid_cache *cache, int *fd);

/* Hand the kept files of from, an older identity of the same process, to to where to has none of
 * that file; those left to from are closed when it is freed. */
void process_identity_move_kept(struct process_identity *to, struct process_identity *from);

/* Open dir_fd/path keeping the descriptor in *fd (&identity->stat_fd or statm_fd) while fewer
 * than cache->kept_max are kept, else only read it; as file_read_into(). */
int pid_cache_open_kept(struct pid_cache *cache, int *fd, int dir_fd, const char *path, char *buf,
                        size_t size);

/* Read dir_fd/path whole (at most cap bytes) into *out, *len bytes and a NUL: first (first_size
 * bytes) when it fits there, which most do with one read, else a fresh allocation (the caller
 * frees *out unless it is first); again from its start through *fd when that is kept (>= 0); with
 * keep, an
 * opened file (status or cmdline) is kept in *fd while those take at most half the budget (read
 * every few seconds, they leave the other half to stat and statm, read every pass) and the budget
 * is not used up.  0 or an errno value (EFBIG past cap); on failure nothing is allocated and *fd
 * is closed. */
int pid_cache_read_kept_alloc(struct pid_cache *cache, int *fd, int dir_fd, const char *path,
                              size_t cap, bool keep, char *first, size_t first_size, char **out,
                              size_t *len);

/* Start the cache with the default bounds and the descriptor budget of the soft RLIMIT_NOFILE. */
void pid_cache_init(struct pid_cache *cache);

/* End the current generation when it is full or old (HOST_GENERATION_MAX_*). */
void pid_cache_age(struct pid_cache *cache, double now_s);

/* The newest reading of pid, whatever its start time, in either generation; NULL if none. */
struct pid_cache_entry *pid_cache_find_pid(struct pid_cache *cache, uint32_t pid);

/* Look up the previous reading of (pid, start_ticks) in either generation; NULL if none.  The
 * caller may take the entry's identity (setting the field to NULL). */
struct pid_cache_entry *pid_cache_find(struct pid_cache *cache, uint32_t pid, uint64_t start_ticks);

/* The reading of pid (with its identity, whatever its start time) moved into the current
 * generation unchanged, so that it outlives the next rotation like one read in this pass; NULL
 * when there is none with an identity. */
struct pid_cache_entry *pid_cache_carry(struct pid_cache *cache, uint32_t pid);

/* Record a reading in the current generation; the cache takes entry->identity (and frees it when
 * the entry is replaced or forgotten).  Returns false when out of memory, the identity freed. */
bool pid_cache_store(struct pid_cache *cache, const struct pid_cache_entry *entry);

/* Make the current generation the previous one and start an empty current one; entries of the
 * old previous generation (not stored again in the current one) are forgotten. */
void pid_cache_rotate(struct pid_cache *cache);

void pid_cache_fini(struct pid_cache *cache);

/*
 * The parent of pid for the parent map (nvt_host_ppid_map()), from its stat file: that of a known
 * process (read in the last two passes, its identity kept) is read through its kept descriptor
 * (opened and kept within the budget, as host_process_read() would) and remembered for the rest
 * of the pass, so that host_process_read() of the same process in this pass takes that reading
 * instead of reading the file once more; any other is opened, read and closed.  False when the
 * file cannot be read or parsed (the process exited meanwhile, or the fixture is damaged).
 */
bool pass_stat_read_ppid(struct host_ctx *host, uint32_t pid, uint32_t *ppid);

/* Take the stat the parent map remembered for entry in this pass (once: a second reading of the
 * process in the same pass reads the file), with the time of its read; false when there is none
 * or it is older than cache->pass_stat_max_age_s. */
bool pass_stat_take(struct pid_cache *cache, struct pid_cache_entry *entry,
                    struct proc_pid_stat *stat, double *read_s);

/* Forget this pass's stats (at the end of a pass and before a new parent map). */
void pass_stat_clear(struct pid_cache *cache);

/* Read the file name ("stat", "statm" or "schedstat") of a known process into buf: again through
 * its kept descriptor *fd, or opened (and, with keep, kept within the pid cache's descriptor
 * budget).  0 or an errno value; a kept descriptor that failed (the process exited) is closed. */
int process_read_known_file(struct host_ctx *host, uint32_t pid, int *fd, const char *name,
                            bool keep, char *buf, size_t size);

/*
 * A single-threaded process that has not been on a CPU since its stat file was last read in full
 * has the same stat: its CPU times, state, thread count and name can change only while it runs
 * (only a running thread can start another, stop, exit or call exec()).  Its main thread's
 * schedstat, three numbers the kernel makes far more cheaply than stat's 52, tells whether it
 * ran: its time on a CPU and how many times it was put on one.
 *
 * quiet_stat_take() reads that file of an eligible process (its last stat showed one thread, not
 * running) through a descriptor kept within the pid cache's budget, into *sample (its read_s is
 * now, the caller's clock_monotonic_s() right before the call: one clock reading a process); when
 * its counters equal those read right before the last full stat, it fills *st from what that stat
 * said (comm and start_ticks excepted, which the caller knows) and returns true.  Otherwise
 * false: the caller reads stat, and then quiet_stat_keep() remembers that stat with the sample
 * (read before it) as the new base.  What can change while a process does not run, its parent
 * (when the parent exits) and its resident set (reclaimed), is read again when its status and
 * command line are due (HOST_IDENTITY_TTL_S): the caller reads stat in full then.  Where the kernel
 * has no schedstat (learnt from one process whose stat reads without it) nothing is read.
 */
bool quiet_stat_take(struct host_ctx *host, uint32_t pid, struct process_identity *identity,
                     double now, struct quiet_sample *sample, struct proc_pid_stat *st);
void quiet_stat_keep(struct host_ctx *host, struct process_identity *identity,
                     const struct quiet_sample *sample, const struct proc_pid_stat *st);

/* Whether the base was read before the identity's status and command line: a sample equal to it
 * (quiet_stat_take() true) then shows that the process has not run since they were read, so that
 * they cannot have changed (only the process itself changes its uids or its arguments). */
bool quiet_stat_before(const struct process_identity *identity);

/* Close every file an identity keeps (its process is gone or not ours to read any more). */
void process_identity_close_all(struct pid_cache *cache, struct process_identity *identity);

/* The user name of uid (a numeric string when it has no passwd entry), owned by the cache; NULL
 * only when out of memory. */
const char *users_name(struct user_cache *cache, uint32_t uid);

void users_fini(struct user_cache *cache);

/* Fill the memory and swap fields of *out from <proc root>/meminfo (N/A when unreadable) and
 * remember the physical total for host_memory_total(). */
void host_memory_sample(struct host_ctx *host, struct nvt_host_state *out);

/* The text of one of the host files (at most cap bytes), read through its kept descriptor; valid
 * until the next read of that file.  0 or an errno value (*text is then NULL). */
int host_read_kept(struct host_ctx *host, enum host_file which, size_t cap, const char **text);

/* As host_read_kept() for HOST_FILE_MOUNTS, but the text of the last read is given again, without
 * reading, while the kernel says the mount table has not changed since (poll(2) reports POLLPRI
 * on a mounts file of the proc file system after a change; a fixture tree's file is read each
 * time).  *changed tells whether this text differs from the one given last time, as far as
 * known (true after every actual read). */
int host_read_mounts(struct host_ctx *host, size_t cap, const char **text, bool *changed);

/* Read a file under the proc root into a fresh NUL-terminated allocation; errno-style result. */
int host_read_file(const struct host_ctx *host, const char *path, size_t cap, char **out,
                   size_t *len);

/* Boot time from /proc/stat btime (read on demand); NaN when unknown. */
double host_boot_time(struct host_ctx *host);

/* How a failed open or read of a process's files shows: EACCES and EPERM mean
 * NVT_HOST_NO_PERMISSION, anything else (ENOENT, ESRCH, ...) NVT_HOST_GONE. */
enum nvt_host_status host_status_of_errno(int err);

/* True when we run in a PID namespace other than the initial one (a container without
 * --pid=host), so that host PIDs from the driver may be invisible to us. */
bool host_in_nested_pid_namespace(struct host_ctx *host);

#endif /* NVITOP_SRC_LIB_HOST_LINUX_INTERNAL_H */
