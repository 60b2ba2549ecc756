/*
 * The process's limit on open descriptors (RLIMIT_NOFILE), which bounds how many /proc files the
 * host back-end keeps open between refreshes (docs/performance.md, "A thousand GPU processes").
 */
#ifndef NVITOP_SRC_UTIL_SYS_NOFILE_H
#define NVITOP_SRC_UTIL_SYS_NOFILE_H

#include <stdbool.h>
#include <stdint.h>

/* The soft limit on open descriptors; UINT64_MAX when unlimited, 0 when unknown (and on systems
 * without the limit). */
uint64_t nofile_soft_limit(void);

/* Raise the soft limit to the hard one (which an unprivileged process may do); true when the soft
 * limit is now the hard one.  For programs only: a library must not change its host's limits.
 * Programs that call this must not use select(2) (descriptors may pass FD_SETSIZE). */
bool nofile_raise_soft_limit(void);

#endif /* NVITOP_SRC_UTIL_SYS_NOFILE_H */
