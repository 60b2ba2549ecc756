/*
 * nvisel's command line (docs/nvitop-behaviour.md §4.1), parsed with argparse's rules and messages.
 */
#ifndef NVITOP_SRC_CMD_NVISEL_NVISEL_OPTIONS_H
#define NVITOP_SRC_CMD_NVISEL_NVISEL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/select.h>

/* --tolerance when not given, in percent: nvitop's (docs/nvitop-behaviour.md §4.1). */
#define NVISEL_DEFAULT_TOLERANCE_PCT 10

struct nvisel_options {
    bool inherit;              /* --inherit given */
    const char *inherit_value; /* its value, or NULL to use the environment's */
    struct nvt_select_criteria criteria;
    bool uuid; /* --format uuid */
    const char *sep;
    size_t sep_len;       /* 1 for "\0" with --null */
    char **free_accounts; /* --account-as-free names (owned array; strings from argv or user) */
    char *user_name;      /* current user, owned */
};

/* Parse argv.  Returns -1 to go on, else the exit status (0 after --help/--version, 2 after a
 * usage error, which is already printed). */
int nvisel_options_parse(struct nvisel_options *options, int argc, char **argv);

void nvisel_options_fini(struct nvisel_options *options);

#endif /* NVITOP_SRC_CMD_NVISEL_NVISEL_OPTIONS_H */
