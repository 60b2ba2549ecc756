/* The exporter's HTTP(S) endpoint (http_server.h). */
#include "http_server.h"

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gzip_text.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* One published exposition, shared by the responses that send it; freed by the last one. */
struct blob {
    atomic_uint refs;
    char *text;
    size_t len;
    bool gzip_tried; /* guarded by the server's lock */
    char *gzip;
    size_t gzip_len;
};

struct http_server {
    struct MHD_Daemon *daemon;
    bool mutual_tls;
    pthread_mutex_t lock;
    struct blob *current;   /* guarded by lock */
    struct gzip_text *gzip; /* created by the first scrape that asks for gzip (guarded by lock) */
};

static struct blob *blob_new(char *text, size_t len) {
    struct blob *blob = calloc(1, sizeof(*blob));
    if (blob == NULL) {
        free(text);
        return NULL;
    }
    atomic_init(&blob->refs, 1);
    blob->text = text;
    blob->len = len;
    return blob;
}

static void blob_unref(void *cls) {
    struct blob *blob = cls;
    if (blob != NULL && atomic_fetch_sub(&blob->refs, 1) == 1) {
        free(blob->text);
        free(blob->gzip);
        free(blob);
    }
}

/* gzip the text once (gzip_text.h); leaves blob->gzip NULL when that fails.  Called with the
 * server's lock held. */
static void blob_compress(struct http_server *server, struct blob *blob) {
    blob->gzip_tried = true;
    if (server->gzip == NULL && (server->gzip = gzip_text_new()) == NULL) {
        return;
    }
    gzip_text_compress(server->gzip, blob->text, blob->len, &blob->gzip, &blob->gzip_len);
}

/* prometheus_client's test: one of the comma-separated codings is "gzip" (parameters ignored). */
static bool accepts_gzip(const char *header) {
    if (header == NULL) {
        return false;
    }
    const char *p = header;
    while (*p != '\0') {
        while (*p == ' ' || *p == '\t' || *p == ',') {
            p++;
        }
        const char *start = p;
        while (*p != '\0' && *p != ',' && *p != ';' && *p != ' ' && *p != '\t') {
            p++;
        }
        if (p - start == 4 && strncasecmp(start, "gzip", 4) == 0) {
            return true;
        }
        while (*p != '\0' && *p != ',') {
            p++;
        }
    }
    return false;
}

static enum MHD_Result reply_text(struct MHD_Connection *connection, unsigned code,
                                  const char *text) {
    char body[64]; /* libmicrohttpd takes a mutable buffer; it copies this one */
    size_t len = (size_t)snprintf(body, sizeof(body), "%s", text);
    struct MHD_Response *response = MHD_create_response_from_buffer(
        len < sizeof(body) ? len : sizeof(body) - 1, body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) {
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    if (code == MHD_HTTP_METHOD_NOT_ALLOWED) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    }
    enum MHD_Result result = MHD_queue_response(connection, code, response);
    MHD_destroy_response(response);
    return result;
}

/* Under mutual TLS: did the client present a certificate that the trusted CAs verify? */
static bool client_verified(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info == NULL || info->tls_session == NULL) {
        return false;
    }
    gnutls_session_t session = (gnutls_session_t)info->tls_session;
    unsigned status = 0;
    unsigned listed = 0;
    if (gnutls_certificate_get_peers(session, &listed) == NULL || listed == 0) {
        return false;
    }
    return gnutls_certificate_verify_peers2(session, &status) == GNUTLS_E_SUCCESS && status == 0;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
    (void)version;
    (void)upload_data;
    struct http_server *server = cls;
    /* Let a request body (none expected) arrive before answering; it is ignored. */
    if (*request_state == NULL) {
        *request_state = server;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (server->mutual_tls && !client_verified(connection)) {
        return reply_text(connection, MHD_HTTP_FORBIDDEN, "Client certificate required.\n");
    }
    if (strcmp(url, "/metrics") != 0) {
        return reply_text(connection, MHD_HTTP_NOT_FOUND, "Not Found\n");
    }
    bool head = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (!head && strcmp(method, MHD_HTTP_METHOD_GET) != 0) {
        return reply_text(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "Method Not Allowed\n");
    }
    bool gzip = accepts_gzip(
        MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    pthread_mutex_lock(&server->lock);
    struct blob *blob = server->current;
    atomic_fetch_add(&blob->refs, 1);
    if (gzip && !blob->gzip_tried) {
        blob_compress(server, blob);
    }
    pthread_mutex_unlock(&server->lock);
    gzip = gzip && blob->gzip != NULL;
    struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback_cls(
        gzip ? blob->gzip_len : blob->len, gzip ? blob->gzip : blob->text, blob_unref, blob);
    if (response == NULL) {
        blob_unref(blob);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, CONTENT_TYPE);
    if (gzip) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    }
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

/* libmicrohttpd's own diagnostics (malformed requests, TLS handshakes that fail) are routine for
 * a server on a network: not printed. */
static void quiet_log(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    (void)fmt;
    (void)ap;
}

struct http_server *http_server_start(int listen_fd, const struct http_tls *tls, char *text,
                                      size_t len, char *error, size_t error_size) {
    struct http_server *server = calloc(1, sizeof(*server));
    if (server == NULL || (server->current = blob_new(text, len)) == NULL) {
        free(server);
        snprintf(error, error_size, "out of memory");
        close(listen_fd);
        return NULL;
    }
    pthread_mutex_init(&server->lock, NULL);
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
    struct MHD_OptionItem options[8];
    size_t n = 0;
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, HTTP_MAX_CONNECTIONS, NULL};
    options[n++] =
        (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, HTTP_IDLE_TIMEOUT_S, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)quiet_log, NULL};
    if (tls != NULL && tls->cert_pem != NULL) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, tls->cert_pem};
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, tls->key_pem};
        if (tls->trust_pem != NULL) {
            options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, tls->trust_pem};
            server->mutual_tls = true;
        }
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    server->daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle, server, MHD_OPTION_ARRAY,
                                      options, MHD_OPTION_END);
    if (server->daemon == NULL) {
        snprintf(error, error_size, "the HTTP server could not start");
        close(listen_fd);
        blob_unref(server->current);
        pthread_mutex_destroy(&server->lock);
        free(server);
        return NULL;
    }
    return server;
}

void http_server_publish(struct http_server *server, char *text, size_t len) {
    struct blob *blob = blob_new(text, len);
    if (blob == NULL) {
        return; /* keep serving the previous text */
    }
    pthread_mutex_lock(&server->lock);
    struct blob *old = server->current;
    server->current = blob;
    pthread_mutex_unlock(&server->lock);
    blob_unref(old);
}

void http_server_stop(struct http_server *server) {
    if (server == NULL) {
        return;
    }
    MHD_stop_daemon(server->daemon);
    blob_unref(server->current);
    gzip_text_free(server->gzip);
    pthread_mutex_destroy(&server->lock);
    free(server);
}
