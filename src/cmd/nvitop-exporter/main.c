/*
 * nvitop-exporter: a Prometheus exporter on libnvitop (docs/exporter.md).  The main thread samples
 * every interval and renders the exposition once; the HTTP server thread answers every scrape
 * with that text.  SIGINT and SIGTERM end the program cleanly.
 */
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

#include "cmd/nvitop/output/messages.h"
#include "exporter.h"
#include "exporter_options.h"
#include "http_server.h"
#include "render.h"
#include "tls_files.h"
#include "util/sys/clock.h"
#include "util/sys/nofile.h"

/* Open NVML as nvitop-exporter does: a clear message and status 1 without it or without GPUs. */
static nvt_context *open_driver(void) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    bool color = isatty(STDERR_FILENO) != 0;
    if (status == NVT_ERR_LIBRARY_NOT_FOUND) {
        messages_print_nvml_not_found(color);
        return NULL;
    }
    if (status != NVT_OK) {
        messages_print_nvml_error(color, nvt_strerror(status));
        return NULL;
    }
    if (nvt_device_count(ctx) == 0) {
        messages_print_nvml_error(color, "No NVIDIA devices found.");
        nvt_close(ctx);
        return NULL;
    }
    return ctx;
}

/* "INFO: Found 8 device(s)." and one line per device, as nvitop-exporter prints them. */
static void print_devices(const struct nvt_snapshot *snap) {
    size_t physical = 0;
    size_t mig = 0;
    for (size_t i = 0; i < snap->device_count; i++) {
        if (snap->devices[i].info.is_mig) {
            mig++;
        } else {
            physical++;
        }
    }
    if (mig > 0) {
        fprintf(stderr, "INFO: Found %zu physical device(s) and %zu MIG device(s).\n", physical,
                mig);
    } else {
        fprintf(stderr, "INFO: Found %zu device(s).\n", physical);
    }
    for (size_t i = 0; i < snap->device_count; i++) {
        const struct nvt_device_info *d = &snap->devices[i].info;
        if (d->is_mig) {
            /* The profile is the name's last word ("NVIDIA A100 ... MIG 1g.10gb"). */
            const char *space = strrchr(d->name, ' ');
            fprintf(stderr, "INFO:   MIG %-11s Device %2u: (UUID: %s)\n",
                    space != NULL ? space + 1 : d->name, d->mig_index, render_device_uuid(d));
        } else {
            fprintf(stderr, "INFO: GPU %u: %s (UUID: %s)\n", d->index, render_device_name(d),
                    render_device_uuid(d));
        }
    }
}

/* A listening socket on address:port, or -1 after printing nvitop-exporter's message. */
static int listen_on(const char *address, unsigned port, const char *scheme) {
    char service[16];
    snprintf(service, sizeof(service), "%u", port);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *found = NULL;
    int rc = getaddrinfo(address, service, &hints, &found);
    if (rc != 0) {
        fprintf(stderr, "ERROR: Cannot resolve the bind address %s: %s\n", address,
                gai_strerror(rc));
        return -1;
    }
    int err = 0;
    int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
    if (fd < 0) {
        err = errno;
    } else {
        int one = 1;
        /* As Python's HTTP servers do: a restart need not wait for TIME_WAIT to expire. */
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 128) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    if (fd >= 0) {
        return fd;
    }
    if (err == EADDRINUSE) {
        fprintf(stderr,
                "ERROR: Address %s://%s:%u is already in use. Please specify a different port "
                "via `--port <PORT>`.\n",
                scheme, address, port);
    } else if (err == EADDRNOTAVAIL) {
        fprintf(stderr,
                "ERROR: Cannot assign requested address at %s://%s:%u. Please specify a "
                "different address via `--bind-address <ADDRESS>`.\n",
                scheme, address, port);
    } else {
        fprintf(stderr, "ERROR: Cannot listen on %s://%s:%u: %s\n", scheme, address, port,
                strerror(err));
    }
    return -1;
}

/* Sample every interval until SIGINT or SIGTERM; the wait for the next pass is the wait for a
 * signal, so that the program leaves at once.  Signals are looked at before every pass, also
 * when passes overrun the interval (a slow driver) and there is no time left to wait. */
static void serve(struct exporter *exporter, struct http_server *server, double interval_s,
                  const sigset_t *signals) {
    double next = clock_monotonic_s() + interval_s;
    for (;;) {
        double wait = next - clock_monotonic_s();
        if (wait < 0) {
            wait = 0;
        }
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        int sig = sigtimedwait(signals, NULL, &ts);
        if (sig > 0) {
            fprintf(stderr, "\nINFO: Interrupted by user.\n");
            return;
        }
        if (clock_monotonic_s() < next) {
            continue; /* EINTR, or woken early */
        }
        next += interval_s;
        if (next < clock_monotonic_s()) {
            next = clock_monotonic_s() + interval_s; /* a pass overran: no catching up */
        }
        char *text = NULL;
        size_t len = 0;
        if (exporter_pass(exporter, &text, &len, NULL) == NVT_OK) {
            http_server_publish(server, text, len);
        }
    }
}

int main(int argc, char **argv) {
    struct exporter_options opts;
    int code = exporter_options_parse(argc, argv, &opts);
    if (code >= 0) {
        return code;
    }
    /* SIGINT and SIGTERM are taken by sigtimedwait() in the sampling loop only: block them
     * before any thread exists (the driver library may start some in nvt_open, the server
     * starts one), so that every thread inherits the mask; a thread that did not block them
     * would take them with their default action and kill the process uncleanly. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* A descriptor kept open per GPU process (docs/performance.md, "A thousand GPU processes"). */
    nofile_raise_soft_limit();

    char error[1024];
    struct tls_files tls;
    if (tls_files_load(opts.certfile, opts.keyfile, opts.client_cafile, opts.client_capath, &tls,
                       error, sizeof(error)) != 0) {
        fprintf(stderr, "ERROR: %s\n", error);
        return 1;
    }
    nvt_context *ctx = open_driver();
    if (ctx == NULL) {
        tls_files_free(&tls);
        return 1;
    }
    char default_host[64];
    exporter_default_host(default_host, sizeof(default_host));
    struct exporter exporter = {.ctx = ctx,
                                .hostname = opts.hostname != NULL ? opts.hostname : default_host};
    char *text = NULL;
    size_t len = 0;
    struct nvt_snapshot *snap = NULL;
    if (exporter_pass(&exporter, &text, &len, &snap) != NVT_OK) {
        fprintf(stderr, "ERROR: %s\n", nvt_strerror(NVT_ERR_NO_MEMORY));
        nvt_close(ctx);
        tls_files_free(&tls);
        return 1;
    }
    print_devices(snap);
    nvt_snapshot_free(snap);

    const char *scheme = tls.cert_pem != NULL ? "https" : "http";
    int fd = listen_on(opts.bind_address, opts.port, scheme);
    struct http_server *server = NULL;
    if (fd >= 0) {
        struct http_tls http_tls = {tls.cert_pem, tls.key_pem, tls.trust_pem, opts.tls_min_version};
        server = http_server_start(fd, &http_tls, text, len, error, sizeof(error));
        text = NULL;
        if (server == NULL) {
            fprintf(stderr, "ERROR: %s\n", error);
        }
    }
    free(text);
    if (server != NULL) {
        fprintf(stderr, "INFO: Start the exporter on %s at %s://%s:%u/metrics.\n",
                exporter.hostname, scheme, opts.bind_address, opts.port);
        serve(&exporter, server, opts.interval_s, &signals);
        http_server_stop(server);
    }
    exporter_fini(&exporter);
    nvt_close(ctx);
    tls_files_free(&tls);
    return server != NULL ? 0 : 1;
}
