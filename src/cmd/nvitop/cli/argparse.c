/*
 * argparse's parsing rules (CPython 3.11 Lib/argparse.py, _parse_known_args), restricted to the
 * features nvitop and nvisel use: optional arguments only, no positionals.
 */
#include "cmd/nvitop/cli/argparse.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/array.h"
#include "util/text/str.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

/* One option string matched by an argument, with the text after "=" or after a short option. */
struct match {
    const struct argparse_option *option;
    const char *name;
    const char *explicit_arg; /* NULL when none */
};

struct parser {
    const struct argparse_option *options;
    int argc;
    char *const *argv;
    argparse_handler handler;
    void *context;
    char *error;
    size_t error_size;
    const struct argparse_option *seen[64];
    size_t seen_count;
    struct strbuf extras;
};

void argparse_display_name(const struct argparse_option *option, char *buf, size_t size) {
    buf[0] = '\0';
    for (size_t i = 0; i < 4 && option->names[i] != NULL; i++) {
        if (i > 0) {
            str_append(buf, size, "/");
        }
        str_append(buf, size, option->names[i]);
    }
}

static const struct argparse_option *find_exact(const struct parser *p, const char *name) {
    for (const struct argparse_option *o = p->options; o->names[0] != NULL; o++) {
        for (size_t i = 0; i < 4 && o->names[i] != NULL; i++) {
            if (strcmp(o->names[i], name) == 0) {
                return o;
            }
        }
    }
    return NULL;
}

__attribute__((format(printf, 2, 3))) static bool fail(struct parser *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->error, p->error_size, fmt, ap);
    va_end(ap);
    return false;
}

/* argparse's _get_option_tuples: prefix matches of long options, or a short option followed by
 * an attached value.  Returns the number of matches (at most max are stored). */
static size_t option_tuples(struct parser *p, const char *arg, struct match *out, size_t max) {
    size_t count = 0;
    char prefix[256];
    const char *explicit_arg = NULL;
    bool is_long = arg[0] == '-' && arg[1] == '-';
    str_copy(prefix, sizeof(prefix), arg);
    if (is_long) {
        char *eq = strchr(prefix, '=');
        if (eq != NULL) {
            *eq = '\0';
            explicit_arg = arg + (eq - prefix) + 1;
        }
    }
    char short_prefix[3] = {arg[0], arg[1], '\0'};
    for (const struct argparse_option *o = p->options; o->names[0] != NULL; o++) {
        for (size_t i = 0; i < 4 && o->names[i] != NULL; i++) {
            const char *name = o->names[i];
            struct match m = {o, name, NULL};
            if (is_long) {
                if (!str_starts_with(name, prefix)) {
                    continue;
                }
                m.explicit_arg = explicit_arg;
            } else if (strcmp(name, short_prefix) == 0) {
                m.explicit_arg = arg + 2;
            } else if (!str_starts_with(name, prefix)) {
                continue;
            }
            if (count < max) {
                out[count] = m;
            }
            count++;
        }
    }
    return count;
}

enum kind {
    KIND_ARG,     /* 'A' */
    KIND_OPTION,  /* 'O' with a known option */
    KIND_UNKNOWN, /* 'O' not matching anything */
    KIND_ERROR    /* ambiguous prefix */
};

/* argparse's _parse_optional. */
static enum kind classify(struct parser *p, const char *arg, struct match *match) {
    memset(match, 0, sizeof(*match));
    if (arg[0] != '-' || arg[1] == '\0') {
        return KIND_ARG;
    }
    const struct argparse_option *exact = find_exact(p, arg);
    if (exact != NULL) {
        match->option = exact;
        match->name = arg;
        return KIND_OPTION;
    }
    const char *eq = strchr(arg, '=');
    if (eq != NULL) {
        char name[256];
        snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
        exact = find_exact(p, name);
        if (exact != NULL) {
            match->option = exact;
            match->name = exact->names[0];
            for (size_t i = 0; i < 4 && exact->names[i] != NULL; i++) {
                if (strcmp(exact->names[i], name) == 0) {
                    match->name = exact->names[i];
                }
            }
            match->explicit_arg = eq + 1;
            return KIND_OPTION;
        }
    }
    struct match found[16];
    size_t n = option_tuples(p, arg, found, 16);
    if (n > 1) {
        struct strbuf names = STRBUF_INIT;
        for (size_t i = 0; i < n && i < 16; i++) {
            (void)strbuf_appendf(&names, "%s%s", i > 0 ? ", " : "", found[i].name);
        }
        char option[256];
        str_copy(option, sizeof(option), arg);
        if (arg[1] == '-' && strchr(option, '=') != NULL) {
            *strchr(option, '=') = '\0';
        }
        fail(p, "ambiguous option: %s could match %s", option, strbuf_cstr(&names));
        strbuf_fini(&names);
        return KIND_ERROR;
    }
    if (n == 1) {
        *match = found[0];
        return KIND_OPTION;
    }
    /* Both programs have a digit option ("-1", "-0"), so negative numbers count as options
     * (argparse's _has_negative_number_optionals); a blank makes an argument. */
    if (strchr(arg, ' ') != NULL) {
        return KIND_ARG;
    }
    return KIND_UNKNOWN;
}

static void add_extra(struct parser *p, const char *arg) {
    if (p->extras.len > 0) {
        (void)strbuf_append_char(&p->extras, ' ');
    }
    (void)strbuf_append_str(&p->extras, arg);
}

/* Record the option as seen and check its exclusive group. */
static bool check_conflicts(struct parser *p, const struct argparse_option *option) {
    if (option->exclusive_group != 0) {
        for (size_t i = 0; i < p->seen_count; i++) {
            const struct argparse_option *other = p->seen[i];
            if (other != option && other->exclusive_group == option->exclusive_group) {
                char mine[128];
                char theirs[128];
                argparse_display_name(option, mine, sizeof(mine));
                argparse_display_name(other, theirs, sizeof(theirs));
                return fail(p, "argument %s: not allowed with argument %s", mine, theirs);
            }
        }
    }
    if (p->seen_count < ARRAY_SIZE(p->seen)) {
        p->seen[p->seen_count++] = option;
    }
    return true;
}

static bool take(struct parser *p, const struct argparse_option *option, char *const *values,
                 size_t count) {
    char display[128];
    argparse_display_name(option, display, sizeof(display));
    if (!p->handler(p->context, option, display, values, count, p->error, p->error_size)) {
        return false;
    }
    const char *interned = option->interned_default;
    if (interned != NULL && count == 1 && strlen(interned) == 1 &&
        strcmp(values[0], interned) == 0) {
        return true;
    }
    return check_conflicts(p, option);
}

/* How many 'A' arguments follow position start (stopping at an option or at "--"). */
static size_t following_args(struct parser *p, int start, const enum kind *kinds) {
    size_t n = 0;
    for (int i = start; i < p->argc && kinds[i] == KIND_ARG; i++) {
        n++;
    }
    return n;
}

static bool arity_error(struct parser *p, const struct argparse_option *option) {
    char display[128];
    argparse_display_name(option, display, sizeof(display));
    switch (option->nargs) {
    case ARGPARSE_ONE:
        return fail(p, "argument %s: %s", display, "expected one argument");
    case ARGPARSE_ONE_OR_MORE:
        return fail(p, "argument %s: %s", display, "expected at least one argument");
    case ARGPARSE_TWO:
        return fail(p, "argument %s: %s", display, "expected 2 arguments");
    case ARGPARSE_FLAG:
    case ARGPARSE_OPTIONAL:
    case ARGPARSE_ZERO_OR_MORE:
        break;
    }
    return fail(p, "argument %s: %s", display, "expected one argument");
}

static bool ignored_explicit(struct parser *p, const struct argparse_option *option,
                             const char *explicit_arg) {
    char display[128];
    char quoted[300];
    argparse_display_name(option, display, sizeof(display));
    snprintf(quoted, sizeof(quoted), "'%s'", explicit_arg);
    return fail(p, "argument %s: ignored explicit argument %s", display, quoted);
}

/* Consume the option at position i; returns the next position, or -1 on error.  An explicit
 * argument ("--x=v", "-xv") is the value, except after a short flag, where it names more short
 * options ("-1U"); the last of those may take the following arguments. */
static int consume_option(struct parser *p, int i, const struct match *m, const enum kind *kinds) {
    struct match cur = *m;
    char next[3] = {'-', '\0', '\0'};
    while (cur.explicit_arg != NULL) {
        if (cur.option->nargs == ARGPARSE_TWO) {
            (void)arity_error(p, cur.option);
            return -1;
        }
        if (cur.option->nargs != ARGPARSE_FLAG) {
            /* The value is the tail of the argument itself, so it lives as long as argv. */
            char *values[1] = {p->argv[i] + (cur.explicit_arg - p->argv[i])};
            return take(p, cur.option, values, 1) ? i + 1 : -1;
        }
        bool is_short = cur.name[0] == '-' && cur.name[1] != '-';
        if (!is_short || cur.explicit_arg[0] == '\0') {
            (void)ignored_explicit(p, cur.option, cur.explicit_arg);
            return -1;
        }
        next[1] = cur.explicit_arg[0];
        const struct argparse_option *chained = find_exact(p, next);
        if (chained == NULL) {
            (void)ignored_explicit(p, cur.option, cur.explicit_arg);
            return -1;
        }
        if (!take(p, cur.option, NULL, 0)) {
            return -1;
        }
        cur.option = chained;
        cur.name = next;
        cur.explicit_arg = cur.explicit_arg[1] == '\0' ? NULL : cur.explicit_arg + 1;
    }
    size_t avail = following_args(p, i + 1, kinds);
    size_t take_count = 0;
    switch (cur.option->nargs) {
    case ARGPARSE_FLAG:
        break;
    case ARGPARSE_ONE:
    case ARGPARSE_ONE_OR_MORE:
        if (avail == 0) {
            (void)arity_error(p, cur.option);
            return -1;
        }
        take_count = cur.option->nargs == ARGPARSE_ONE ? 1 : avail;
        break;
    case ARGPARSE_OPTIONAL:
        take_count = avail > 0 ? 1 : 0;
        break;
    case ARGPARSE_ZERO_OR_MORE:
        take_count = avail;
        break;
    case ARGPARSE_TWO:
        if (avail < 2) {
            (void)arity_error(p, cur.option);
            return -1;
        }
        take_count = 2;
        break;
    }
    if (!take(p, cur.option, p->argv + i + 1, take_count)) {
        return -1;
    }
    return i + 1 + (int)take_count;
}

bool argparse_parse(const struct argparse_option *options, int argc, char *const *argv,
                    argparse_handler handler, void *context, char *error, size_t error_size) {
    struct parser p = {.options = options,
                       .argc = argc,
                       .argv = argv,
                       .handler = handler,
                       .context = context,
                       .error = error,
                       .error_size = error_size,
                       .extras = STRBUF_INIT};
    enum kind *kinds = xcalloc((size_t)argc + 1, sizeof(*kinds));
    struct match *matches = xcalloc((size_t)argc + 1, sizeof(*matches));
    bool ok = true;
    bool after_dashes = false;
    for (int i = 1; i < argc && ok; i++) {
        if (after_dashes) {
            kinds[i] = KIND_ARG;
        } else if (strcmp(argv[i], "--") == 0) {
            after_dashes = true;
            kinds[i] = KIND_UNKNOWN; /* reported as unrecognized, like Python 3.11 */
        } else {
            kinds[i] = classify(&p, argv[i], &matches[i]);
            ok = kinds[i] != KIND_ERROR;
        }
    }
    for (int i = 1; i < argc && ok;) {
        if (kinds[i] == KIND_OPTION) {
            int next = consume_option(&p, i, &matches[i], kinds);
            ok = next >= 0;
            i = next;
            continue;
        }
        add_extra(&p, argv[i]);
        i++;
    }
    if (ok && p.extras.len > 0) {
        fail(&p, "unrecognized arguments: %s", strbuf_cstr(&p.extras));
        ok = false;
    }
    strbuf_fini(&p.extras);
    free(kinds);
    free(matches);
    return ok;
}

/* argparse wraps to shutil.get_terminal_size().columns - 2. */
static size_t usage_width(void) {
    const char *env = getenv("COLUMNS");
    long columns = 0;
    if (env != NULL) {
        columns = strtol(env, NULL, 10);
    }
    if (columns <= 0) {
        struct winsize ws;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
            columns = ws.ws_col;
        } else {
            columns = 80;
        }
    }
    return columns > 13 ? (size_t)columns - 2 : 11;
}

void argparse_usage(char *buf, size_t size, const char *prog, const char *const *parts) {
    size_t width = usage_width();
    struct strbuf out = STRBUF_INIT;
    size_t prefix = strlen("usage: ");
    size_t total = prefix + strlen(prog);
    for (size_t i = 0; parts[i] != NULL; i++) {
        total += 1 + strlen(parts[i]);
    }
    (void)strbuf_appendf(&out, "usage: %s", prog);
    size_t indent = prefix + strlen(prog) + 1;
    if (total > width && (double)(prefix + strlen(prog)) <= 0.75 * (double)width) {
        size_t line_len = prefix + strlen(prog);
        for (size_t i = 0; parts[i] != NULL; i++) {
            size_t len = strlen(parts[i]);
            if (line_len + 1 + len > width) {
                (void)strbuf_appendf(&out, "\n%*s%s", (int)indent, "", parts[i]);
                line_len = indent + len;
            } else {
                (void)strbuf_appendf(&out, " %s", parts[i]);
                line_len += 1 + len;
            }
        }
    } else {
        for (size_t i = 0; parts[i] != NULL; i++) {
            (void)strbuf_appendf(&out, " %s", parts[i]);
        }
    }
    (void)strbuf_append_char(&out, '\n');
    str_copy(buf, size, strbuf_cstr(&out));
    strbuf_fini(&out);
}

bool argparse_int(const char *text, long long *out) {
    const char *p = text;
    while (isspace((unsigned char)*p)) {
        p++;
    }
    bool negative = false;
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        p++;
    }
    if (!isdigit((unsigned char)*p)) {
        return false;
    }
    long long value = 0;
    while (isdigit((unsigned char)*p) || (*p == '_' && isdigit((unsigned char)p[1]))) {
        if (*p != '_') {
            int digit = *p - '0';
            if (value > (LLONG_MAX - digit) / 10) {
                return false;
            }
            value = value * 10 + digit;
        }
        p++;
    }
    while (isspace((unsigned char)*p)) {
        p++;
    }
    if (*p != '\0') {
        return false;
    }
    *out = negative ? -value : value;
    return true;
}
