/*
 * nvitop-collect's command line (getopt_long; options stop at the first non-option or "--").
 */
#ifndef NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_OPTIONS_H
#define NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect_writer.h"
#include "settings/settings.h"

/* Exit statuses of nvitop-collect's own failures, as env(1) and timeout(1) use them, so that they
 * stand apart from the job's. */
#define COLLECT_EXIT_FAILURE    125 /* bad usage, no NVML, output not writable */
#define COLLECT_EXIT_CANNOT_RUN 126 /* the command exists but cannot be run */
#define COLLECT_EXIT_NOT_FOUND  127 /* no such command */

struct collect_options {
    const char *output;         /* NULL or "-": standard output */
    enum collect_format format; /* from --format, else the output's extension */
    double interval_s;          /* sampling interval */
    double every_s;             /* seconds between rows */
    const char *tag;
    bool all_devices;  /* --devices all */
    uint32_t *devices; /* --devices LIST (NVML indices) */
    size_t device_count;
    bool all_processes;   /* --all-processes */
    bool cumulative;      /* statistics since the start instead of since the previous row */
    char *const *command; /* the job: argv, NULL-terminated */
};

enum collect_parse_result {
    COLLECT_PARSE_OK,
    COLLECT_PARSE_EXIT_OK,   /* --help or --version was printed */
    COLLECT_PARSE_EXIT_USAGE /* a message was printed */
};

/* Parse argv over the defaults of the settings files' [collect] section (settings; NULL: none).
 * Messages go to stderr, help and version to stdout.  Free with collect_options_fini(). */
enum collect_parse_result collect_options_parse(int argc, char **argv,
                                                const struct tui_collect_settings *settings,
                                                struct collect_options *out);
void collect_options_fini(struct collect_options *options);

#endif /* NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_OPTIONS_H */
