/*
 * The CUDA driver in a child process.  The child writes one line per visible device (its UUID as
 * 32 hex digits grouped 8-4-4-4-12) followed by "END", or exits with a code that says what went
 * wrong; the parent reads the pipe with a deadline, then reaps the child.
 */
#include "cuda/cuda_child.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/dl.h"
#include "util/strbuf.h"

enum child_exit {
    CHILD_OK = 0,
    CHILD_NO_LIBRARY = 40,
    CHILD_FAILED = 41
};

/* CUDA error codes after which CUDA sees no device at all (SPEC.md §5.5). */
#define CUDA_ERROR_INVALID_DEVICE                 101
#define CUDA_ERROR_NO_DEVICE                      100
#define CUDA_ERROR_SYSTEM_DRIVER_MISMATCH         803
#define CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE 804

struct cuda_uuid {
    unsigned char bytes[16];
};

typedef int (*cu_init_fn)(unsigned int);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_uuid_fn)(struct cuda_uuid *, int);

static void write_all(int fd, const char *text, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            _exit(CHILD_FAILED);
        }
        text += n;
        len -= (size_t)n;
    }
}

static void write_uuid(int fd, const struct cuda_uuid *uuid) {
    static const char hex[] = "0123456789abcdef";
    char line[40];
    size_t n = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            line[n++] = '-';
        }
        line[n++] = hex[uuid->bytes[i] >> 4];
        line[n++] = hex[uuid->bytes[i] & 0xF];
    }
    line[n++] = '\n';
    write_all(fd, line, n);
}

static _Noreturn void run_child(int fd, const char *library, const char *value) {
    if (value != NULL) {
        setenv("CUDA_VISIBLE_DEVICES", value, 1);
    } else {
        unsetenv("CUDA_VISIBLE_DEVICES");
    }
    void *dl = NULL;
    if (library != NULL) {
        dl = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    } else {
        dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (dl == NULL) {
            dl = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (dl == NULL) {
        _exit(CHILD_NO_LIBRARY);
    }
    cu_init_fn cu_init;
    cu_count_fn cu_count;
    cu_get_fn cu_get;
    cu_uuid_fn cu_uuid;
    dl_function(dl, "cuInit", &cu_init, sizeof(cu_init));
    dl_function(dl, "cuDeviceGetCount", &cu_count, sizeof(cu_count));
    dl_function(dl, "cuDeviceGet", &cu_get, sizeof(cu_get));
    dl_function(dl, "cuDeviceGetUuid_v2", &cu_uuid, sizeof(cu_uuid));
    if (cu_uuid == NULL) {
        dl_function(dl, "cuDeviceGetUuid", &cu_uuid, sizeof(cu_uuid));
    }
    if (cu_init == NULL || cu_count == NULL || cu_get == NULL || cu_uuid == NULL) {
        _exit(CHILD_FAILED);
    }
    int result = cu_init(0);
    if (result == CUDA_ERROR_NO_DEVICE || result == CUDA_ERROR_INVALID_DEVICE ||
        result == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
        result == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
        write_all(fd, "END\n", 4);
        _exit(CHILD_OK);
    }
    int count = 0;
    if (result != 0 || cu_count(&count) != 0 || count < 0) {
        _exit(CHILD_FAILED);
    }
    for (int i = 0; i < count; i++) {
        int device = 0;
        struct cuda_uuid uuid;
        if (cu_get(&device, i) != 0 || cu_uuid(&uuid, device) != 0) {
            _exit(CHILD_FAILED);
        }
        write_uuid(fd, &uuid);
    }
    write_all(fd, "END\n", 4);
    _exit(CHILD_OK);
}

static long long now_ms(void) {
    return (long long)(clock_monotonic_ns() / 1000000);
}

/* Read everything until EOF or the deadline.  Returns false on timeout, error or no memory. */
static bool read_output(int fd, struct strbuf *out, bool *oom) {
    long long deadline = now_ms() + CUDA_CHILD_TIMEOUT_MS;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            return false;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int ready = poll(&pfd, 1, (int)left);
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
            return -1;
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

nvt_status cuda_child_uuids(const char *library, const char *value, char **uuids) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return NVT_ERR_CUDA;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return NVT_ERR_CUDA;
    }
    if (pid == 0) {
        close(fds[0]);
        run_child(fds[1], library, value);
    }
    close(fds[1]);
    struct strbuf out = STRBUF_INIT;
    bool oom = false;
    bool complete = read_output(fds[0], &out, &oom);
    close(fds[0]);
    int code = reap(pid, !complete);
    nvt_status failure = code == CHILD_NO_LIBRARY ? NVT_ERR_LIBRARY_NOT_FOUND : NVT_ERR_CUDA;
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
