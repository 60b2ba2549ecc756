/*
 * Locating, reading and atomically writing the settings file (settings.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings/settings.h"
#include "util/sys/file.h"
#include "util/text/strbuf.h"

/* A settings file is a few hundred bytes; anything past this is not one. */
#define SETTINGS_MAX_BYTES (64 * 1024)
#define SYSTEM_PATH        "/etc/nvitop/nvitop.conf"
#define FILE_NAME          "nvitop/nvitop.conf"

char *tui_settings_user_path(void) {
    struct strbuf path = STRBUF_INIT;
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    bool ok;
    if (xdg != NULL && xdg[0] == '/') {
        ok = strbuf_appendf(&path, "%s/%s", xdg, FILE_NAME);
    } else if (home != NULL && home[0] != '\0') {
        ok = strbuf_appendf(&path, "%s/.config/%s", home, FILE_NAME);
    } else {
        strbuf_fini(&path);
        return NULL;
    }
    if (!ok) {
        strbuf_fini(&path);
        return NULL;
    }
    return strbuf_detach(&path);
}

const char *tui_settings_system_path(void) {
    const char *path = getenv("NVITOP_SYSTEM_CONFIG");
    return path != NULL && path[0] != '\0' ? path : SYSTEM_PATH;
}

unsigned tui_settings_load(struct tui_settings *settings, const char *path, bool quiet_missing,
                           tui_settings_warn_fn warn, void *context) {
    char *text = NULL;
    size_t len = 0;
    int rc = file_read_at(AT_FDCWD, path, SETTINGS_MAX_BYTES, &text, &len);
    if (rc != 0) {
        if (rc == ENOENT && quiet_missing) {
            return 0;
        }
        if (warn != NULL) {
            warn(context, path, 0,
                 rc == EFBIG ? "too large for a settings file (ignored)" : strerror(rc));
        }
        return 1;
    }
    unsigned warnings = tui_settings_parse(settings, text, len, path, warn, context);
    free(text);
    return warnings;
}

/* Create the directory part of path (one level below an existing one, as ~/.config/nvitop). */
static int make_parent(const char *path) {
    char *dir = strdup(path);
    if (dir == NULL) {
        return ENOMEM;
    }
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash != NULL && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1; *p != '\0' && rc == 0; p++) {
            if (*p != '/') {
                continue;
            }
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                rc = errno;
            }
            *p = '/';
        }
        if (rc == 0 && mkdir(dir, 0700) != 0 && errno != EEXIST) {
            rc = errno;
        }
    }
    free(dir);
    return rc;
}

static int write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int tui_settings_save(const struct tui_settings *settings, const char *link_path) {
    /* A settings file that is a symbolic link (into a dotfiles repository, say) stays one: the
     * file it points to is replaced. */
    char *real = realpath(link_path, NULL);
    const char *path = real != NULL ? real : link_path;
    struct strbuf text = STRBUF_INIT;
    struct strbuf temp = STRBUF_INIT;
    int rc = 0;
    if (!tui_settings_format(settings, &text) || !strbuf_appendf(&temp, "%s.XXXXXX", path)) {
        rc = ENOMEM;
    }
    if (rc == 0) {
        rc = make_parent(path);
    }
    int fd = -1;
    if (rc == 0) {
        fd = mkostemp(temp.data, O_CLOEXEC); /* temp.data is set: the append succeeded */
        if (fd < 0) {
            rc = errno;
        }
    }
    if (fd >= 0) {
        /* The new file replaces the old one only once all of it is on disk. */
        rc = write_all(fd, strbuf_cstr(&text), text.len);
        if (rc == 0 && fchmod(fd, 0644) != 0) {
            rc = errno;
        }
        if (rc == 0 && fsync(fd) != 0) {
            rc = errno;
        }
        if (close(fd) != 0 && rc == 0) {
            rc = errno;
        }
        if (rc == 0 && rename(strbuf_cstr(&temp), path) != 0) {
            rc = errno;
        }
        if (rc != 0) {
            unlink(strbuf_cstr(&temp));
        }
    }
    strbuf_fini(&text);
    strbuf_fini(&temp);
    free(real);
    return rc;
}
