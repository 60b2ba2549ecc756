/*
 * nvt-standins: starts the many stand-in jobs of scripts/standins.sh (more than 64 of them, for
 * the scenarios with hundreds or thousands of GPU processes) for a fifth of the CPU that a perl
 * start costs each (3.6 ms against 20 ms here).
 *
 *   nvt-standins COUNT RECORD
 *
 * Each stand-in is this program again, executed with the command line
 * `perl -e sleep worker.pl --pool gpu<i % 16> --slot <i>` and named "perl" (the name
 * /proc/<pid>/stat and status show), so that the monitor, the recorder and the tests see
 * exactly what the perl stand-ins of standins.sh's fallback show; it sleeps until a signal ends
 * it.  A stand-in says it is ready (named, its signals set) by closing descriptor 3, the write
 * end of a pipe the launcher waits on.  RECORD gets one "<i> <pid> <start-time>" line per
 * stand-in, the start time being field 22 of /proc/<pid>/stat, as standins.sh's stop and list
 * expect.  Exit status 0 when every stand-in started, 1 otherwise (those started stay, and are
 * in RECORD, so that `standins.sh stop` ends them).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    READY_FD = 3,
    MAX_COUNT = 100000
};

/* The stand-in itself: the name perl, the default end on SIGTERM and SIGINT (a caller may have
 * ignored them, and `standins.sh stop` sends SIGTERM), ready, then asleep for good. */
_Noreturn static void be_standin(void) {
    (void)prctl(PR_SET_NAME, "perl", 0, 0, 0);
    (void)signal(SIGTERM, SIG_DFL);
    (void)signal(SIGINT, SIG_DFL);
    (void)close(READY_FD);
    for (;;) {
        (void)pause();
    }
}

/* Field 22 of /proc/<pid>/stat (the start time in clock ticks), counted after the last ')' since
 * the command name may hold spaces and parentheses; "" when the process is gone. */
static void start_time(pid_t pid, char *out, size_t size) {
    char path[64];
    char line[1024];
    out[0] = '\0';
    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
    FILE *stat = fopen(path, "re");
    if (stat == NULL) {
        return;
    }
    const char *fields = fgets(line, sizeof(line), stat) != NULL ? strrchr(line, ')') : NULL;
    fclose(stat);
    if (fields == NULL) {
        return;
    }
    /* After ')': field 3 (the state) is the first; field 22 is the 20th. */
    const char *p = fields + 1;
    for (int field = 3; field < 22 && p != NULL; field++) {
        p = strchr(p + 1, ' ');
    }
    if (p != NULL) {
        snprintf(out, size, "%.*s", (int)strcspn(p + 1, " \n"), p + 1);
    }
}

/* In the child: /dev/null for the standard streams, the ready pipe as descriptor 3, then this
 * program under the stand-in's command line.  Never returns. */
static void exec_standin(long slot, int ready) {
    int null = open("/dev/null", O_RDWR);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) {
        _exit(127);
    }
    /* dup2() clears close-on-exec on its copy, but not when the pipe is descriptor 3 already. */
    if (ready == READY_FD ? fcntl(ready, F_SETFD, 0) != 0 : dup2(ready, READY_FD) < 0) {
        _exit(127);
    }
    char pool[32];
    char number[32];
    snprintf(pool, sizeof(pool), "gpu%ld", slot % 16);
    snprintf(number, sizeof(number), "%ld", slot);
    char perl[] = "perl", e[] = "-e", sleep[] = "sleep", worker[] = "worker.pl";
    char pool_flag[] = "--pool", slot_flag[] = "--slot";
    char *const argv[] = {perl, e, sleep, worker, pool_flag, pool, slot_flag, number, NULL};
    execv("/proc/self/exe", argv);
    _exit(127);
}

/* Starts stand-in `slot` and waits until it is ready; its pid, or -1. */
static pid_t start_standin(long slot) {
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) {
        perror("nvt-standins: pipe");
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        exec_standin(slot, ready[1]);
    }
    close(ready[1]);
    if (pid < 0) {
        perror("nvt-standins: fork");
        close(ready[0]);
        return -1;
    }
    char byte;
    ssize_t n;
    while ((n = read(ready[0], &byte, 1)) < 0 && errno == EINTR) {
    }
    close(ready[0]);
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) {
        fprintf(stderr, "nvt-standins: stand-in %ld did not start\n", slot);
        return -1;
    }
    return pid;
}

int main(int argc, char **argv) {
    if (argc > 0 && strcmp(argv[0], "perl") == 0) {
        be_standin();
    }
    char *end = NULL;
    long count = argc == 3 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 3 || end == argv[1] || *end != '\0' || count < 1 || count > MAX_COUNT) {
        fprintf(stderr, "usage: nvt-standins COUNT RECORD (COUNT from 1 to %d)\n", MAX_COUNT);
        return 2;
    }
    FILE *record = fopen(argv[2], "we");
    if (record == NULL) {
        fprintf(stderr, "nvt-standins: %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    int rc = 0;
    for (long slot = 1; slot <= count && rc == 0; slot++) {
        pid_t pid = start_standin(slot);
        if (pid < 0) {
            rc = 1;
            break;
        }
        char started[32];
        start_time(pid, started, sizeof(started));
        fprintf(record, "%ld %ld %s\n", slot, (long)pid, started);
    }
    if (fclose(record) != 0) {
        fprintf(stderr, "nvt-standins: %s: %s\n", argv[2], strerror(errno));
        rc = 1;
    }
    return rc;
}
