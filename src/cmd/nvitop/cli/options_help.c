/*
 * nvitop's --help text and argparse-style usage errors.
 */
#include "cmd/nvitop/cli/options_help.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/nvitop/cli/argparse.h"

static const char *const usage_parts[] = {
    "[--help]",
    "[--version]",
    "[--once | --monitor [{auto,full,compact}]]",
    "[--interval SEC]",
    "[--no-unicode]",
    "[--readonly]",
    "[--json | --query]",
    "[--colorful]",
    "[--force-color]",
    "[--light]",
    "[--gpu-util-thresh th1 th2]",
    "[--mem-util-thresh th1 th2]",
    "[--only INDEX [INDEX ...]]",
    "[--only-visible]",
    "[--compute]",
    "[--only-compute]",
    "[--graphics]",
    "[--only-graphics]",
    "[--user [USERNAME ...]]",
    "[--pid PID [PID ...]]",
    "[--config FILE | --no-config]",
    "[--record FILE]",
    "[--replay FILE|DIR [--at TIME | --from TIME --to TIME]]",
    "[--hosts HOST:PORT,... | --prometheus URL]",
    "[--cacert FILE]",
    "[--cert FILE]",
    "[--key FILE]",
    "[--timeout SEC]",
    NULL,
};

/* Help body after the usage; %s are the coloured "light", "moderate", "heavy" words, twice. */
static const char help_format[] =
    "\n"
    "An interactive NVIDIA-GPU process viewer.\n"
    "\n"
    "options:\n"
    "  --help, -h            Show this help message and exit.\n"
    "  --version, -V         Show nvitop's version number and exit.\n"
    "  --once, -1            Report query data only once.\n"
    "  --monitor [{auto,full,compact}], -m [{auto,full,compact}]\n"
    "                        Run as a resource monitor. Continuously report query data and handle "
    "user inputs.\n"
    "                        If the argument is omitted, the value from `NVITOP_MONITOR_MODE` will "
    "be used.\n"
    "                        (default fallback mode: auto)\n"
    "  --interval SEC        Process status update interval in seconds. (default: 2)\n"
    "  --no-unicode, --ascii, -U\n"
    "                        Use ASCII characters only, which is useful for terminals without "
    "Unicode support.\n"
    "  --readonly            Disable all system and process changing features (e.g., terminating "
    "processes).\n"
    "                        Set variable `NVITOP_MONITOR_MODE=\"readonly\"` for convenience.\n"
    "  --json                Report query data once as JSON (the format is in nvitop(1)).\n"
    "  --query, -q           Report everything known about each device once, in detail.\n"
    "\n"
    "coloring:\n"
    "  --colorful            Use gradient colors to get spectrum-like bar charts.\n"
    "                        Set variable `NVITOP_MONITOR_MODE=\"colorful\"` for convenience.\n"
    "                        This option is only available when the terminal supports 256 "
    "colors.\n"
    "                        You may need to set environment variable `TERM=\"xterm-256color\"`. "
    "Note that the\n"
    "                        terminal multiplexer, such as `tmux`, may override the `TERM` "
    "variable.\n"
    "  --force-color         Force colorize even when `stdout` is not a TTY terminal.\n"
    "  --light               Tweak visual results for light theme terminals in monitor mode.\n"
    "                        Set variable `NVITOP_MONITOR_MODE=\"light\"` on light terminals for "
    "convenience.\n"
    "  --gpu-util-thresh th1 th2\n"
    "                        Thresholds of GPU utilization to determine the load intensity.\n"
    "                        Coloring rules: %s < th1 %% <= %s < th2 %% <= %s.\n"
    "                        ( 1 <= th1 < th2 <= 99, defaults: 10 75 )\n"
    "  --mem-util-thresh th1 th2\n"
    "                        Thresholds of GPU memory percent to determine the load intensity.\n"
    "                        Coloring rules: %s < th1 %% <= %s < th2 %% <= %s.\n"
    "                        ( 1 <= th1 < th2 <= 99, defaults: 10 80 )\n"
    "\n"
    "device filtering:\n"
    "  --only INDEX [INDEX ...], -o INDEX [INDEX ...]\n"
    "                        Only show the specified devices, suppress option `--only-visible`.\n"
    "  --only-visible, -ov   Only show devices in the `CUDA_VISIBLE_DEVICES` environment "
    "variable.\n"
    "\n"
    "process filtering:\n"
    "  --compute, -c         Only show GPU processes with the compute context. (type: 'C' or "
    "'C+G')\n"
    "  --only-compute, -C    Only show GPU processes exactly with the compute context. (type: "
    "'C' only)\n"
    "  --graphics, -g        Only show GPU processes with the graphics context. (type: 'G' or "
    "'C+G')\n"
    "  --only-graphics, -G   Only show GPU processes exactly with the graphics context. (type: "
    "'G' only)\n"
    "  --user [USERNAME ...], -u [USERNAME ...]\n"
    "                        Only show processes of the given users (or `$USER` for no "
    "argument).\n"
    "  --pid PID [PID ...], -p PID [PID ...]\n"
    "                        Only show processes of the given PIDs.\n"
    "\n"
    "settings:\n"
    "  --config FILE         Read the settings from FILE instead of the user and system files,\n"
    "                        and save them there (key S in the monitor).\n"
    "                        (default: $XDG_CONFIG_HOME/nvitop/nvitop.conf, then "
    "/etc/nvitop/nvitop.conf)\n"
    "  --no-config           Read no settings file (S still saves to the user file).\n"
    "\n"
    "recording (docs/recording.md, nvitop-record(1)):\n"
    "  --record FILE         Append every snapshot the monitor (or once mode) takes to FILE.\n"
    "  --replay FILE|DIR     Show a recording made by `--record` or `nvitop-record` instead of\n"
    "                        the live GPUs: the monitor (read-only, keys p ( ) j l J L n N x X @;\n"
    "                        see the help screen), or the report (--once) or JSON (--json).\n"
    "  --at TIME             The moment to replay: HH:MM[:SS] (local time, the latest such\n"
    "                        moment in the recording), YYYY-MM-DD[THH:MM[:SS]] or @EPOCH.\n"
    "                        (default: the monitor's first frame, the report's last)\n"
    "  --from TIME, --to TIME\n"
    "                        With --json: every recorded frame in the range, as JSON Lines.\n"
    "\n"
    "cluster (a screen of nodes, or once with --once or --json; see docs/cluster.md):\n"
    "  --hosts HOST:PORT,... | --hosts @FILE\n"
    "                        Read the nvitop-exporter metrics of these nodes (host:port or "
    "http(s):// URL,\n"
    "                        comma-separated, or one a line in FILE) and summarise each node.\n"
    "  --prometheus URL      Read every node's nvitop-exporter metrics from a Prometheus server.\n"
    "  --cacert FILE         CA certificates to verify HTTPS exporters or Prometheus with.\n"
    "  --cert FILE, --key FILE\n"
    "                        Client certificate and key (PEM) for mutual TLS.\n"
    "                        With --cacert, --cert or --key a bare host:port is read over HTTPS.\n"
    "  --timeout SEC         Give up on a node after SEC seconds. (default: 3)\n";

/* termcolor's decision for stdout without --force-color (the help is built before it applies). */
static bool help_color(void) {
    const char *term = getenv("TERM");
    if (!isatty(STDOUT_FILENO) || getenv("ANSI_COLORS_DISABLED") != NULL ||
        getenv("NO_COLOR") != NULL) {
        return false;
    }
    return getenv("FORCE_COLOR") != NULL || term == NULL || strcmp(term, "dumb") != 0;
}

void nvitop_help_print(void) {
    char usage[2048];
    argparse_usage(usage, sizeof(usage), "nvitop", usage_parts);
    bool color = help_color();
    const char *light = color ? "\033[32mlight\033[0m" : "light";
    const char *moderate = color ? "\033[33mmoderate\033[0m" : "moderate";
    const char *heavy = color ? "\033[31mheavy\033[0m" : "heavy";
    fputs(usage, stdout);
    printf(help_format, light, moderate, heavy, light, moderate, heavy);
}

void nvitop_usage_error(const char *message) {
    char usage[2048];
    argparse_usage(usage, sizeof(usage), "nvitop", usage_parts);
    fputs(usage, stderr);
    fprintf(stderr, "nvitop: error: %s\n", message);
}
