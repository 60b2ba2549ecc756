/*
 * Standard error into a log file while curses runs (see stderr_log.h).
 */
#include "tui/stderr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/text/str.h"

bool stderr_log_path(const char *xdg_state_home, const char *home, char *out, size_t size) {
    int n;
    /* The XDG base directory rules: only an absolute path counts. */
    if (xdg_state_home != NULL && xdg_state_home[0] == '/') {
        n = snprintf(out, size, "%s/nvitop/nvitop.log", xdg_state_home);
    } else if (home != NULL && home[0] == '/') {
        n = snprintf(out, size, "%s/.local/state/nvitop/nvitop.log", home);
    } else {
        return false;
    }
    return n > 0 && (size_t)n < size;
}

/* mkdir -p of the directories above path (mode 0700 for the ones made). */
static bool make_parents(const char *path) {
    char dir[PATH_MAX];
    str_copy(dir, sizeof(dir), path);
    for (char *slash = strchr(dir + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            return false;
        }
        *slash = '/';
    }
    return true;
}

static int open_log(struct stderr_log *log) {
    if (!stderr_log_path(getenv("XDG_STATE_HOME"), getenv("HOME"), log->path, sizeof(log->path)) ||
        !make_parents(log->path)) {
        log->path[0] = '\0';
        return -1;
    }
    int fd = open(log->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if (st.st_size > STDERR_LOG_MAX_BYTES && ftruncate(fd, 0) == 0) {
            st.st_size = 0;
        }
        log->start = st.st_size;
        return fd;
    }
    if (fd >= 0) {
        close(fd); /* not a regular file: no size to compare, no note */
    }
    log->path[0] = '\0';
    return -1;
}

bool stderr_log_start(struct stderr_log *log) {
    log->saved_fd = -1;
    log->start = 0;
    int fd = open_log(log);
    if (fd < 0) {
        fd = open("/dev/null", O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            return false;
        }
    }
    fflush(stderr);
    log->saved_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (log->saved_fd < 0 || dup2(fd, STDERR_FILENO) < 0) {
        if (log->saved_fd >= 0) {
            close(log->saved_fd);
        }
        log->saved_fd = -1;
        close(fd);
        return false;
    }
    close(fd);
    return true;
}

void stderr_log_restore_fd(const struct stderr_log *log) {
    if (log->saved_fd >= 0) {
        dup2(log->saved_fd, STDERR_FILENO);
    }
}

bool stderr_log_stop(struct stderr_log *log) {
    if (log->saved_fd < 0) {
        return false;
    }
    fflush(stderr);
    struct stat st;
    bool grew = log->path[0] != '\0' && fstat(STDERR_FILENO, &st) == 0 && st.st_size > log->start;
    stderr_log_restore_fd(log);
    close(log->saved_fd);
    log->saved_fd = -1;
    return grew;
}
