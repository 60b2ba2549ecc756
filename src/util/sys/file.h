/*
 * Reading whole small files (the proc file system, scenario files) safely: EINTR is retried, the
 * size is capped so a runaway file cannot exhaust memory, and the result is NUL-terminated.
 */
#ifndef NVITOP_SRC_UTIL_SYS_FILE_H
#define NVITOP_SRC_UTIL_SYS_FILE_H

#include <stddef.h>

/*
 * Read the file at path (relative to dirfd, or AT_FDCWD) into a fresh allocation of *len + 1
 * bytes that ends with a NUL (the data itself may contain NULs, as /proc/<pid>/cmdline does).
 * The caller frees *out.  Returns 0, an errno value from open/read (ENOENT, EACCES, ESRCH, ...),
 * ENOMEM, or EFBIG when the file holds more than cap bytes.  Nothing is written to *out or *len on
 * failure.  Thread-safe.
 */
int file_read_at(int dirfd, const char *path, size_t cap, char **out, size_t *len);

/*
 * Read at most size - 1 bytes of the file into buf and NUL-terminate it; *len (may be NULL)
 * receives the number of bytes read.  Returns 0, an errno value, or EFBIG when the file is longer
 * than the buffer (buf then holds the first size - 1 bytes).  On other errors buf is "".  size
 * must be at least 1.
 */
int file_read_into(int dirfd, const char *path, char *buf, size_t size, size_t *len);

/* file_read_into(), keeping the file open: on success (0 or EFBIG) *fd_out is the descriptor, to
 * read again with file_reread_into() and close; otherwise -1. */
int file_open_read_into(int dirfd, const char *path, char *buf, size_t size, size_t *len,
                        int *fd_out);

/* file_read_into() on a descriptor from file_open_read_into(), from the start of the file again
 * with one pread(2), so that a file in /proc is generated afresh; fewer bytes than the buffer holds
 * are taken as the whole file (true of /proc's generated files and of regular files).  A /proc
 * file of a process that has exited fails with ESRCH, even if its pid was reused since. */
int file_reread_into(int fd, char *buf, size_t size, size_t *len);

/* file_reread_into() into a buffer that grows as needed: *buf (NULL or malloc'd, *size bytes,
 * kept by the caller between reads and freed with free()) receives the whole file and a NUL; the
 * file is read again from its start whenever the buffer had to grow.  Returns 0, an errno value,
 * ENOMEM (the buffer is left as it was), or EFBIG when the file holds more than cap bytes. */
int file_reread_grow(int fd, size_t cap, char **buf, size_t *size, size_t *len);

#endif /* NVITOP_SRC_UTIL_SYS_FILE_H */
