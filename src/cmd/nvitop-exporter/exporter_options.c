/* nvitop-exporter's options (exporter_options.h). */
#include "exporter_options.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nvitop/version.h>

#include "cmd/nvitop/cli/argparse.h"
#include "util/text/parse.h"

#define MIN_INTERVAL_S 0.25 /* nvitop-exporter rejects shorter intervals */

enum option_id {
    OPT_HELP,
    OPT_VERSION,
    OPT_HOSTNAME,
    OPT_BIND,
    OPT_PORT,
    OPT_INTERVAL,
    OPT_CERTFILE,
    OPT_KEYFILE,
    OPT_CLIENT_CAFILE,
    OPT_CLIENT_CAPATH,
    OPT_CLIENT_AUTH,
    OPT_TLS_MIN_VERSION
};

static const struct argparse_option option_table[] = {
    {OPT_HELP, {"--help", "-h"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_VERSION, {"--version", "-V"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_HOSTNAME, {"--hostname", "--host", "-H"}, ARGPARSE_ONE, 0, NULL},
    {OPT_BIND, {"--bind-address", "--bind", "-B"}, ARGPARSE_ONE, 0, NULL},
    {OPT_PORT, {"--port", "-p"}, ARGPARSE_ONE, 0, NULL},
    {OPT_INTERVAL, {"--interval"}, ARGPARSE_ONE, 0, NULL},
    {OPT_CERTFILE, {"--certfile"}, ARGPARSE_ONE, 0, NULL},
    {OPT_KEYFILE, {"--keyfile"}, ARGPARSE_ONE, 0, NULL},
    {OPT_CLIENT_CAFILE, {"--client-cafile"}, ARGPARSE_ONE, 0, NULL},
    {OPT_CLIENT_CAPATH, {"--client-capath"}, ARGPARSE_ONE, 0, NULL},
    {OPT_CLIENT_AUTH, {"--client-auth-required"}, ARGPARSE_FLAG, 0, NULL},
    {OPT_TLS_MIN_VERSION, {"--tls-min-version"}, ARGPARSE_ONE, 0, NULL},
    {0, {NULL}, ARGPARSE_FLAG, 0, NULL},
};

static const char *const usage_parts[] = {
    "[--help]",
    "[--version]",
    "[--hostname HOSTNAME]",
    "[--bind-address ADDRESS]",
    "[--port PORT]",
    "[--interval SEC]",
    "[--certfile PATH]",
    "[--keyfile PATH]",
    "[--client-cafile PATH]",
    "[--client-capath PATH]",
    "[--client-auth-required]",
    "[--tls-min-version {1.0,1.1,1.2,1.3}]",
    NULL,
};

static const char help_format[] =
    "\n"
    "Prometheus exporter built on top of `nvitop`.\n"
    "\n"
    "options:\n"
    "  --help, -h            Show this help message and exit.\n"
    "  --version, -V         Show nvitop-exporter's version number and exit.\n"
    "  --hostname HOSTNAME, --host HOSTNAME, -H HOSTNAME\n"
    "                        Hostname to display in the exporter. (default: %s)\n"
    "  --bind-address ADDRESS, --bind ADDRESS, -B ADDRESS\n"
    "                        Local address to bind to. (default: 127.0.0.1)\n"
    "  --port PORT, -p PORT  Port to listen on. (default: 8000)\n"
    "  --interval SEC        Interval between updates in seconds. (default: 1.0)\n"
    "\n"
    "TLS / mTLS options:\n"
    "  --certfile PATH       Path to the TLS certificate file (PEM).\n"
    "                        Enables HTTPS when set together with `--keyfile`.\n"
    "  --keyfile PATH        Path to the TLS private key file (PEM).\n"
    "                        Required if `--certfile` is set.\n"
    "  --client-cafile PATH  Path to a PEM bundle of trusted client CA certificates for mutual "
    "TLS.\n"
    "                        Must be passed together with `--client-auth-required`.\n"
    "  --client-capath PATH  Path to a directory of trusted client CA certificates for mutual "
    "TLS.\n"
    "                        Must be passed together with `--client-auth-required`.\n"
    "  --client-auth-required\n"
    "                        Require clients to present a valid certificate (mutual TLS).\n"
    "                        Must be passed together with `--client-cafile` or "
    "`--client-capath`.\n"
    "  --tls-min-version {1.0,1.1,1.2,1.3}\n"
    "                        The oldest TLS version accepted. (default: 1.2)\n";

struct parse_state {
    struct exporter_options *options;
    int exit_code;
};

static void usage_error(const char *message) {
    char usage[2048];
    argparse_usage(usage, sizeof(usage), "nvitop-exporter", usage_parts);
    fputs(usage, stderr);
    fprintf(stderr, "nvitop-exporter: error: %s\n", message);
}

void exporter_default_host(char *buf, unsigned size) {
    snprintf(buf, size, "127.0.0.1");
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return;
    }
    /* connect() on a UDP socket only picks the route and the local address; nothing is sent. */
    struct sockaddr_in peer = {.sin_family = AF_INET, .sin_port = htons(1)};
    inet_pton(AF_INET, "10.254.254.254", &peer.sin_addr);
    struct sockaddr_in local;
    socklen_t len = sizeof(local);
    if (connect(fd, (const struct sockaddr *)&peer, sizeof(peer)) == 0 &&
        getsockname(fd, (struct sockaddr *)&local, &len) == 0 && local.sin_addr.s_addr != 0) {
        inet_ntop(AF_INET, &local.sin_addr, buf, size);
    }
    close(fd);
}

/* Python's float() of a positive value, as nvitop-exporter's posfloat type. */
static bool positive_float(const char *text, double *out) {
    char *end = NULL;
    while (*text == ' ' || *text == '\t') {
        text++;
    }
    double value = strtod(text, &end);
    if (end == text) {
        return false;
    }
    while (*end == ' ' || *end == '\t' || *end == '\n') {
        end++;
    }
    if (*end != '\0' || !(value > 0) || isnan(value)) {
        return false;
    }
    *out = value;
    return true;
}

static bool handle(void *context, const struct argparse_option *option, const char *display,
                   char *const *values, size_t count, char *error, size_t error_size) {
    struct parse_state *state = context;
    struct exporter_options *o = state->options;
    const char *value = count > 0 ? values[0] : NULL;
    switch ((enum option_id)option->id) {
    case OPT_HELP: {
        char usage[2048];
        char host[64];
        argparse_usage(usage, sizeof(usage), "nvitop-exporter", usage_parts);
        exporter_default_host(host, sizeof(host));
        fputs(usage, stdout);
        printf(help_format, host);
        state->exit_code = 0;
        return false;
    }
    case OPT_VERSION:
        printf("nvitop-exporter %s (nvitop %s)\n", NVT_VERSION_STRING, NVT_VERSION_STRING);
        state->exit_code = 0;
        return false;
    case OPT_HOSTNAME:
        o->hostname = value;
        return true;
    case OPT_BIND:
        o->bind_address = value;
        return true;
    case OPT_PORT: {
        long long port = 0;
        if (!argparse_int(value, &port)) {
            snprintf(error, error_size, "argument %s: invalid int value: '%s'", display, value);
            return false;
        }
        if (port < 0 || port > 65535) {
            /* Python accepts the int and socket.bind() fails later; a clear message is better. */
            snprintf(error, error_size, "argument %s: port must be 0-65535, got %lld", display,
                     port);
            return false;
        }
        o->port = (unsigned)port;
        return true;
    }
    case OPT_INTERVAL:
        if (!positive_float(value, &o->interval_s)) {
            snprintf(error, error_size, "argument %s: invalid positive float value: '%s'", display,
                     value);
            return false;
        }
        return true;
    case OPT_CERTFILE:
        o->certfile = value;
        return true;
    case OPT_KEYFILE:
        o->keyfile = value;
        return true;
    case OPT_CLIENT_CAFILE:
        o->client_cafile = value;
        return true;
    case OPT_CLIENT_CAPATH:
        o->client_capath = value;
        return true;
    case OPT_CLIENT_AUTH:
        o->client_auth_required = true;
        return true;
    case OPT_TLS_MIN_VERSION:
        if (strcmp(value, "1.0") != 0 && strcmp(value, "1.1") != 0 && strcmp(value, "1.2") != 0 &&
            strcmp(value, "1.3") != 0) {
            snprintf(error, error_size,
                     "argument %s: invalid choice: '%s' (choose from '1.0', '1.1', '1.2', '1.3')",
                     display, value);
            return false;
        }
        o->tls_min_version = value;
        return true;
    }
    return true;
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* nvitop's checks after parsing, in its order; false with the message in error. */
static bool validate(const struct exporter_options *o, char *error, size_t size) {
    if (o->interval_s < MIN_INTERVAL_S) {
        char shown[32];
        /* Python's format(value, "0.2g") */
        snprintf(shown, sizeof(shown), "%.2g", o->interval_s);
        snprintf(error, size,
                 "the interval %ss is too short, which may cause performance issues. Expected "
                 "1/4 or higher.",
                 shown);
        return false;
    }
    if ((o->certfile == NULL) != (o->keyfile == NULL)) {
        snprintf(error, size, "`--certfile` and `--keyfile` must be specified together.");
        return false;
    }
    if (o->certfile != NULL && !is_file(o->certfile)) {
        snprintf(error, size, "`--certfile` not found: %s", o->certfile);
        return false;
    }
    if (o->keyfile != NULL && !is_file(o->keyfile)) {
        snprintf(error, size, "`--keyfile` not found: %s", o->keyfile);
        return false;
    }
    if (o->client_cafile != NULL && !is_file(o->client_cafile)) {
        snprintf(error, size, "`--client-cafile` not found: %s", o->client_cafile);
        return false;
    }
    if (o->client_capath != NULL && !is_dir(o->client_capath)) {
        snprintf(error, size, "`--client-capath` not a directory: %s", o->client_capath);
        return false;
    }
    bool ca_provided = o->client_cafile != NULL || o->client_capath != NULL;
    if ((ca_provided || o->client_auth_required) && o->certfile == NULL) {
        snprintf(error, size, "Mutual TLS options require `--certfile` and `--keyfile`.");
        return false;
    }
    if (ca_provided != o->client_auth_required) {
        snprintf(error, size,
                 "`--client-cafile` / `--client-capath` and `--client-auth-required` must be "
                 "specified together to enable mutual TLS.");
        return false;
    }
    return true;
}

int exporter_options_parse(int argc, char *const *argv, struct exporter_options *out) {
    memset(out, 0, sizeof(*out));
    out->bind_address = "127.0.0.1";
    out->port = 8000;
    out->interval_s = 1.0;
    out->tls_min_version = "1.2";
    struct parse_state state = {.options = out, .exit_code = -1};
    char error[1024] = "";
    if (!argparse_parse(option_table, argc, argv, handle, &state, error, sizeof(error))) {
        if (state.exit_code >= 0) {
            return state.exit_code;
        }
        usage_error(error);
        return 2;
    }
    if (!validate(out, error, sizeof(error))) {
        usage_error(error);
        return 2;
    }
    return -1;
}
