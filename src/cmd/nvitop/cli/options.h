/*
 * nvitop's command line and environment (docs/nvitop-behaviour.md §1.2–§1.3, nvitop 1.7's option
 * set plus our
 * --json and --query report formats).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_H
#define NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/config.h"

enum nvitop_output {
    NVITOP_OUTPUT_REPORT = 0, /* nvitop's once report */
    NVITOP_OUTPUT_JSON,       /* --json */
    NVITOP_OUTPUT_QUERY       /* --query: detailed per-device report */
};

struct nvitop_options {
    bool once;
    bool monitor;    /* --monitor given (with or without a mode) */
    bool mode_given; /* a mode followed --monitor */
    enum view_display_mode mode;
    /* Set by the command line or the environment, so that the settings file does not override
     * them (precedence: command line > environment > files > defaults). */
    bool mode_decided;
    bool colorful_decided;
    bool light_decided;
    double interval_s; /* 0 when not given */
    bool ascii;
    bool readonly;
    bool colorful;
    bool force_color;
    bool light;
    bool gpu_thresh_given;
    uint32_t gpu_thresh[2];
    bool mem_thresh_given;
    uint32_t mem_thresh[2];
    bool only_given;
    long long *only; /* as given (may hold invalid indices) */
    size_t only_count;
    bool only_visible;
    bool compute;
    bool only_compute;
    bool graphics;
    bool only_graphics;
    bool user_given;
    char **users; /* pointers into argv, or the current user name */
    size_t user_count;
    bool pid_given;
    uint32_t *pids;
    size_t pid_count;
    enum nvitop_output output;
    const char *config_path; /* --config FILE (points into argv), or NULL */
    bool no_config;          /* --no-config */
    /* Recording and replay (docs/recording.md); pointers into argv, NULL when not given. */
    const char *record;
    const char *replay;
    const char *at;
    const char *from;
    const char *to;
    /* Cluster view: pointers into argv, NULL when not given. */
    const char *hosts;      /* --hosts LIST or @FILE */
    const char *prometheus; /* --prometheus URL */
    const char *cacert;
    const char *cert;
    const char *key;
    double timeout_s; /* --timeout, 0 when not given */
    char *user_name;  /* the current login name (owned) */
};

/*
 * Parse argv and apply the environment fallbacks (NVITOP_MONITOR_MODE, threshold variables, bare
 * -u).  Returns -1 when parsing succeeded, else the exit status to use after --help / --version
 * (0) or a syntax error (2, with the usage block and message already on stderr).
 */
int nvitop_options_parse(struct nvitop_options *options, int argc, char **argv);

/* Free what nvitop_options_parse() allocated. */
void nvitop_options_fini(struct nvitop_options *options);

#endif /* NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_H */
