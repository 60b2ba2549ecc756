/*
 * nvisel's options.
 */
#include "nvisel_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/format.h>
#include <nvitop/version.h>

#include "cmd/nvitop/cli/argparse.h"
#include "cmd/nvitop/cli/login_name.h"
#include "util/xalloc.h"
#include "uuid_prefix.h"

enum option_id {
    OPT_HELP,
    OPT_VERSION,
    OPT_INHERIT,
    OPT_FREE_ACCOUNTS,
    OPT_MIN_COUNT,
    OPT_MAX_COUNT,
    OPT_COUNT,
    OPT_MIN_FREE,
    OPT_MIN_TOTAL,
    OPT_MAX_GPU,
    OPT_MAX_MEMORY,
    OPT_TOLERANCE,
    OPT_FORMAT,
    OPT_SEP,
    OPT_NEWLINE,
    OPT_NULL,
    OPT_NO_SORT
};

static const struct argparse_option option_table[] = {
    {OPT_HELP, {"--help", "-h"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_VERSION, {"--version", "-V"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_INHERIT, {"--inherit", "-i"}, ARGPARSE_OPTIONAL, 0, NULL},
    {OPT_FREE_ACCOUNTS, {"--account-as-free"}, ARGPARSE_ZERO_OR_MORE, 0, NULL},
    {OPT_MIN_COUNT, {"--min-count", "-c"}, ARGPARSE_ONE, 0, NULL},
    {OPT_MAX_COUNT, {"--max-count", "-C"}, ARGPARSE_ONE, 0, NULL},
    {OPT_COUNT, {"--count", "-n"}, ARGPARSE_ONE, 0, NULL},
    {OPT_MIN_FREE, {"--min-free-memory", "-f"}, ARGPARSE_ONE, 0, NULL},
    {OPT_MIN_TOTAL, {"--min-total-memory", "-t"}, ARGPARSE_ONE, 0, NULL},
    {OPT_MAX_GPU, {"--max-gpu-utilization", "-G"}, ARGPARSE_ONE, 0, NULL},
    {OPT_MAX_MEMORY, {"--max-memory-utilization", "-M"}, ARGPARSE_ONE, 0, NULL},
    {OPT_TOLERANCE, {"--tolerance", "--tol"}, ARGPARSE_ONE, 0, NULL},
    {OPT_FORMAT, {"--format", "-O"}, ARGPARSE_ONE, 0, NULL},
    {OPT_SEP, {"--sep", "--separator", "-s"}, ARGPARSE_ONE, 1, ","},
    {OPT_NEWLINE, {"--newline"}, ARGPARSE_FLAG, 1, NULL},
    {OPT_NULL, {"--null", "-0"}, ARGPARSE_FLAG, 1, NULL},
    {OPT_NO_SORT, {"--no-sort", "-S"}, ARGPARSE_FLAG, 0, NULL},
    {0, {NULL}, ARGPARSE_FLAG, 0, NULL},
};

static const char *const usage_parts[] = {
    "[--help]",
    "[--version]",
    "[--inherit [CUDA_VISIBLE_DEVICES]]",
    "[--account-as-free [USERNAME ...]]",
    "[--min-count N]",
    "[--max-count N]",
    "[--count N]",
    "[--min-free-memory SIZE]",
    "[--min-total-memory SIZE]",
    "[--max-gpu-utilization RATE]",
    "[--max-memory-utilization RATE]",
    "[--tolerance TOL]",
    "[--format FORMAT]",
    "[--sep SEP | --newline | --null]",
    "[--no-sort]",
    NULL,
};

static const char help_text[] =
    "\n"
    "CUDA visible devices selection tool.\n"
    "\n"
    "options:\n"
    "  --help, -h            Show this help message and exit.\n"
    "  --version, -V         Show nvisel's version number and exit.\n"
    "\n"
    "constraints:\n"
    "  --inherit [CUDA_VISIBLE_DEVICES], -i [CUDA_VISIBLE_DEVICES]\n"
    "                        Inherit the given `CUDA_VISIBLE_DEVICES`. If the argument is omitted, "
    "use the\n"
    "                        value from the environment. This means selecting a subset of the "
    "currently\n"
    "                        CUDA-visible devices.\n"
    "  --account-as-free [USERNAME ...]\n"
    "                        Account the used GPU memory of the given users as free memory.\n"
    "                        If this option is specified but without argument, `$USER` will be "
    "used.\n"
    "  --min-count N, -c N   Minimum number of devices to select. (default: 0)\n"
    "                        The tool will fail (exit non-zero) if the requested resource is not "
    "available.\n"
    "  --max-count N, -C N   Maximum number of devices to select. (default: all devices)\n"
    "  --count N, -n N       Overriding both `--min-count N` and `--max-count N`.\n"
    "  --min-free-memory SIZE, -f SIZE\n"
    "                        Minimum free memory of devices to select. (example value: 4GiB)\n"
    "                        If this constraint is given, check against all devices.\n"
    "  --min-total-memory SIZE, -t SIZE\n"
    "                        Minimum total memory of devices to select. (example value: 10GiB)\n"
    "                        If this constraint is given, check against all devices.\n"
    "  --max-gpu-utilization RATE, -G RATE\n"
    "                        Maximum GPU utilization rate of devices to select. (example value: "
    "30)\n"
    "                        If this constraint is given, check against all devices.\n"
    "  --max-memory-utilization RATE, -M RATE\n"
    "                        Maximum memory bandwidth utilization rate of devices to select. "
    "(example value: 50)\n"
    "                        If this constraint is given, check against all devices.\n"
    "  --tolerance TOL, --tol TOL\n"
    "                        The constraints tolerance (in percentage). (default: 10)\n"
    "                        This option can loosen the constraints if the requested resource is "
    "not available.\n"
    "                        For example, set `--tolerance=20` will accept a device with only "
    "4GiB of free\n"
    "                        memory when set `--min-free-memory=5GiB`.\n"
    "\n"
    "formatting:\n"
    "  --format FORMAT, -O FORMAT\n"
    "                        The output format of the selected device identifiers. (default: "
    "index)\n"
    "                        If any MIG device found, the output format will be fallback to "
    "`uuid`.\n"
    "  --sep SEP, --separator SEP, -s SEP\n"
    "                        Separator for the output. (default: ',')\n"
    "  --newline             Use newline character as separator for the output, equivalent to "
    "`--sep=$'\\n'`.\n"
    "  --null, -0            Use null character ('\\x00') as separator for the output. This "
    "option corresponds\n"
    "                        to the `-0` option of `xargs`.\n"
    "  --no-sort, -S         Do not sort the device by memory usage and GPU utilization.\n";

struct parse_state {
    struct nvisel_options *options;
    int exit_code;
    bool count_given;
    size_t count;
    bool max_given;
    bool newline;
    bool null;
};

static void usage_error(const char *message) {
    char usage[2048];
    argparse_usage(usage, sizeof(usage), "nvisel", usage_parts);
    fputs(usage, stderr);
    fprintf(stderr, "nvisel: error: %s\n", message);
}

static bool non_negative(const char *display, const char *value, uint32_t *out, char *error,
                         size_t size) {
    long long parsed;
    if (!argparse_int(value, &parsed) || parsed < 0 || parsed > UINT32_MAX - 1) {
        snprintf(error, size, "argument %s: invalid non-negative integer value: '%s'", display,
                 value);
        return false;
    }
    *out = (uint32_t)parsed;
    return true;
}

static bool bytes_value(const char *display, const char *value, uint64_t *out, char *error,
                        size_t size) {
    if (nvt_parse_bytes(value, out) != NVT_OK) {
        snprintf(error, size, "argument %s: invalid human2bytes value: '%s'", display, value);
        return false;
    }
    return true;
}

static bool handle_special(struct parse_state *state, const struct argparse_option *option,
                           char *const *values, size_t count) {
    struct nvisel_options *o = state->options;
    switch ((enum option_id)option->id) {
    case OPT_HELP: {
        char usage[2048];
        argparse_usage(usage, sizeof(usage), "nvisel", usage_parts);
        fputs(usage, stdout);
        fputs(help_text, stdout);
        state->exit_code = 0;
        return false;
    }
    case OPT_VERSION:
        printf("nvisel %s\n", NVT_VERSION_STRING);
        state->exit_code = 0;
        return false;
    case OPT_INHERIT:
        o->inherit = true;
        o->inherit_value = count > 0 ? values[0] : NULL;
        return true;
    case OPT_FREE_ACCOUNTS:
        free(o->free_accounts);
        o->free_accounts = xcalloc(count + 2, sizeof(*o->free_accounts));
        for (size_t i = 0; i < count; i++) {
            o->free_accounts[i] = values[i];
        }
        if (count == 0) {
            o->free_accounts[count++] = o->user_name;
        }
        o->criteria.free_accounts = (const char *const *)o->free_accounts;
        o->criteria.free_account_count = count;
        return true;
    default:
        break;
    }
    return true;
}

static bool handle_option(void *context, const struct argparse_option *option, const char *display,
                          char *const *values, size_t count, char *error, size_t size) {
    struct parse_state *state = context;
    struct nvisel_options *o = state->options;
    struct nvt_select_criteria *c = &o->criteria;
    uint32_t number = 0;
    switch ((enum option_id)option->id) {
    case OPT_MIN_COUNT:
        if (!non_negative(display, values[0], &number, error, size)) {
            return false;
        }
        c->min_count = number;
        return true;
    case OPT_MAX_COUNT:
        if (!non_negative(display, values[0], &number, error, size)) {
            return false;
        }
        c->max_count = number;
        state->max_given = true;
        return true;
    case OPT_COUNT:
        state->count_given = non_negative(display, values[0], &number, error, size);
        state->count = number;
        return state->count_given;
    case OPT_MIN_FREE:
        return bytes_value(display, values[0], &c->min_free_memory_bytes, error, size);
    case OPT_MIN_TOTAL:
        return bytes_value(display, values[0], &c->min_total_memory_bytes, error, size);
    case OPT_MAX_GPU:
        return non_negative(display, values[0], &c->max_gpu_util_pct, error, size);
    case OPT_MAX_MEMORY:
        return non_negative(display, values[0], &c->max_memory_util_pct, error, size);
    case OPT_TOLERANCE:
        return non_negative(display, values[0], &c->tolerance_pct, error, size);
    case OPT_FORMAT:
        if (strcmp(values[0], "index") != 0 && strcmp(values[0], "uuid") != 0) {
            snprintf(error, size, "argument %s: invalid choice: '%s' (choose from 'index', 'uuid')",
                     display, values[0]);
            return false;
        }
        o->uuid = strcmp(values[0], "uuid") == 0;
        return true;
    case OPT_SEP:
        o->sep = values[0];
        o->sep_len = strlen(values[0]);
        return true;
    case OPT_NEWLINE:
        state->newline = true;
        return true;
    case OPT_NULL:
        state->null = true;
        return true;
    case OPT_NO_SORT:
        c->no_sort = true;
        return true;
    default:
        break;
    }
    if (!handle_special(state, option, values, count)) {
        snprintf(error, size, "%s", "");
        return false;
    }
    return true;
}

int nvisel_options_parse(struct nvisel_options *options, int argc, char **argv) {
    memset(options, 0, sizeof(*options));
    nvt_select_criteria_init(&options->criteria);
    /* nvitop's nvisel loosens by 10 % unless told otherwise (its help text says 0, its code and
     * so its users' scripts use 10); the library's own default stays strict. */
    options->criteria.tolerance_pct = NVISEL_DEFAULT_TOLERANCE_PCT;
    options->sep = ",";
    options->sep_len = 1;
    options->user_name = cli_login_name();
    struct parse_state state = {options, -1, false, 0, false, false, false};
    char error[1024];
    if (!argparse_parse(option_table, argc, argv, handle_option, &state, error, sizeof(error))) {
        if (state.exit_code >= 0) {
            return state.exit_code;
        }
        usage_error(error);
        return 2;
    }
    /* As nvisel does after parsing: --newline wins over --null, both over --sep. */
    if (state.newline) {
        options->sep = "\n";
        options->sep_len = 1;
    } else if (state.null) {
        options->sep = "";
        options->sep_len = 1; /* the NUL byte of "" is the separator */
    }
    if (state.count_given) {
        options->criteria.min_count = state.count;
        options->criteria.max_count = state.count;
    }
    if (options->criteria.max_count != NVT_NA_SIZE &&
        options->criteria.max_count < options->criteria.min_count) {
        usage_error("Max count must be no less than min count.");
        return 2;
    }
    if (options->inherit) {
        const char *value = options->inherit_value;
        const char *where = "--inherit";
        if (value == NULL) {
            value = getenv("CUDA_VISIBLE_DEVICES");
            where = "CUDA_VISIBLE_DEVICES";
        }
        if (value != NULL && !nvisel_check_uuid_prefixes(value, where, error, sizeof(error))) {
            usage_error(error);
            return 2;
        }
    }
    return -1;
}

void nvisel_options_fini(struct nvisel_options *options) {
    free(options->free_accounts);
    free(options->user_name);
    memset(options, 0, sizeof(*options));
}
