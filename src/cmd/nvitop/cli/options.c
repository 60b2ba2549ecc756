/*
 * nvitop's options, parsed with argparse's rules and messages (argparse.h).
 */
#include "cmd/nvitop/cli/options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/version.h>

#include "cmd/nvitop/cli/argparse.h"
#include "cmd/nvitop/cli/login_name.h"
#include "cmd/nvitop/cli/options_help.h"
#include "util/text/str.h"
#include "util/xalloc.h"

enum option_id {
    OPT_HELP,
    OPT_VERSION,
    OPT_ONCE,
    OPT_MONITOR,
    OPT_INTERVAL,
    OPT_ASCII,
    OPT_READONLY,
    OPT_JSON,
    OPT_QUERY,
    OPT_COLORFUL,
    OPT_FORCE_COLOR,
    OPT_LIGHT,
    OPT_GPU_THRESH,
    OPT_MEM_THRESH,
    OPT_ONLY,
    OPT_ONLY_VISIBLE,
    OPT_COMPUTE,
    OPT_ONLY_COMPUTE,
    OPT_GRAPHICS,
    OPT_ONLY_GRAPHICS,
    OPT_USER,
    OPT_PID,
    OPT_CONFIG,
    OPT_NO_CONFIG,
    OPT_RECORD,
    OPT_REPLAY,
    OPT_AT,
    OPT_FROM,
    OPT_TO,
    OPT_HOSTS,
    OPT_PROMETHEUS,
    OPT_CACERT,
    OPT_CERT,
    OPT_KEY,
    OPT_TIMEOUT
};

/* Declaration order matters: argparse lists prefix matches in this order. */
static const struct argparse_option option_table[] = {
    {OPT_HELP, {"--help", "-h"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_VERSION, {"--version", "-V"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_ONCE, {"--once", "-1"}, ARGPARSE_FLAG, 1, NULL},
    {OPT_MONITOR, {"--monitor", "-m"}, ARGPARSE_OPTIONAL, 1, NULL},
    {OPT_INTERVAL, {"--interval"}, ARGPARSE_ONE, 0, NULL},
    {OPT_ASCII, {"--no-unicode", "--ascii", "-U"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_READONLY, {"--readonly"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_JSON, {"--json"}, ARGPARSE_FLAG, 2, NULL},
    {OPT_QUERY, {"--query", "-q"}, ARGPARSE_FLAG, 2, NULL},
    {OPT_COLORFUL, {"--colorful"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_FORCE_COLOR, {"--force-color"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_LIGHT, {"--light"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_GPU_THRESH, {"--gpu-util-thresh"}, ARGPARSE_TWO, 0, NULL},
    {OPT_MEM_THRESH, {"--mem-util-thresh"}, ARGPARSE_TWO, 0, NULL},
    {OPT_ONLY, {"--only", "-o"}, ARGPARSE_ONE_OR_MORE, 0, NULL},
    {OPT_ONLY_VISIBLE, {"--only-visible", "-ov"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_COMPUTE, {"--compute", "-c"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_ONLY_COMPUTE, {"--only-compute", "-C"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_GRAPHICS, {"--graphics", "-g"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_ONLY_GRAPHICS, {"--only-graphics", "-G"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_USER, {"--user", "-u"}, ARGPARSE_ZERO_OR_MORE, 0, NULL},
    {OPT_PID, {"--pid", "-p"}, ARGPARSE_ONE_OR_MORE, 0, NULL},
    {OPT_CONFIG, {"--config"}, ARGPARSE_ONE, 3, NULL},
    {OPT_NO_CONFIG, {"--no-config"}, ARGPARSE_FLAG, 3, NULL},
    {OPT_RECORD, {"--record"}, ARGPARSE_ONE, 0, NULL},
    {OPT_REPLAY, {"--replay"}, ARGPARSE_ONE, 0, NULL},
    {OPT_AT, {"--at"}, ARGPARSE_ONE, 0, NULL},
    {OPT_FROM, {"--from"}, ARGPARSE_ONE, 0, NULL},
    {OPT_TO, {"--to"}, ARGPARSE_ONE, 0, NULL},
    /* Cluster view (ours, not nvitop's; docs/cluster.md). */
    {OPT_HOSTS, {"--hosts"}, ARGPARSE_ONE, 4, NULL},
    {OPT_PROMETHEUS, {"--prometheus"}, ARGPARSE_ONE, 4, NULL},
    {OPT_CACERT, {"--cacert"}, ARGPARSE_ONE, 0, NULL},
    {OPT_CERT, {"--cert"}, ARGPARSE_ONE, 0, NULL},
    {OPT_KEY, {"--key"}, ARGPARSE_ONE, 0, NULL},
    {OPT_TIMEOUT, {"--timeout"}, ARGPARSE_ONE, 0, NULL},
    {0, {NULL}, ARGPARSE_FLAG, 0, NULL},
};

struct parse_state {
    struct nvitop_options *options;
    int exit_code; /* -1: go on */
};

static bool invalid_value(char *error, size_t size, const char *display, const char *type,
                          const char *value) {
    snprintf(error, size, "argument %s: invalid %s value: '%s'", display, type, value);
    return false;
}

static bool parse_threshold(const char *display, char *const *values, uint32_t out[2], char *error,
                            size_t size) {
    long long parsed[2];
    for (size_t i = 0; i < 2; i++) {
        if (!argparse_int(values[i], &parsed[i])) {
            return invalid_value(error, size, display, "int", values[i]);
        }
    }
    for (size_t i = 0; i < 2; i++) {
        if (parsed[i] < 1 || parsed[i] > 99) {
            int n = snprintf(error, size, "argument %s: invalid choice: %lld (choose from ",
                             display, parsed[i]);
            for (int c = 1; c <= 99 && n > 0 && (size_t)n < size; c++) {
                n += snprintf(error + n, size - (size_t)n, c < 99 ? "%d, " : "%d)", c);
            }
            return false;
        }
        out[i] = (uint32_t)parsed[i];
    }
    return true;
}

static bool parse_interval(const char *display, const char *value, double *out, char *error,
                           size_t size) {
    char *end = NULL;
    double parsed = strtod(value, &end);
    while (end != NULL && (*end == ' ' || *end == '\t' || *end == '\n')) {
        end++;
    }
    if (end == value || end == NULL || *end != '\0' || !(parsed > 0.0) || parsed == HUGE_VAL) {
        return invalid_value(error, size, display, "positive float", value);
    }
    *out = parsed;
    return true;
}

static bool parse_ints(const char *display, char *const *values, size_t count, long long **out,
                       size_t *out_count, char *error, size_t size) {
    long long *parsed = xcalloc(count + 1, sizeof(*parsed));
    for (size_t i = 0; i < count; i++) {
        if (!argparse_int(values[i], &parsed[i])) {
            free(parsed);
            return invalid_value(error, size, display, "int", values[i]);
        }
    }
    free(*out);
    *out = parsed;
    *out_count = count;
    return true;
}

static bool parse_monitor(struct nvitop_options *o, const char *display, char *const *values,
                          size_t count, char *error, size_t size) {
    static const char *const modes[] = {"auto", "full", "compact"};
    o->monitor = true;
    o->mode_given = count > 0;
    if (count == 0) {
        o->mode = VIEW_MODE_AUTO;
        return true;
    }
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(values[0], modes[i]) == 0) {
            o->mode = (enum view_display_mode)i;
            return true;
        }
    }
    snprintf(error, size,
             "argument %s: invalid choice: '%s' (choose from 'auto', 'full', 'compact')", display,
             values[0]);
    return false;
}

static bool parse_pids(struct nvitop_options *o, const char *display, char *const *values,
                       size_t count, char *error, size_t size) {
    long long *parsed = NULL;
    size_t parsed_count = 0;
    if (!parse_ints(display, values, count, &parsed, &parsed_count, error, size)) {
        return false;
    }
    free(o->pids);
    o->pids = xcalloc(parsed_count + 1, sizeof(*o->pids));
    o->pid_count = 0;
    for (size_t i = 0; i < parsed_count; i++) {
        /* A negative or huge PID can match no process; keep it out rather than wrap it. */
        if (parsed[i] >= 0 && parsed[i] <= UINT32_MAX) {
            o->pids[o->pid_count++] = (uint32_t)parsed[i];
        }
    }
    o->pid_given = true;
    free(parsed);
    return true;
}

static bool handle_option(void *context, const struct argparse_option *option, const char *display,
                          char *const *values, size_t count, char *error, size_t size) {
    struct parse_state *state = context;
    struct nvitop_options *o = state->options;
    switch ((enum option_id)option->id) {
    case OPT_HELP:
        nvitop_help_print();
        state->exit_code = 0;
        snprintf(error, size, "%s", "");
        return false;
    case OPT_VERSION:
        printf("nvitop %s\n", NVT_VERSION_STRING);
        state->exit_code = 0;
        snprintf(error, size, "%s", "");
        return false;
    case OPT_ONCE:
        o->once = true;
        return true;
    case OPT_MONITOR:
        return parse_monitor(o, display, values, count, error, size);
    case OPT_INTERVAL:
        return parse_interval(display, values[0], &o->interval_s, error, size);
    case OPT_ASCII:
        o->ascii = true;
        return true;
    case OPT_READONLY:
        o->readonly = true;
        return true;
    case OPT_JSON:
        o->output = NVITOP_OUTPUT_JSON;
        return true;
    case OPT_QUERY:
        o->output = NVITOP_OUTPUT_QUERY;
        return true;
    case OPT_COLORFUL:
        o->colorful = true;
        return true;
    case OPT_FORCE_COLOR:
        o->force_color = true;
        return true;
    case OPT_LIGHT:
        o->light = true;
        return true;
    case OPT_GPU_THRESH:
        o->gpu_thresh_given = true;
        return parse_threshold(display, values, o->gpu_thresh, error, size);
    case OPT_MEM_THRESH:
        o->mem_thresh_given = true;
        return parse_threshold(display, values, o->mem_thresh, error, size);
    case OPT_ONLY:
        o->only_given = true;
        return parse_ints(display, values, count, &o->only, &o->only_count, error, size);
    case OPT_ONLY_VISIBLE:
        o->only_visible = true;
        return true;
    case OPT_COMPUTE:
        o->compute = true;
        return true;
    case OPT_ONLY_COMPUTE:
        o->only_compute = true;
        return true;
    case OPT_GRAPHICS:
        o->graphics = true;
        return true;
    case OPT_ONLY_GRAPHICS:
        o->only_graphics = true;
        return true;
    case OPT_USER:
        o->user_given = true;
        free(o->users);
        o->users = xcalloc(count + 1, sizeof(*o->users));
        for (size_t i = 0; i < count; i++) {
            o->users[i] = values[i];
        }
        o->user_count = count;
        return true;
    case OPT_PID:
        return parse_pids(o, display, values, count, error, size);
    case OPT_CONFIG:
        o->config_path = values[0];
        return true;
    case OPT_NO_CONFIG:
        o->no_config = true;
        return true;
    case OPT_RECORD:
        o->record = values[0];
        return true;
    case OPT_REPLAY:
        o->replay = values[0];
        return true;
    case OPT_AT:
        o->at = values[0];
        return true;
    case OPT_FROM:
        o->from = values[0];
        return true;
    case OPT_TO:
        o->to = values[0];
        return true;
    case OPT_HOSTS:
        o->hosts = values[0];
        return true;
    case OPT_PROMETHEUS:
        o->prometheus = values[0];
        return true;
    case OPT_CACERT:
        o->cacert = values[0];
        return true;
    case OPT_CERT:
        o->cert = values[0];
        return true;
    case OPT_KEY:
        o->key = values[0];
        return true;
    case OPT_TIMEOUT:
        return parse_interval(display, values[0], &o->timeout_s, error, size);
    }
    return true;
}

/* NVITOP_MONITOR_MODE: lower-cased, split on ",", tokens trimmed. */
static bool mode_has(const char *token) {
    const char *env = getenv("NVITOP_MONITOR_MODE");
    if (env == NULL) {
        return false;
    }
    char *copy = xstrdup(env);
    bool found = false;
    char *save = NULL;
    for (char *p = copy; *p != '\0'; p++) {
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    }
    for (char *tok = strtok_r(copy, ",", &save); tok != NULL && !found;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t' || *tok == '\n') {
            tok++;
        }
        size_t len = strlen(tok);
        while (len > 0 && (tok[len - 1] == ' ' || tok[len - 1] == '\t' || tok[len - 1] == '\n')) {
            tok[--len] = '\0';
        }
        found = strcmp(tok, token) == 0;
    }
    free(copy);
    return found;
}

/* "a,b" from the environment: exactly two ints (after cutting to the first two), 1..99. */
static void env_thresholds(const char *name, bool *given, uint32_t out[2]) {
    const char *env = getenv(name);
    if (*given || env == NULL) {
        return;
    }
    char *copy = xstrdup(env);
    long long values[2];
    size_t count = 0;
    bool ok = true;
    char *cursor = copy;
    for (;;) {
        char *comma = strchr(cursor, ',');
        if (comma != NULL) {
            *comma = '\0';
        }
        long long value;
        if (!argparse_int(cursor, &value)) {
            ok = false;
            break;
        }
        if (count < 2) {
            values[count] = value;
        }
        count++;
        if (comma == NULL) {
            break;
        }
        cursor = comma + 1;
    }
    free(copy);
    if (ok && count >= 2 && values[0] > 0 && values[1] > 0 && values[0] < 100 && values[1] < 100) {
        out[0] = (uint32_t)values[0];
        out[1] = (uint32_t)values[1];
        *given = true;
    }
}

static void apply_environment(struct nvitop_options *o) {
    o->colorful_decided = o->colorful || mode_has("colorful") || mode_has("plain");
    if (!o->colorful) {
        o->colorful = mode_has("colorful") && !mode_has("plain");
    }
    o->light_decided = o->light || mode_has("light") || mode_has("dark");
    if (!o->light) {
        o->light = mode_has("light") && !mode_has("dark");
    }
    if (!o->readonly) {
        o->readonly = mode_has("readonly");
    }
    if (o->user_given && o->user_count == 0) {
        o->users = xrealloc(o->users, 2 * sizeof(*o->users));
        o->users[0] = o->user_name;
        o->user_count = 1;
    }
    env_thresholds("NVITOP_GPU_UTILIZATION_THRESHOLDS", &o->gpu_thresh_given, o->gpu_thresh);
    env_thresholds("NVITOP_MEMORY_UTILIZATION_THRESHOLDS", &o->mem_thresh_given, o->mem_thresh);
}

/* The display mode from NVITOP_MONITOR_MODE when -m had no value: the one mode token present.
 * *decided tells whether there was one. */
static enum view_display_mode env_mode(bool *decided) {
    static const char *const modes[] = {"auto", "full", "compact"};
    int found = -1;
    int count = 0;
    for (int i = 0; i < 3; i++) {
        if (mode_has(modes[i])) {
            found = i;
            count++;
        }
    }
    *decided = count == 1;
    return count == 1 ? (enum view_display_mode)found : VIEW_MODE_AUTO;
}

/* Combinations of the recording options that mean nothing; NULL when fine. */
static const char *replay_conflict(const struct nvitop_options *o) {
    if ((o->at != NULL || o->from != NULL || o->to != NULL) && o->replay == NULL) {
        return "argument --at/--from/--to: only with --replay FILE|DIR";
    }
    if (o->record != NULL && o->replay != NULL) {
        return "argument --record: not allowed with argument --replay";
    }
    if ((o->record != NULL || o->replay != NULL) && (o->hosts != NULL || o->prometheus != NULL)) {
        return o->record != NULL ? "argument --record: not allowed with --hosts or --prometheus"
                                 : "argument --replay: not allowed with --hosts or --prometheus";
    }
    if (o->at != NULL && (o->from != NULL || o->to != NULL)) {
        return "argument --at: not allowed with argument --from/--to";
    }
    if ((o->from != NULL || o->to != NULL) && o->output != NVITOP_OUTPUT_JSON) {
        return "argument --from/--to: prints JSON Lines, only with --json";
    }
    /* The visible devices and the query fields are the machine's now, not the recording's. */
    if (o->replay != NULL && (o->only_visible || o->output == NVITOP_OUTPUT_QUERY)) {
        return "argument --replay: not allowed with --only-visible or --query";
    }
    return NULL;
}

int nvitop_options_parse(struct nvitop_options *options, int argc, char **argv) {
    memset(options, 0, sizeof(*options));
    options->user_name = cli_login_name();
    struct parse_state state = {options, -1};
    char error[1024];
    if (!argparse_parse(option_table, argc, argv, handle_option, &state, error, sizeof(error))) {
        if (state.exit_code >= 0) {
            return state.exit_code;
        }
        nvitop_usage_error(error);
        return 2;
    }
    if (options->interval_s > 0.0 && options->interval_s < 0.25) {
        snprintf(error, sizeof(error),
                 "the interval %0.2gs is too short, which may cause performance issues. "
                 "Expected 1/4 or higher.",
                 options->interval_s);
        nvitop_usage_error(error);
        return 2;
    }
    const char *conflict = replay_conflict(options);
    if (conflict != NULL) {
        nvitop_usage_error(conflict);
        return 2;
    }
    /* The mode of an implied monitor (a terminal and no -1) comes from the environment too. */
    options->mode_decided = options->mode_given;
    if (!options->mode_given) {
        options->mode = env_mode(&options->mode_decided);
    }
    apply_environment(options);
    return -1;
}

void nvitop_options_fini(struct nvitop_options *options) {
    free(options->only);
    free(options->users);
    free(options->pids);
    free(options->user_name);
    memset(options, 0, sizeof(*options));
}
