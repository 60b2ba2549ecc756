/*
 * A small command-line parser that behaves like Python's argparse as nvitop and nvisel use it, so
 * that our programs accept the same spellings and print the same messages: long-option prefixes
 * ("--inter 2"), "--opt=value", attached short values ("-o1"), clustered short flags ("-1U"),
 * nargs of 0, 1, '?', '*', '+' and fixed counts, mutually exclusive options, "-1"-style options
 * that make negative numbers options, and "unrecognized arguments" collected to the end.
 *
 * Messages are written into the caller's buffer as the text after "<prog>: error: ".  Shared by
 * nvitop and nvisel (src/cmd/nvisel compiles against this header).  Not thread-safe.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_CLI_ARGPARSE_H
#define NVITOP_SRC_CMD_NVITOP_CLI_ARGPARSE_H

#include <stdbool.h>
#include <stddef.h>

enum argparse_nargs {
    ARGPARSE_FLAG = 0,     /* store_true and friends */
    ARGPARSE_ONE,          /* exactly one value */
    ARGPARSE_OPTIONAL,     /* '?' */
    ARGPARSE_ZERO_OR_MORE, /* '*' */
    ARGPARSE_ONE_OR_MORE,  /* '+' */
    ARGPARSE_TWO           /* nargs=2 */
};

struct argparse_option {
    int id;
    const char *names[4]; /* option strings in declaration order, NULL-terminated */
    enum argparse_nargs nargs;
    int exclusive_group; /* options sharing a non-zero group exclude each other */
    /* argparse records an option for the exclusion check only when its value "is not" the
     * default; CPython interns one-character strings, so a one-character value equal to this
     * default is neither recorded nor checked (nvisel's "--sep , --newline" is accepted). */
    const char *interned_default;
};

/*
 * Called for every option found, in command-line order, with its values (not yet converted).
 * display is argparse's name for the option in messages ("--only/-o").  Return true to go on, or
 * write the message (e.g. "argument --only/-o: invalid int value: 'x'") to error and return false.
 */
typedef bool (*argparse_handler)(void *context, const struct argparse_option *option,
                                 const char *display, char *const *values, size_t count,
                                 char *error, size_t error_size);

/*
 * Parse argv[1..argc).  Returns true when everything was understood; false with a message in
 * error.  The options table ends with an entry whose names[0] is NULL.
 */
bool argparse_parse(const struct argparse_option *options, int argc, char *const *argv,
                    argparse_handler handler, void *context, char *error, size_t error_size);

/* argparse's display name of an option: its names joined by "/". */
void argparse_display_name(const struct argparse_option *option, char *buf, size_t size);

/*
 * Write argparse's usage text ("usage: prog [...] ...", wrapped like argparse for the terminal
 * width: $COLUMNS, else the terminal on stdout, else 80; minus 2) followed by a newline.  parts
 * are the bracketed option forms, NULL-terminated.
 */
void argparse_usage(char *buf, size_t size, const char *prog, const char *const *parts);

/* Python's int(): optional blanks and sign, decimal digits (underscores between digits
 * allowed).  Returns false for anything else or out of range of long long. */
bool argparse_int(const char *text, long long *out);

#endif /* NVITOP_SRC_CMD_NVITOP_CLI_ARGPARSE_H */
