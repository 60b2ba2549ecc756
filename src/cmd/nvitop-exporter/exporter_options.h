/*
 * nvitop-exporter's command line, with nvitop-exporter 1.7's flags, defaults and validation rules
 * (docs/exporter.md): argparse-compatible spellings and messages, exit status 2 for usage errors.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_OPTIONS_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_OPTIONS_H

#include <stdbool.h>

struct exporter_options {
    const char *hostname; /* NULL: the machine's outbound IP address (see exporter_default_host) */
    const char *bind_address;
    unsigned port;
    double interval_s;
    const char *certfile; /* all four NULL when not given; strings point into argv */
    const char *keyfile;
    const char *client_cafile;
    const char *client_capath;
    bool client_auth_required;
    const char *tls_min_version; /* "1.0" to "1.3" (default "1.2", exporter-toolkit's minimum) */
};

/*
 * Parse argv into *out.  Returns -1 to go on, or the exit status to leave with after --help,
 * --version (0) or a usage error (2, message already printed to stderr).
 */
int exporter_options_parse(int argc, char *const *argv, struct exporter_options *out);

/* The address nvitop-exporter uses as the default hostname label: the local address of a UDP
 * socket "connected" to an unroutable address (no packet is sent), else "127.0.0.1". */
void exporter_default_host(char *buf, unsigned size);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_OPTIONS_H */
