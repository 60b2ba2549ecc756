/*
 * bench-tree: one rebuild of the monitor's tree view (docs/nvitop-behaviour.md §3.8) over a /proc
 * fixture of 10,000 processes (more with more jobs), against a floor measured in the same run: a
 * loop that lists the fixture and reads each <pid>/stat once, without parsing (the least any tree
 * of /proc parent links costs). The rebuild is what the tree screen does for each new process
 * snapshot: the parent map (nvt_host_ppid_map), the ancestors and direct children of the GPU
 * processes read through a host-only context, and the rows (view_process_tree_build).  Target: at
 * most 2x the floor. Prints figures and the ratio; never fails on a time.
 *
 *   usage: bench-tree [ROUNDS [JOBS]]
 *
 * The fixture (made in a temporary directory, $TMPDIR or /tmp, and removed afterwards; the
 * floor is that of the file system it is on): pid 1, ten daemons, JOBS
 * (default 100) job scripts under the first daemon, each with one GPU process that has four
 * workers, and idle processes under the other daemons up to 10,000 in all (or 1,000 more than
 * the jobs' processes, when those are more).  The rebuild's cost per process (of the host, and
 * per GPU process) is printed for the comparison across sizes (scripts/bench.sh runs 20, 1,000
 * and 4,000 jobs).  Two rebuilds before the rounds meet every process (the first reads all its
 * files, and is printed); the rounds are the rebuild the tree screen repeats at every refresh.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "bench_util.h"
#include "util/sys/clock.h"
#include "view/processes/process_tree.h"

#define PROCESSES      10000
#define DEFAULT_JOBS   100
#define WORKERS        4
#define JOB_BASE       100
#define DEFAULT_ROUNDS 20

/* The fixture's size. */
struct fixture_size {
    unsigned jobs;      /* GPU processes, each under a job script and over WORKERS workers */
    unsigned processes; /* all processes */
};

static void write_file(const char *dir, const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench-tree: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

/* One process directory: stat, status (with the resident set, as every process but a kernel
 * thread has), statm and cmdline, as the library reads them. */
static void add_process(const char *root, unsigned pid, unsigned ppid, const char *name,
                        const char *cmdline, size_t cmdline_len) {
    char dir[512];
    snprintf(dir, sizeof(dir), "%s/%u", root, pid);
    if (mkdir(dir, 0755) != 0) {
        fprintf(stderr, "bench-tree: mkdir %s: %s\n", dir, strerror(errno));
        exit(1);
    }
    char text[1024];
    snprintf(text, sizeof(text),
             "%u (%s) S %u %u %u 0 -1 4194304 100 0 0 0 200 30 0 0 20 0 2 0 %u 123456789 2500 "
             "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
             pid, name, ppid, pid, pid, 100000 + pid);
    write_file(dir, "stat", text);
    snprintf(text, sizeof(text),
             "Name:\t%s\nState:\tS (sleeping)\nTgid:\t%u\nPid:\t%u\nPPid:\t%u\n"
             "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nVmRSS:\t   10000 kB\nThreads:\t2\n",
             name, pid, pid, ppid);
    write_file(dir, "status", text);
    write_file(dir, "statm", "30000 2500 500 100 0 3000 0\n");
    char path[600];
    snprintf(path, sizeof(path), "%s/cmdline", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL || fwrite(cmdline, 1, cmdline_len, f) != cmdline_len || fclose(f) != 0) {
        fprintf(stderr, "bench-tree: cannot write %s\n", path);
        exit(1);
    }
}

static void make_fixture(const char *root, const struct fixture_size *size) {
    write_file(root, "stat", "cpu  1000 0 500 8000 500 0 0 0 0 0\nbtime 1700000000\n");
    write_file(root, "uptime", "12345.67 20000.00\n");
    write_file(root, "meminfo",
               "MemTotal:       16000000 kB\nMemFree:         4000000 kB\n"
               "MemAvailable:   10000000 kB\n");
    unsigned count = 0;
    add_process(root, 1, 0, "init", "/sbin/init\0", 11);
    count++;
    for (unsigned d = 2; d <= 11; d++, count++) {
        add_process(root, d, 1, "daemon", "/usr/sbin/daemon\0--foreground\0", 30);
    }
    static const char job[] = "/bin/sh\0job.sh\0";
    static const char gpu[] = "python3\0train.py\0--epochs\0100\0";
    static const char worker[] = "python3\0-m\0worker\0";
    for (unsigned j = 0; j < size->jobs; j++) {
        unsigned base = JOB_BASE + j * 10;
        add_process(root, base, 2, "sh", job, sizeof(job) - 1);
        add_process(root, base + 1, base, "python3", gpu, sizeof(gpu) - 1);
        for (unsigned w = 0; w < WORKERS; w++) {
            add_process(root, base + 2 + w, base + 1, "python3", worker, sizeof(worker) - 1);
        }
        count += 2 + WORKERS;
    }
    static const char idle[] = "sleep\0infinity\0";
    for (unsigned pid = JOB_BASE + size->jobs * 10; count < size->processes; pid++, count++) {
        add_process(root, pid, 3 + pid % 9, "sleep", idle, sizeof(idle) - 1);
    }
}

static void remove_fixture(const char *root) {
    char command[600];
    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    if (system(command) != 0) {
        fprintf(stderr, "bench-tree: could not remove %s\n", root);
    }
}

/* The floor: list the fixture and read each <pid>/stat once. */
static size_t floor_pass(const char *root) {
    DIR *dir = opendir(root);
    if (dir == NULL) {
        return 0;
    }
    int root_fd = dirfd(dir);
    size_t read_count = 0;
    char buf[4096];
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') {
            continue;
        }
        char path[300];
        snprintf(path, sizeof(path), "%s/stat", e->d_name);
        int fd = openat(root_fd, path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        if (read(fd, buf, sizeof(buf)) > 0) {
            read_count++;
        }
        close(fd);
    }
    closedir(dir);
    return read_count;
}

static struct nvt_host_process *read_process(void *arg, uint32_t pid) {
    struct nvt_host_process *process = NULL;
    return nvt_host_process_read(arg, pid, &process) == NVT_OK ? process : NULL;
}

/* The GPU processes as a process snapshot gives them to the tree: host data read beforehand. */
struct gpu_table {
    unsigned count;
    struct nvt_gpu_process *processes;
    struct nvt_host_process **hosts;
    struct view_process_row *rows;
    struct view_process_table table;
};

static void gpu_table_fini(struct gpu_table *t) {
    for (unsigned j = 0; t->hosts != NULL && j < t->count; j++) {
        nvt_host_process_free(t->hosts[j]);
    }
    free(t->processes);
    free(t->hosts);
    free(t->rows);
}

static int gpu_table_init(nvt_context *ctx, unsigned jobs, struct gpu_table *t) {
    memset(t, 0, sizeof(*t));
    t->count = jobs;
    t->processes = calloc(jobs, sizeof(*t->processes));
    t->hosts = calloc(jobs, sizeof(*t->hosts));
    t->rows = calloc(jobs, sizeof(*t->rows));
    if (t->processes == NULL || t->hosts == NULL || t->rows == NULL) {
        return -1;
    }
    for (unsigned j = 0; j < jobs; j++) {
        uint32_t pid = JOB_BASE + j * 10 + 1;
        if (nvt_host_process_read(ctx, pid, &t->hosts[j]) != NVT_OK) {
            return -1;
        }
        t->processes[j].pid = pid;
        t->processes[j].device = j % 8;
        t->processes[j].host = *t->hosts[j];
        t->rows[j].process = &t->processes[j];
        t->rows[j].device_slot = j % 8;
        snprintf(t->rows[j].display_index, sizeof(t->rows[j].display_index), "%u", j % 8);
    }
    t->table.rows = t->rows;
    t->table.count = jobs;
    return 0;
}

static size_t tree_pass(nvt_context *ctx, const struct gpu_table *t,
                        const struct view_config *config) {
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    if (nvt_host_ppid_map(ctx, &pids, &ppids, &count) != NVT_OK) {
        return 0;
    }
    struct view_process_tree tree;
    view_process_tree_build(&t->table, pids, ppids, count, read_process, ctx, config, &tree);
    free(pids);
    nvt_host_process_pass_end(ctx);
    size_t rows = tree.count;
    view_process_tree_fini(&tree);
    return rows;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : DEFAULT_ROUNDS;
    rounds = rounds < 1 ? 1 : rounds;
    int jobs = argc > 2 ? atoi(argv[2]) : DEFAULT_JOBS;
    if (jobs < 1 || jobs > 100000) {
        fprintf(stderr, "usage: bench-tree [ROUNDS [JOBS (1 to 100000)]]\n");
        return 2;
    }
    struct fixture_size size = {(unsigned)jobs, PROCESSES};
    if (11 + size.jobs * (2 + WORKERS) + 1000 > size.processes) {
        size.processes = 11 + size.jobs * (2 + WORKERS) + 1000;
    }
    const char *tmpdir = getenv("TMPDIR");
    char root[512];
    snprintf(root, sizeof(root), "%s/nvt-bench-tree.XXXXXX",
             tmpdir != NULL && tmpdir[0] != '\0' ? tmpdir : "/tmp");
    if (mkdtemp(root) == NULL) {
        perror("bench-tree: mkdtemp");
        return 1;
    }
    make_fixture(root, &size);
    struct nvt_options options;
    nvt_options_init(&options);
    options.proc_root = root;
    options.host_only = true;
    nvt_context *ctx = NULL;
    struct gpu_table table_storage;
    struct gpu_table *table = &table_storage;
    if (nvt_open(&options, &ctx) != NVT_OK || gpu_table_init(ctx, size.jobs, table) != 0) {
        fprintf(stderr, "bench-tree: cannot open the fixture\n");
        gpu_table_fini(table);
        nvt_close(ctx);
        remove_fixture(root);
        return 1;
    }
    struct view_config config = {.user_name = "root"};
    double *floor_s = calloc((size_t)rounds, sizeof(double));
    double *tree_s = calloc((size_t)rounds, sizeof(double));
    size_t stats = 0;
    size_t rows = 0;
    /* The first rebuilds meet every process: the first reads its status and cmdline, the second
     * pairs its resident set with its stat (a statm read); the monitor pays them once, when the
     * tree screen opens.  The rounds measure the rebuild of every refresh after that. */
    double first_start = clock_monotonic_s();
    tree_pass(ctx, table, &config);
    double first_s = clock_monotonic_s() - first_start;
    tree_pass(ctx, table, &config);
    /* Interleaved rounds, so that both sides see the same cache and machine load. */
    for (int r = 0; r < rounds; r++) {
        double t0 = clock_monotonic_s();
        stats = floor_pass(root);
        double t1 = clock_monotonic_s();
        rows = tree_pass(ctx, table, &config);
        double t2 = clock_monotonic_s();
        floor_s[r] = t1 - t0;
        tree_s[r] = t2 - t1;
    }
    double floor_median = bench_median(floor_s, (size_t)rounds);
    double tree_median = bench_median(tree_s, (size_t)rounds);
    printf("tree view rebuild over a /proc fixture of %u processes (%u GPU processes), %d rounds\n",
           size.processes, size.jobs, rounds);
    printf("  floor (list + read each <pid>/stat once): %8.2f ms  (%zu stat files)\n",
           floor_median * 1e3, stats);
    printf("  tree rebuild (ppid map + reads + rows):   %8.2f ms  (%zu rows)\n", tree_median * 1e3,
           rows);
    printf("  ratio: %.2fx (target: at most 2x)\n", tree_median / floor_median);
    printf("  first rebuild (every process read in full): %.2f ms\n", first_s * 1e3);
    printf("  per process: %.2f us of the rebuild for each process of the host, %.2f us for each "
           "GPU process\n",
           tree_median * 1e6 / (double)size.processes, tree_median * 1e6 / (double)size.jobs);
    gpu_table_fini(table);
    free(floor_s);
    free(tree_s);
    nvt_close(ctx);
    remove_fixture(root);
    return 0;
}
