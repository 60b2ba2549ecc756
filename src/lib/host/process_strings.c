/* The strings of a process that only change with its identity (user, name, stat's name, command
 * line and the command joined from it), made once per identity in one reference-counted block (the
 * joined command in an allocation of its own, its size known only after the split).  A context
 * that wants no argument lists (nvt_options.command_only) keeps a second, smaller block without
 * them, made from the first. */
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

#include "linux_internal.h"
#include "proc_parse.h"

/* Kernel comm names are cut at 15 bytes (TASK_COMM_LEN - 1). */
#define COMM_CUT_LEN 15

/* psutil's name is comm, or argv[0]'s basename when comm was cut and that basename extends it:
 * that basename (in argv[0]), or NULL for comm. */
static char *argv0_name(const char *comm, size_t comm_len, char *const *argv, size_t argc) {
    if (comm_len < COMM_CUT_LEN || argc == 0) {
        return NULL;
    }
    char *slash = strrchr(argv[0], '/');
    char *base = slash != NULL ? slash + 1 : argv[0];
    return strncmp(base, comm, comm_len) == 0 ? base : NULL;
}

/* *total += more unless that overflows. */
static bool add_size(size_t *total, size_t more) {
    if (more > SIZE_MAX - *total) {
        return false;
    }
    *total += more;
    return true;
}

/* Copy len bytes of text and a NUL to *cursor and move it past them; the copy. */
static char *put(char **cursor, const char *text, size_t len) {
    char *start = *cursor;
    memcpy(start, text, len);
    start[len] = '\0';
    *cursor += len + 1;
    return start;
}

/* Most joined commands fit this, so that the arguments are joined (and a lone one looked up in
 * the file system) once; a longer one is joined again into an allocation of its size. */
#define COMMAND_GUESS 512

/* The command shown: the arguments joined as nvitop joins them, a kernel thread's name, or "". */
static char *make_command(char *const *argv, size_t argc, const char *name, bool kernel_thread) {
    if (argc == 0) {
        return strdup(kernel_thread && name != NULL ? name : "");
    }
    char guess[COMMAND_GUESS];
    size_t need = nvt_command_join(guess, sizeof(guess), (const char *const *)argv, argc);
    char *command = need < SIZE_MAX ? malloc(need + 1) : NULL;
    if (command != NULL && need < sizeof(guess)) {
        memcpy(command, guess, need + 1);
    } else if (command != NULL) {
        nvt_command_join(command, need + 1, (const char *const *)argv, argc);
    }
    return command;
}

/* Length of text plus its NUL, 0 for NULL. */
static size_t text_size(const char *text) {
    return text != NULL ? strlen(text) + 1 : 0;
}

/* The block of full (one reference) without its arguments: a copy of the user, stat's name and
 * the name, and full's command; full is freed either way.  NULL when out of memory. */
static struct process_strings *without_arguments(struct process_strings *full) {
    bool own_name = full->name != NULL && full->name != full->comm;
    size_t total = sizeof(struct process_strings) + text_size(full->user) + text_size(full->comm) +
                   (own_name ? text_size(full->name) : 0);
    struct process_strings *s = malloc(total);
    if (s == NULL) {
        process_strings_unref(full);
        return NULL;
    }
    s->refs = 1;
    s->argc = full->argc;
    s->argv = NULL;
    char *cursor = (char *)(s + 1);
    s->user = full->user != NULL ? put(&cursor, full->user, strlen(full->user)) : NULL;
    s->comm = full->comm != NULL ? put(&cursor, full->comm, strlen(full->comm)) : NULL;
    s->name = own_name ? put(&cursor, full->name, strlen(full->name)) : s->comm;
    s->command = full->command;
    free(full);
    return s;
}

struct process_strings *process_strings_make(const char *user, const char *comm, bool kernel_thread,
                                             const char *cmdline, size_t cmdline_len,
                                             bool keep_arguments) {
    size_t argc = proc_count_cmdline(cmdline, cmdline_len);
    size_t pointers = argc > 0 ? (argc + 1) * sizeof(char *) : 0;
    size_t user_len = user != NULL ? strlen(user) : 0;
    size_t comm_len = comm != NULL ? strlen(comm) : 0;
    /* The name is either argv[0]'s basename, which the block holds already, or the copy of comm. */
    size_t total = sizeof(struct process_strings);
    bool fits = add_size(&total, pointers) && add_size(&total, cmdline_len + 1) &&
                add_size(&total, user_len + 1) && add_size(&total, comm_len + 1);
    struct process_strings *s = fits ? malloc(total) : NULL;
    if (s == NULL) {
        return NULL;
    }
    s->refs = 1;
    s->argc = argc;
    s->argv = argc > 0 ? (char **)(s + 1) : NULL;
    char *cursor = (char *)(s + 1) + pointers;
    char *args = put(&cursor, cmdline, cmdline_len);
    if (argc > 0) {
        proc_split_cmdline(args, cmdline_len, s->argv, argc);
        s->argv[argc] = NULL;
    }
    s->user = user != NULL ? put(&cursor, user, user_len) : NULL;
    s->comm = comm != NULL ? put(&cursor, comm, comm_len) : NULL;
    char *base = comm != NULL ? argv0_name(comm, comm_len, s->argv, argc) : NULL;
    s->name = base != NULL ? base : s->comm;
    s->command = make_command(s->argv, argc, s->name, kernel_thread);
    if (s->command == NULL) {
        free(s);
        return NULL;
    }
    return keep_arguments ? s : without_arguments(s);
}

const char *process_identity_comm(const struct process_identity *identity) {
    const struct process_strings *strings = identity->strings;
    return strings != NULL && strings->comm != NULL ? strings->comm : "";
}

struct process_strings *process_strings_ref(struct process_strings *strings) {
    if (strings != NULL) {
        strings->refs++;
    }
    return strings;
}

void process_strings_unref(struct process_strings *strings) {
    if (strings != NULL && --strings->refs == 0) {
        free(strings->command);
        free(strings);
    }
}
