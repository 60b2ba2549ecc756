/* command_join: a command line quoted the way a POSIX shell user would type it
 * (docs/nvitop-behaviour.md §5.7). */
#include <string.h>
#include <sys/stat.h>

#include <nvitop/format.h>

#include "format_internal.h"

/* What an argument holds that decides its quoting, found in one pass. */
enum {
    ARG_EXPANDS = 1, /* $, \ or a newline: not safe inside plain double quotes */
    ARG_SPACE = 2,
    ARG_DOUBLE = 4, /* " */
    ARG_SINGLE = 8, /* ' or a newline: not safe inside single quotes */
};

/* The ARG_* bits of arg, and its length in *len. */
static unsigned classify(const char *arg, size_t *len) {
    unsigned bits = 0;
    const char *p = arg;
    for (; *p != '\0'; p++) {
        switch (*p) {
        case '$':
        case '\\':
            bits |= ARG_EXPANDS;
            break;
        case '\n':
            bits |= ARG_EXPANDS | ARG_SINGLE;
            break;
        case ' ':
            bits |= ARG_SPACE;
            break;
        case '"':
            bits |= ARG_DOUBLE;
            break;
        case '\'':
            bits |= ARG_SINGLE;
            break;
        default:
            break;
        }
    }
    *len = (size_t)(p - arg);
    return bits;
}

/* Inside double quotes: escape \ " $ and spell newlines as \n. */
static void put_double_quoted_escaped(struct format_out *out, const char *arg) {
    format_out_put(out, "\"", 1);
    for (const char *p = arg; *p != '\0'; p++) {
        switch (*p) {
        case '\\':
            format_out_put(out, "\\\\", 2);
            break;
        case '"':
            format_out_put(out, "\\\"", 2);
            break;
        case '$':
            format_out_put(out, "\\$", 2);
            break;
        case '\n':
            format_out_put(out, "\\n", 2);
            break;
        default:
            format_out_put(out, p, 1);
            break;
        }
    }
    format_out_put(out, "\"", 1);
}

static void put_quoted(struct format_out *out, const char *arg) {
    if (arg[0] == '\0') {
        format_out_put(out, "\"\"", 2);
        return;
    }
    size_t len = 0;
    unsigned bits = classify(arg, &len);
    if ((bits & ARG_EXPANDS) == 0) {
        if ((bits & ARG_SPACE) == 0) {
            format_out_put(out, arg, len);
            return;
        }
        if ((bits & ARG_DOUBLE) == 0) {
            format_out_put(out, "\"", 1);
            format_out_put(out, arg, len);
            format_out_put(out, "\"", 1);
            return;
        }
    }
    if ((bits & ARG_SINGLE) == 0) {
        format_out_put(out, "'", 1);
        format_out_put(out, arg, len);
        format_out_put(out, "'", 1);
        return;
    }
    put_double_quoted_escaped(out, arg);
}

/* Python's os.path.isfile() and isabs(): an absolute path naming a regular file (after links). */
static bool is_absolute_file(const char *path) {
    struct stat st;
    return path[0] == '/' && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

size_t nvt_command_join(char *buf, size_t size, const char *const *argv, size_t argc) {
    struct format_out out;
    format_out_init(&out, buf, size);
    /* A lone argument is usually a title set with setproctitle(): keep it verbatim. */
    if (argc == 1 && !is_absolute_file(argv[0])) {
        format_out_puts(&out, argv[0]);
        return out.len;
    }
    for (size_t i = 0; i < argc; i++) {
        if (i > 0) {
            format_out_put(&out, " ", 1);
        }
        put_quoted(&out, argv[i]);
    }
    return out.len;
}
