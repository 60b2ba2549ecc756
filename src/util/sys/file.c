#include "util/sys/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static int open_read_only(int dirfd, const char *path, int *fd) {
    do {
        *fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (*fd < 0 && errno == EINTR);
    return *fd < 0 ? errno : 0;
}

/*
 * read(2) until size bytes arrived or end of file; returns 0 or errno.  With offset >= 0, one
 * pread(2) from there instead, a short count taken as the end of the file: a file in /proc is
 * generated whole by each read from its start, and a pread at any other offset generates it all
 * over again just to skip to that offset, so asking for the end separately would double the cost.
 */
static int read_fully(int fd, char *buf, size_t size, size_t *got, off_t offset) {
    size_t done = 0;
    while (done < size) {
        ssize_t n = offset >= 0 ? pread(fd, buf + done, size - done, offset + (off_t)done)
                                : read(fd, buf + done, size - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        if (n == 0) {
            break;
        }
        done += (size_t)n;
        if (offset >= 0) {
            break;
        }
    }
    *got = done;
    return 0;
}

/* file_read_into() on an open descriptor, from its current position or from offset. */
static int read_into(int fd, off_t offset, char *buf, size_t size, size_t *len) {
    size_t got = 0;
    int err = read_fully(fd, buf, size - 1, &got, offset);
    if (err == 0 && got == size - 1) {
        /* The buffer is full: find out whether more follows. */
        char probe = 0;
        size_t extra = 0;
        err = read_fully(fd, &probe, 1, &extra, offset >= 0 ? offset + (off_t)got : -1);
        if (err == 0 && extra > 0) {
            err = EFBIG;
        }
    }
    if (err != 0 && err != EFBIG) {
        buf[0] = '\0';
        return err;
    }
    buf[got] = '\0';
    if (len != NULL) {
        *len = got;
    }
    return err;
}

int file_read_into(int dirfd, const char *path, char *buf, size_t size, size_t *len) {
    int fd = -1;
    int err = file_open_read_into(dirfd, path, buf, size, len, &fd);
    if (fd >= 0) {
        close(fd);
    }
    return err;
}

int file_open_read_into(int dirfd, const char *path, char *buf, size_t size, size_t *len,
                        int *fd_out) {
    buf[0] = '\0';
    *fd_out = -1;
    int fd = -1;
    int err = open_read_only(dirfd, path, &fd);
    if (err != 0) {
        return err;
    }
    err = read_into(fd, -1, buf, size, len);
    if (err != 0 && err != EFBIG) {
        close(fd);
        return err;
    }
    *fd_out = fd;
    return err;
}

int file_reread_into(int fd, char *buf, size_t size, size_t *len) {
    buf[0] = '\0';
    return read_into(fd, 0, buf, size, len);
}

int file_reread_grow(int fd, size_t cap, char **buf, size_t *size, size_t *len) {
    if (cap > SIZE_MAX / 4) {
        cap = SIZE_MAX / 4;
    }
    for (;;) {
        if (*buf == NULL || *size < 2) {
            size_t first = cap < 4096 ? cap + 1 : 4096;
            char *fresh = malloc(first);
            if (fresh == NULL) {
                return ENOMEM;
            }
            free(*buf);
            *buf = fresh;
            *size = first;
        }
        int err = read_into(fd, 0, *buf, *size, len);
        if (err == 0 && *len > cap) {
            return EFBIG; /* a buffer grown for an earlier, larger cap */
        }
        if (err != EFBIG) {
            return err;
        }
        if (*size - 1 >= cap) {
            return EFBIG;
        }
        size_t grown = *size - 1 > cap / 2 ? cap + 1 : (*size - 1) * 2 + 1;
        char *bigger = realloc(*buf, grown);
        if (bigger == NULL) {
            return ENOMEM;
        }
        *buf = bigger;
        *size = grown;
    }
}

int file_read_at(int dirfd, const char *path, size_t cap, char **out, size_t *len) {
    int fd = -1;
    int err = open_read_only(dirfd, path, &fd);
    if (err != 0) {
        return err;
    }
    if (cap > SIZE_MAX / 4) {
        cap = SIZE_MAX / 4;
    }
    /* Files in /proc report st_size 0, so grow as we go instead of trusting fstat(). */
    size_t cap_alloc = cap < 4096 ? cap + 1 : 4096;
    size_t used = 0;
    char *data = malloc(cap_alloc);
    while (data != NULL) {
        size_t got = 0;
        err = read_fully(fd, data + used, cap_alloc - 1 - used, &got, -1);
        used += got;
        if (err != 0 || used < cap_alloc - 1) {
            break;
        }
        if (cap_alloc - 1 >= cap) {
            char probe = 0;
            size_t extra = 0;
            err = read_fully(fd, &probe, 1, &extra, -1);
            if (err == 0 && extra > 0) {
                err = EFBIG;
            }
            break;
        }
        size_t grown = cap_alloc - 1 > cap / 2 ? cap + 1 : (cap_alloc - 1) * 2 + 1;
        char *bigger = realloc(data, grown);
        if (bigger == NULL) {
            free(data);
            data = NULL;
            break;
        }
        data = bigger;
        cap_alloc = grown;
    }
    close(fd);
    if (data == NULL) {
        return ENOMEM;
    }
    if (err != 0) {
        free(data);
        return err;
    }
    data[used] = '\0';
    *out = data;
    *len = used;
    return 0;
}
