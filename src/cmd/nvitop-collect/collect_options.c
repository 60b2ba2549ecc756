#include "collect_options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/collector.h>
#include <nvitop/version.h>

#include "util/text/parse.h"
#include "util/text/str.h"
#include "util/xalloc.h"

#define PROG          "nvitop-collect"
#define DEFAULT_EVERY 5.0
#define DEFAULT_TAG   "metrics-daemon"

static const char usage_text[] =
    "usage: " PROG " [-o FILE] [-f csv|jsonl] [-i SECONDS] [-e SECONDS]\n"
    "                      [-t TAG] [-d all|LIST] [--all-processes] [--cumulative]\n"
    "                      [--] COMMAND [ARG...]\n";

static const char help_text[] =
    "\n"
    "Run COMMAND and record the resource usage of it and its descendants (GPU\n"
    "memory and utilisation of its GPU processes, their host CPU and memory) with\n"
    "the GPUs' and the host's, as nvitop's ResourceMetricCollector summarises them:\n"
    "one row every --every seconds with the mean, min, max and last value of each\n"
    "metric over the row's window. The exit status is COMMAND's (128+N when signal\n"
    "N killed it); SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to " PROG "\n"
    "are passed on to COMMAND.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE     Write to FILE (created or truncated). Default or \"-\":\n"
    "                        standard output.\n"
    "  -f, --format FORMAT   \"csv\" (a header of keys, a row per window) or \"jsonl\"\n"
    "                        (JSON Lines, one object per window). Default: jsonl\n"
    "                        when FILE ends in .jsonl or .json, else csv.\n"
    "  -i, --interval SECONDS\n"
    "                        Sampling interval (default: 1.0; at least 0.25).\n"
    "  -e, --every SECONDS   Seconds between rows (default: 5). A last row covers\n"
    "                        the end of the run.\n"
    "  -t, --tag TAG         Key prefix (default: " DEFAULT_TAG ").\n"
    "  -d, --devices all|LIST\n"
    "                        GPUs to follow: \"all\", or NVML indices such as \"0,2\".\n"
    "                        Default: the devices CUDA_VISIBLE_DEVICES names (keys\n"
    "                        \"cuda:N (gpu:M)\") when it is set, else all.\n"
    "  --all-processes       Record every GPU process, not only COMMAND's tree.\n"
    "  --cumulative          Statistics since the start of the run in every row,\n"
    "                        instead of since the previous row.\n"
    "  -h, --help            Show this help message and exit.\n"
    "  -V, --version         Show " PROG "'s version number and exit.\n"
    "\n"
    "Keys look like \"<tag>/<scope>/<metric (unit)>/<mean|min|max|last>\", e.g.\n"
    "\"metrics-daemon/gpu:0/memory_used (MiB)/mean\" or\n"
    "\"metrics-daemon/pid:4242/host/cpu_percent (%)/max\"; each row also has\n"
    "\"<tag>/duration (s)\" and \"<tag>/timestamp\". Exit statuses of " PROG "\n"
    "itself: 125 (bad usage, NVML unavailable, output not writable), 126 (COMMAND\n"
    "cannot be run), 127 (COMMAND not found). See nvitop-collect(1).\n";

enum {
    OPT_ALL_PROCESSES = 256,
    OPT_CUMULATIVE
};

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'f'},
    {"interval", required_argument, NULL, 'i'},
    {"every", required_argument, NULL, 'e'},
    {"tag", required_argument, NULL, 't'},
    {"devices", required_argument, NULL, 'd'},
    {"all-processes", no_argument, NULL, OPT_ALL_PROCESSES},
    {"cumulative", no_argument, NULL, OPT_CUMULATIVE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static enum collect_parse_result usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static enum collect_parse_result usage_error(const char *fmt, ...) {
    fputs(usage_text, stderr);
    fputs(PROG ": error: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return COLLECT_PARSE_EXIT_USAGE;
}

static bool parse_seconds(const char *text, double minimum, double *out) {
    double value = 0.0;
    if (parse_double(text, &value) != 0 || value < minimum || value > 86400.0 * 365) {
        return false;
    }
    *out = value;
    return true;
}

/* "0,2,3": NVML indices, no duplicates. */
static bool parse_devices(const char *text, struct collect_options *o) {
    if (strcmp(text, "all") == 0) {
        o->all_devices = true;
        return true;
    }
    size_t cap = strlen(text) / 2 + 1;
    o->devices = xcalloc(cap, sizeof(*o->devices));
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char item[16];
        uint32_t index = 0;
        if (len == 0 || len >= sizeof(item)) {
            return false;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (parse_u32(item, 10, &index) != 0 || o->device_count >= cap) {
            return false;
        }
        for (size_t i = 0; i < o->device_count; i++) {
            if (o->devices[i] == index) {
                return false;
            }
        }
        o->devices[o->device_count++] = index;
        if (comma == NULL) {
            return true;
        }
        p = comma + 1;
    }
}

static enum collect_format default_format(const char *output) {
    if (output != NULL && (str_ends_with(output, ".jsonl") || str_ends_with(output, ".json"))) {
        return COLLECT_JSONL;
    }
    return COLLECT_CSV;
}

/* One option; returns COLLECT_PARSE_OK to go on. */
static enum collect_parse_result handle(int c, const char *arg, struct collect_options *o,
                                        bool *format_given) {
    switch (c) {
    case 'o':
        o->output = arg;
        return COLLECT_PARSE_OK;
    case 'f':
        if (strcmp(arg, "csv") != 0 && strcmp(arg, "jsonl") != 0) {
            return usage_error("argument --format: invalid choice: '%s' (choose csv or jsonl)",
                               arg);
        }
        o->format = strcmp(arg, "csv") == 0 ? COLLECT_CSV : COLLECT_JSONL;
        *format_given = true;
        return COLLECT_PARSE_OK;
    case 'i':
        return parse_seconds(arg, NVT_COLLECTOR_MIN_INTERVAL_S, &o->interval_s)
                   ? COLLECT_PARSE_OK
                   : usage_error("argument --interval: '%s' is not a number of seconds >= 0.25",
                                 arg);
    case 'e':
        return parse_seconds(arg, 0.01, &o->every_s) && o->every_s > 0.0
                   ? COLLECT_PARSE_OK
                   : usage_error("argument --every: '%s' is not a positive number of seconds", arg);
    case 't':
        if (arg[0] == '\0') {
            return usage_error("argument --tag: the tag must not be empty");
        }
        o->tag = arg;
        return COLLECT_PARSE_OK;
    case 'd':
        free(o->devices);
        o->devices = NULL;
        o->device_count = 0;
        o->all_devices = false;
        return parse_devices(arg, o) ? COLLECT_PARSE_OK
                                     : usage_error("argument --devices: invalid value: '%s' "
                                                   "(\"all\" or NVML indices such as \"0,2\")",
                                                   arg);
    case OPT_ALL_PROCESSES:
        o->all_processes = true;
        return COLLECT_PARSE_OK;
    case OPT_CUMULATIVE:
        o->cumulative = true;
        return COLLECT_PARSE_OK;
    case 'h':
        fputs(usage_text, stdout);
        fputs(help_text, stdout);
        return COLLECT_PARSE_EXIT_OK;
    case 'V':
        printf(PROG " %s\n", NVT_VERSION_STRING);
        return COLLECT_PARSE_EXIT_OK;
    default: /* getopt_long has printed what was wrong */
        fputs(usage_text, stderr);
        return COLLECT_PARSE_EXIT_USAGE;
    }
}

enum collect_parse_result collect_options_parse(int argc, char **argv,
                                                const struct tui_collect_settings *settings,
                                                struct collect_options *o) {
    *o = (struct collect_options){.interval_s = NVT_COLLECTOR_DEFAULT_INTERVAL_S,
                                  .every_s = DEFAULT_EVERY,
                                  .tag = DEFAULT_TAG};
    bool format_given = false;
    /* The settings files' defaults; the options below override them. */
    if (settings != NULL) {
        o->interval_s = settings->interval_s > 0.0 ? settings->interval_s : o->interval_s;
        o->every_s = settings->every_s > 0.0 ? settings->every_s : o->every_s;
        o->tag = settings->tag[0] != '\0' ? settings->tag : o->tag;
        o->all_processes = settings->all_processes;
        o->cumulative = settings->cumulative;
        format_given = settings->format != TUI_COLLECT_FORMAT_AUTO;
        o->format = settings->format == TUI_COLLECT_FORMAT_JSONL ? COLLECT_JSONL : COLLECT_CSV;
    }
    /* "+": stop at the first non-option, so that the job's own options stay the job's. */
    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, "+o:f:i:e:t:d:hV", long_options, NULL);
        if (c == -1) {
            break;
        }
        enum collect_parse_result r = handle(c, optarg, o, &format_given);
        if (r != COLLECT_PARSE_OK) {
            return r;
        }
    }
    if (optind >= argc) {
        return usage_error("the following arguments are required: COMMAND");
    }
    if (!format_given) {
        o->format = default_format(o->output);
    }
    o->command = argv + optind;
    return COLLECT_PARSE_OK;
}

void collect_options_fini(struct collect_options *o) {
    free(o->devices);
    o->devices = NULL;
}
