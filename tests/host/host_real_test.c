/* The host back-end and the public process functions against the real /proc: this process, and
 * children it forks with known command lines and environments. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/process.h>

#include "host.h"
#include "linux_internal.h"
#include "nvt_cmocka.h"
#include "test_clock.h"

/* Poll with a generous deadline: children start and exit at the pace of a loaded machine. */
#define POLL_LIMIT_S 60.0

static void pause_briefly(void) {
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

static int setup(void **state) {
    struct host_ctx *host = NULL;
    if (host_open(NULL, &host) != NVT_OK) {
        return -1;
    }
    *state = host;
    return 0;
}

static int teardown(void **state) {
    host_close(*state);
    return 0;
}

/* Start "sleep 30" with a known environment; the child execs, so its /proc entry changes: wait
 * until the command line is the new one. */
static pid_t spawn_sleeper(struct host_ctx *host) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* -Wwrite-strings: execve() wants writable strings. */
        char arg0[] = "sleep";
        char arg1[] = "30";
        char env0[] = "NVT_TEST_MARK=a b";
        char env1[] = "EMPTY=";
        char env2[] = "PATH=/usr/bin:/bin";
        char *const argv[] = {arg0, arg1, NULL};
        char *const envp[] = {env0, env1, env2, NULL};
        execve("/bin/sleep", argv, envp);
        _exit(127);
    }
    double deadline = test_now_s() + POLL_LIMIT_S;
    for (;;) {
        struct host_process p;
        assert_int_equal(host_process_read(host, (uint32_t)pid, &p), NVT_OK);
        bool ready = p.pub.status == NVT_HOST_OK && strcmp(p.pub.name, "sleep") == 0;
        host_process_fini(&p);
        if (ready) {
            return pid;
        }
        assert_true(test_now_s() < deadline);
        pause_briefly();
    }
}

static void reap(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
}

static void test_self(void **state) {
    struct host_process p;
    assert_int_equal(host_process_read(*state, (uint32_t)getpid(), &p), NVT_OK);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_int_equal(p.pub.ppid, (uint32_t)getppid());
    assert_int_equal(p.pub.uid, (uint32_t)getuid());
    assert_int_equal(p.pub.uid_effective, (uint32_t)geteuid());
    assert_int_equal(p.pub.uid_saved, (uint32_t)geteuid());
    struct passwd *pw = getpwuid(getuid());
    if (pw != NULL) {
        assert_string_equal(p.pub.user, pw->pw_name);
    }
    assert_string_equal(p.pub.name, "host_real_test");
    assert_true(p.pub.cmdline_count >= 1);
    assert_non_null(strstr(p.pub.cmdline[0], "host_real_test"));
    assert_true(p.pub.rss_bytes > 0 && p.pub.rss_bytes != NVT_NA_U64);
    assert_true(p.pub.memory_percent > 0.0 && p.pub.memory_percent < 100.0);
    assert_true(p.pub.num_threads >= 1);
    assert_true(p.pub.cpu_percent >= 0.0);
    assert_true(p.pub.running_time_s >= 0.0 && p.pub.running_time_s < 3600.0);
    host_process_fini(&p);
}

static void test_child(void **state) {
    pid_t pid = spawn_sleeper(*state);
    struct host_process p;
    assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
    assert_int_equal(p.pub.status, NVT_HOST_OK);
    assert_int_equal(p.pub.ppid, (uint32_t)getpid());
    assert_string_equal(p.pub.command, "sleep 30");
    assert_int_equal(p.pub.cmdline_count, 2);
    assert_int_equal(p.pub.num_threads, 1);
    assert_true(p.pub.state != 0 && p.pub.state != 'Z');
    host_process_fini(&p);
    reap(pid);
}

static void test_zombie_then_gone(void **state) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        _exit(0);
    }
    double deadline = test_now_s() + POLL_LIMIT_S;
    struct host_process p;
    for (;;) {
        assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
        if (p.pub.state == 'Z') {
            break;
        }
        host_process_fini(&p);
        assert_true(test_now_s() < deadline);
        pause_briefly();
    }
    assert_int_equal(p.pub.status, NVT_HOST_ZOMBIE);
    host_process_fini(&p);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
    assert_true(p.pub.status == NVT_HOST_GONE || p.pub.status == NVT_HOST_NOT_IN_NAMESPACE);
    assert_int_equal(p.pub.ppid, NVT_NA_U32);
    host_process_fini(&p);
}

static size_t open_fd_count(void) {
    DIR *dir = opendir("/proc/self/fd");
    assert_non_null(dir);
    size_t count = 0;
    while (readdir(dir) != NULL) {
        count++;
    }
    closedir(dir);
    return count;
}

/* statm's resident pages of pid, in bytes (psutil's memory_info().rss). */
static uint64_t statm_rss_bytes(pid_t pid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    unsigned long long size = 0;
    unsigned long long resident = 0;
    assert_int_equal(fscanf(file, "%llu %llu", &size, &resident), 2);
    fclose(file);
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The state letter of pid from its stat file ('?' when unreadable). */
static char stat_state(pid_t pid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return '?';
    }
    char text[512];
    size_t n = fread(text, 1, sizeof(text) - 1, file);
    fclose(file);
    text[n] = '\0';
    const char *close = strrchr(text, ')');
    return close != NULL && close[1] == ' ' ? close[2] : '?';
}

/* Wait until pid sleeps with a resident set that no longer moves: sleep(1) maps and touches its
 * libraries for a while after its name has changed (spawn_sleeper() waits for that only). */
static void wait_settled(pid_t pid) {
    double deadline = test_now_s() + POLL_LIMIT_S;
    uint64_t last = 0;
    for (;;) {
        uint64_t now = statm_rss_bytes(pid);
        if (stat_state(pid) == 'S' && now == last) {
            return;
        }
        last = now;
        assert_true(test_now_s() < deadline);
        pause_briefly();
    }
}

/* The resident set is psutil's (statm), not stat's approximate count, on the first read and on
 * the kept files' reads after it (a sleeping process's figures stay put). */
static void test_rss_as_psutil(void **state) {
    pid_t pid = spawn_sleeper(*state);
    wait_settled(pid);
    for (int pass = 0; pass < 3; pass++) {
        host_generation_end(*state);
        struct host_process p;
        assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
        assert_int_equal(p.pub.rss_bytes, statm_rss_bytes(pid));
        host_process_fini(&p);
    }
    reap(pid);
}

/* A process read pass after pass keeps its stat file open, and its status and cmdline for the
 * next reading of its identity; once it has exited the read says so and they are closed. */
static void test_kept_stat_file(void **state) {
    /* A first read opens the host files every sample keeps open (uptime, meminfo). */
    struct host_process self;
    assert_int_equal(host_process_read(*state, (uint32_t)getpid(), &self), NVT_OK);
    host_process_fini(&self);
    /* ...and keeps its own status and cmdline until it is forgotten, two generations on. */
    host_generation_end(*state);
    host_generation_end(*state);
    size_t before = open_fd_count();
    /* No identity falls due while the child execs (slow under a sanitizer on a loaded machine). */
    struct host_ctx *host = *state;
    host->identity_ttl_s = 3600.0;
    pid_t pid = spawn_sleeper(*state);
    /* Forget what spawn_sleeper() read, perhaps in the middle of the exec (an identity without a
     * command line is read again at the next reading, which keeps status and cmdline): the passes
     * below start from a first reading of the settled process. */
    wait_settled(pid);
    host_generation_end(*state);
    host_generation_end(*state);
    host_generation_end(*state);
    struct host_process p;
    for (int pass = 0; pass < 3; pass++) {
        host_generation_end(*state);
        assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
        assert_int_equal(p.pub.status, NVT_HOST_OK);
        assert_string_equal(p.pub.command, "sleep 30");
        host_process_fini(&p);
    }
    /* Its stat file, kept from the second read on, and its statm unless stat's resident count
     * stayed the same since the first read (then statm is not read again, so not opened), and its
     * schedstat where the kernel has one (a sleeping single-threaded process: quiet_stat.c); its
     * status and cmdline are kept from their next reading, when its identity is due. */
    size_t schedstat = access("/proc/self/schedstat", R_OK) == 0 ? 1 : 0;
    size_t kept = open_fd_count();
    assert_true(kept == before + schedstat + 1 || kept == before + schedstat + 2);
    host_generation_end(*state);
    host->identity_ttl_s = 0.0;
    assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
    assert_string_equal(p.pub.command, "sleep 30");
    host_process_fini(&p);
    kept = open_fd_count();
    assert_true(kept == before + schedstat + 3 || kept == before + schedstat + 4);
    reap(pid);
    host_generation_end(*state);
    assert_int_equal(host_process_read(*state, (uint32_t)pid, &p), NVT_OK);
    assert_true(p.pub.status == NVT_HOST_GONE || p.pub.status == NVT_HOST_NOT_IN_NAMESPACE);
    host_process_fini(&p);
    assert_int_equal(open_fd_count(), before);
}

static void test_public_read_and_environ(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    pid_t pid = spawn_sleeper(*state);
    host_generation_end(*state);
    host_generation_end(*state);
    struct nvt_host_process *p = NULL;
    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)pid, &p), NVT_OK);
    /* First reading of this (pid, start time) in the context: N/A, not a lifetime figure. */
    assert_true(isnan(p->cpu_percent));
    assert_string_equal(p->command, "sleep 30");
    assert_string_equal(p->cmdline[1], "30");
    nvt_host_process_free(p);
    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)pid, &p), NVT_OK);
    assert_true(p->cpu_percent >= 0.0);
    nvt_host_process_free(p);

    char **env = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_process_environ(ctx, (uint32_t)pid, &env, &count), NVT_OK);
    assert_int_equal(count, 3);
    assert_string_equal(env[0], "NVT_TEST_MARK=a b");
    assert_string_equal(env[1], "EMPTY=");
    assert_string_equal(env[2], "PATH=/usr/bin:/bin");
    assert_null(env[3]);
    free(env);

    char cwd[4096];
    char expected[4096];
    assert_int_equal(nvt_host_process_cwd(ctx, (uint32_t)getpid(), cwd, sizeof(cwd)), NVT_OK);
    assert_non_null(getcwd(expected, sizeof(expected)));
    assert_string_equal(cwd, expected);
    char tiny[4];
    assert_int_equal(nvt_host_process_cwd(ctx, (uint32_t)getpid(), tiny, sizeof(tiny)), NVT_OK);
    assert_int_equal(strlen(tiny), 3);
    reap(pid);
    assert_int_equal(nvt_host_process_cwd(ctx, (uint32_t)pid, cwd, sizeof(cwd)),
                     NVT_ERR_NO_SUCH_PROCESS);

    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)pid, &p), NVT_ERR_NO_SUCH_PROCESS);
    assert_null(p);
    assert_int_equal(nvt_host_process_environ(ctx, (uint32_t)pid, &env, &count),
                     NVT_ERR_NO_SUCH_PROCESS);
    nvt_host_process_free(NULL);
}

static void test_signal_checks_identity(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    pid_t pid = spawn_sleeper(*state);
    struct nvt_host_process *p = NULL;
    assert_int_equal(nvt_host_process_read(ctx, (uint32_t)pid, &p), NVT_OK);
    double create_time = p->create_time;
    nvt_host_process_free(p);

    /* A different start time means a recycled pid: no signal. */
    assert_int_equal(nvt_process_signal(ctx, (uint32_t)pid, create_time - 1.0, SIGTERM),
                     NVT_ERR_NO_SUCH_PROCESS);
    assert_int_equal(kill(pid, 0), 0);
    assert_int_equal(nvt_process_signal(ctx, 0, create_time, SIGTERM), NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_process_signal(ctx, UINT32_MAX, create_time, SIGTERM),
                     NVT_ERR_INVALID_ARGUMENT);
    assert_int_equal(nvt_process_signal(ctx, (uint32_t)pid, create_time, 12345),
                     NVT_ERR_INVALID_ARGUMENT);

    assert_int_equal(nvt_process_signal(ctx, (uint32_t)pid, create_time + 0.005, SIGTERM), NVT_OK);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
    assert_int_equal(nvt_process_signal(ctx, (uint32_t)pid, create_time, SIGTERM),
                     NVT_ERR_NO_SUCH_PROCESS);
}

static void test_ppid_map(void **state) {
    nvt_context *ctx = (nvt_context *)*state;
    pid_t child = spawn_sleeper(*state);
    uint32_t *pids = NULL;
    uint32_t *ppids = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_ppid_map(ctx, &pids, &ppids, &count), NVT_OK);
    bool found_self = false;
    bool found_child = false;
    for (size_t i = 0; i < count; i++) {
        if (pids[i] == (uint32_t)getpid()) {
            found_self = ppids[i] == (uint32_t)getppid();
        }
        if (pids[i] == (uint32_t)child) {
            found_child = ppids[i] == (uint32_t)getpid();
        }
    }
    assert_true(found_self);
    assert_true(found_child);
    free(pids);
    reap(child);
}

/* Exit codes of the namespace probe below. */
enum {
    PROBE_OK = 0,
    PROBE_SKIP = 77,
    PROBE_WRONG = 1
};

/* In a fresh PID namespace with its own /proc (a container without --pid=host), a host pid must
 * read as NOT_IN_NAMESPACE.  Runs in the grandchild: pid 1 of the new namespace. */
static int probe_in_namespace(uint32_t host_pid) {
    if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
        return PROBE_SKIP;
    }
    struct host_ctx *host = NULL;
    if (host_open(NULL, &host) != NVT_OK) {
        return PROBE_WRONG;
    }
    struct host_process p;
    int result = PROBE_WRONG;
    if (host_process_read(host, host_pid, &p) == NVT_OK &&
        p.pub.status == NVT_HOST_NOT_IN_NAMESPACE) {
        result = PROBE_OK;
    }
    host_process_fini(&p);
    host_close(host);
    return result;
}

static void test_nested_pid_namespace(void **state) {
    (void)state;
    /* A pid that exists on the host but, being ours, not inside a new namespace. */
    uint32_t host_pid = (uint32_t)getpid();
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        /* Creating namespaces needs privileges (root, or user namespaces): skip without them. */
        if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) {
            _exit(PROBE_SKIP);
        }
        pid_t inner = fork();
        if (inner < 0) {
            _exit(PROBE_SKIP);
        }
        if (inner == 0) {
            _exit(probe_in_namespace(host_pid));
        }
        int status = 0;
        waitpid(inner, &status, 0);
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : PROBE_WRONG);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == PROBE_SKIP) {
        skip();
    }
    assert_int_equal(WEXITSTATUS(status), PROBE_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_self, setup, teardown),
        cmocka_unit_test_setup_teardown(test_child, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zombie_then_gone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kept_stat_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rss_as_psutil, setup, teardown),
        cmocka_unit_test_setup_teardown(test_public_read_and_environ, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_checks_identity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ppid_map, setup, teardown),
        cmocka_unit_test(test_nested_pid_namespace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
