/*
 * The CUDA driver in a helper process (nvitop-cuda-probe), started with posix_spawn: unlike
 * fork() in a threaded caller, nothing runs in a copy of the caller's address space but the
 * exec, atfork handlers do not run, and the helper gets a minimal environment and no descriptor
 * but its three standard ones.  It writes one line per visible device followed by "END", or
 * exits with a code that says what went wrong; we read the pipe with a deadline, then reap it.
 */
#include "cuda/cuda_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/sys/clock.h"
#include "util/text/strbuf.h"

/* Where the build installed the helper (lib.cmake). */
#ifndef NVT_CUDA_PROBE_PATH
#define NVT_CUDA_PROBE_PATH "/usr/local/libexec/nvitop/nvitop-cuda-probe"
#endif

/* The caller's variables the helper needs besides CUDA_VISIBLE_DEVICES: CUDA's device order and
 * where the loader finds libcuda when it is not in the system's search path. */
static const char *const PASSED_VARIABLES[] = {"CUDA_DEVICE_ORDER", "LD_LIBRARY_PATH"};
#define PASSED_COUNT (ARRAY_SIZE(PASSED_VARIABLES))

/* Read everything until EOF or the deadline.  Returns false on timeout, error or no memory. */
static bool read_output(int fd, struct strbuf *out, bool *oom) {
    double deadline = clock_monotonic_s() + CUDA_CHILD_TIMEOUT_MS / 1000.0;
    for (;;) {
        double left_s = deadline - clock_monotonic_s();
        int left = left_s > 0.0 ? (int)(left_s * 1000.0) + 1 : 0;
        if (left <= 0) {
            return false;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int ready = poll(&pfd, 1, left);
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready <= 0) {
            return false;
        }
        char buffer[512];
        ssize_t n = read(fd, buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return false;
        }
        if (n == 0) {
            return true;
        }
        if (out->len + (size_t)n > 1U << 20 || !strbuf_append(out, buffer, (size_t)n)) {
            *oom = out->len + (size_t)n <= 1U << 20;
            return false;
        }
    }
}

static int reap(pid_t pid, bool kill_first) {
    if (kill_first) {
        kill(pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return -1; /* ECHILD: the caller ignores SIGCHLD, the kernel reaped it */
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* "uuid\nuuid\nEND\n" -> "uuid,uuid" in place; false when the terminator is missing. */
static bool to_list(char *text) {
    char *end = strstr(text, "END\n");
    if (end == NULL || (end != text && end[-1] != '\n')) {
        return false;
    }
    *end = '\0';
    size_t len = strlen(text);
    if (len > 0 && text[len - 1] == '\n') {
        text[--len] = '\0';
    }
    for (char *p = text; *p != '\0'; p++) {
        if (*p == '\n') {
            *p = ',';
        }
    }
    return true;
}

/* "NAME=value" in a fresh allocation; NULL when out of memory. */
static char *env_entry(const char *name, const char *value) {
    size_t size = strlen(name) + strlen(value) + 2;
    char *entry = malloc(size);
    if (entry != NULL) {
        snprintf(entry, size, "%s=%s", name, value);
    }
    return entry;
}

/* The helper's environment: CUDA_VISIBLE_DEVICES and PASSED_VARIABLES, NULL-terminated.  False
 * when out of memory (what was built is freed by env_free all the same). */
static bool env_build(char **env, const char *value) {
    size_t n = 0;
    if (value != NULL && (env[n++] = env_entry("CUDA_VISIBLE_DEVICES", value)) == NULL) {
        return false;
    }
    for (size_t i = 0; i < PASSED_COUNT; i++) {
        const char *passed = getenv(PASSED_VARIABLES[i]);
        if (passed != NULL && (env[n++] = env_entry(PASSED_VARIABLES[i], passed)) == NULL) {
            return false;
        }
    }
    return true;
}

static void env_free(char **env) {
    for (size_t i = 0; env[i] != NULL; i++) {
        free(env[i]);
    }
}

/* stdin and stderr on /dev/null, stdout the pipe's write end, nothing else open. */
static int file_actions(posix_spawn_file_actions_t *actions, int out_fd) {
    int err = posix_spawn_file_actions_init(actions);
    if (err != 0) {
        return err;
    }
    err = posix_spawn_file_actions_addopen(actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (err == 0) {
        err = posix_spawn_file_actions_adddup2(actions, out_fd, STDOUT_FILENO);
    }
    if (err == 0) {
        err = posix_spawn_file_actions_addopen(actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    /* Descriptors the caller opened without O_CLOEXEC; the helper closes them too. */
    if (err == 0) {
        err = posix_spawn_file_actions_addclosefrom_np(actions, STDERR_FILENO + 1);
    }
#endif
    if (err != 0) {
        posix_spawn_file_actions_destroy(actions);
    }
    return err;
}

/* No signal blocked, every signal at its default action: the caller's signal mask and ignored
 * signals are its own business, not the helper's. */
static int spawn_attributes(posix_spawnattr_t *attr) {
    int err = posix_spawnattr_init(attr);
    if (err != 0) {
        return err;
    }
    sigset_t none;
    sigset_t all;
    sigemptyset(&none);
    sigfillset(&all);
    err = posix_spawnattr_setsigmask(attr, &none);
    if (err == 0) {
        err = posix_spawnattr_setsigdefault(attr, &all);
    }
    if (err == 0) {
        err = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    if (err != 0) {
        posix_spawnattr_destroy(attr);
    }
    return err;
}

/* Start the helper with its stdout on out_fd; 0 or an errno value. */
static int spawn_probe(const char *library, const char *value, int out_fd, pid_t *pid) {
    const char *probe = secure_getenv(CUDA_PROBE_ENV);
    if (probe == NULL || probe[0] == '\0') {
        probe = NVT_CUDA_PROBE_PATH;
    }
    char *env[PASSED_COUNT + 2] = {NULL};
    if (!env_build(env, value)) {
        env_free(env);
        return ENOMEM;
    }
    posix_spawn_file_actions_t actions;
    int err = file_actions(&actions, out_fd);
    posix_spawnattr_t attr;
    if (err == 0 && (err = spawn_attributes(&attr)) != 0) {
        posix_spawn_file_actions_destroy(&actions);
    }
    /* posix_spawn takes argv as char *const[]: copies, not casts of the const strings. */
    char name[] = "nvitop-cuda-probe";
    char *library_copy = library != NULL ? strdup(library) : NULL;
    if (err == 0 && library != NULL && library_copy == NULL) {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        err = ENOMEM;
    }
    if (err == 0) {
        char *argv[] = {name, library_copy, NULL};
        err = posix_spawn(pid, probe, &actions, &attr, argv, env);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    free(library_copy);
    env_free(env);
    return err;
}

nvt_status cuda_child_uuids(const char *library, const char *value, char **uuids) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return NVT_ERR_CUDA;
    }
    pid_t pid = 0;
    int err = spawn_probe(library, value, fds[1], &pid);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        if (err == ENOMEM) {
            return NVT_ERR_NO_MEMORY;
        }
        /* No helper installed (or not executable): CUDA cannot be asked. */
        return err == ENOENT || err == EACCES || err == ENOEXEC ? NVT_ERR_LIBRARY_NOT_FOUND
                                                                : NVT_ERR_CUDA;
    }
    struct strbuf out = STRBUF_INIT;
    bool oom = false;
    bool complete = read_output(fds[0], &out, &oom);
    close(fds[0]);
    int code = reap(pid, !complete);
    nvt_status failure = code == CUDA_PROBE_NO_LIBRARY ? NVT_ERR_LIBRARY_NOT_FOUND : NVT_ERR_CUDA;
    if (oom) {
        strbuf_fini(&out);
        return NVT_ERR_NO_MEMORY;
    }
    if (!complete) {
        strbuf_fini(&out);
        return failure;
    }
    /* The "END" line, not the exit status, says the answer is whole: a caller that ignores
     * SIGCHLD gets no exit status at all. */
    char *text = strbuf_detach(&out);
    if (text == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    if (!to_list(text)) {
        free(text);
        return failure;
    }
    *uuids = text;
    return NVT_OK;
}
