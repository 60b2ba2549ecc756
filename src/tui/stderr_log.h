/*
 * While the monitor owns the terminal, whatever anything in the process writes to standard error
 * (the driver, the library, a failed assertion in a library we load) would be painted over the
 * screen and stay there.  The monitor sends file descriptor 2 to a log file instead, and gives it
 * back when the terminal is restored.
 *
 * The log is $XDG_STATE_HOME/nvitop/nvitop.log ($HOME/.local/state/nvitop/nvitop.log without it),
 * appended to, and started afresh once it is larger than STDERR_LOG_MAX_BYTES.  When it can not be
 * opened the output goes to /dev/null: a clean screen matters more than a driver's chatter.
 *
 * UI thread only, except stderr_log_restore_fd(), which is async-signal-safe.
 */
#ifndef NVITOP_SRC_TUI_STDERR_LOG_H
#define NVITOP_SRC_TUI_STDERR_LOG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define STDERR_LOG_MAX_BYTES (1L << 20)

struct stderr_log {
    int saved_fd;        /* the original standard error, or -1 when not redirected */
    off_t start;         /* size of the log when the redirection started */
    char path[PATH_MAX]; /* the log file, or "" for /dev/null */
};

/* Redirect file descriptor 2.  Returns false (and changes nothing) when even /dev/null fails. */
bool stderr_log_start(struct stderr_log *log);

/* Give file descriptor 2 back.  Returns true when something was written to the log meanwhile
 * (log->path then names it, for a note to the user).  Idempotent. */
bool stderr_log_stop(struct stderr_log *log);

/* Give file descriptor 2 back from a fatal path, without closing anything. */
void stderr_log_restore_fd(const struct stderr_log *log);

/* The log's path for this environment (xdg_state_home and home may be NULL), or false when
 * neither is usable.  Pure, for tests and the documentation's examples. */
bool stderr_log_path(const char *xdg_state_home, const char *home, char *out, size_t size);

#endif /* NVITOP_SRC_TUI_STDERR_LOG_H */
