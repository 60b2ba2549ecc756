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

#include "conn_guard.h"
#include "gzip_text.h"
#include "metrics_filter.h"
#include "openmetrics.h"
#include "util/text/str.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* One form of an exposition (text or OpenMetrics) and its gzip, made once on first demand. */
struct form {
    char *text;
    size_t len;
    bool gzip_tried; /* guarded by the server's lock */
    char *gzip;
    size_t gzip_len;
};

/* One published exposition, shared by the responses that send it; freed by the last one. */
struct blob {
    atomic_uint refs;
    struct form plain;      /* the text format, as published */
    bool openmetrics_tried; /* guarded by the server's lock */
    struct form openmetrics;
};

struct http_server {
    struct MHD_Daemon *daemon;
    struct conn_guard *guard;
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
    blob->plain.text = text;
    blob->plain.len = len;
    return blob;
}

static void blob_unref(void *cls) {
    struct blob *blob = cls;
    if (blob != NULL && atomic_fetch_sub(&blob->refs, 1) == 1) {
        free(blob->plain.text);
        free(blob->plain.gzip);
        free(blob->openmetrics.text);
        free(blob->openmetrics.gzip);
        free(blob);
    }
}

/* gzip a form once (gzip_text.h); leaves form->gzip NULL when that fails.  Called with the
 * server's lock held. */
static void form_compress(struct http_server *server, struct form *form) {
    form->gzip_tried = true;
    if (server->gzip == NULL && (server->gzip = gzip_text_new()) == NULL) {
        return;
    }
    gzip_text_compress(server->gzip, form->text, form->len, &form->gzip, &form->gzip_len);
}

/* The form a scrape asked for, made when first asked for (the lock held); the text format when
 * the OpenMetrics one cannot be made (out of memory). */
static const struct form *blob_form(struct http_server *server, struct blob *blob, bool openmetrics,
                                    bool gzip) {
    struct form *form = &blob->plain;
    if (openmetrics) {
        if (!blob->openmetrics_tried) {
            blob->openmetrics_tried = true;
            blob->openmetrics.text =
                openmetrics_from_text(blob->plain.text, blob->plain.len, &blob->openmetrics.len);
        }
        if (blob->openmetrics.text != NULL) {
            form = &blob->openmetrics;
        }
    }
    if (gzip && !form->gzip_tried) {
        form_compress(server, form);
    }
    return form;
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

/* The scrape's name[] arguments, gathered into a filter (metrics_filter.h). */
struct name_args {
    struct metrics_filter *filter;
    bool failed; /* out of memory, or too many names */
};

static enum MHD_Result add_name(void *cls, enum MHD_ValueKind kind, const char *key,
                                const char *value) {
    (void)kind;
    struct name_args *args = cls;
    if (key != NULL && value != NULL && strcmp(key, "name[]") == 0 &&
        !metrics_filter_add(args->filter, value)) {
        args->failed = true;
        return MHD_NO;
    }
    return MHD_YES;
}

/* The part of form the scrape's filter keeps, sent as text (never gzipped: a few KB made for one
 * answer). */
static enum MHD_Result reply_filtered(struct MHD_Connection *connection,
                                      const struct metrics_filter *filter, const struct form *form,
                                      bool openmetrics) {
    char *kept;
    size_t kept_len;
    if (!metrics_filter_apply(filter, form->text, form->len, &kept, &kept_len)) {
        return reply_text(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "Out of memory.\n");
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer_with_free_callback(kept_len, kept, free);
    if (response == NULL) {
        free(kept);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            openmetrics ? OPENMETRICS_CONTENT_TYPE : CONTENT_TYPE);
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
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
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        if (info != NULL && info->socket_context != NULL) {
            conn_guard_answering(server->guard, info->socket_context);
        }
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
    bool openmetrics = openmetrics_accepted(
        MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
    struct name_args names = {NULL, false};
    if (MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, NULL, NULL) > 0) {
        if ((names.filter = metrics_filter_new()) == NULL) {
            return reply_text(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "Out of memory.\n");
        }
        MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, add_name, &names);
        if (names.failed) {
            metrics_filter_free(names.filter);
            return reply_text(connection, MHD_HTTP_BAD_REQUEST, "Too many name[] arguments.\n");
        }
    }
    bool gzip = names.filter == NULL &&
                accepts_gzip(MHD_lookup_connection_value(connection, MHD_HEADER_KIND,
                                                         MHD_HTTP_HEADER_ACCEPT_ENCODING));
    pthread_mutex_lock(&server->lock);
    struct blob *blob = server->current;
    atomic_fetch_add(&blob->refs, 1);
    const struct form *form = blob_form(server, blob, openmetrics, gzip);
    pthread_mutex_unlock(&server->lock);
    openmetrics = form == &blob->openmetrics;
    if (names.filter != NULL && metrics_filter_count(names.filter) > 0) {
        enum MHD_Result result = reply_filtered(connection, names.filter, form, openmetrics);
        metrics_filter_free(names.filter);
        blob_unref(blob);
        return result;
    }
    metrics_filter_free(names.filter);
    gzip = gzip && form->gzip != NULL;
    struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback_cls(
        gzip ? form->gzip_len : form->len, gzip ? form->gzip : form->text, blob_unref, blob);
    if (response == NULL) {
        blob_unref(blob);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
                            openmetrics ? OPENMETRICS_CONTENT_TYPE : CONTENT_TYPE);
    if (gzip) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    }
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

/* GnuTLS's priority string: libmicrohttpd's default ("NORMAL") without the TLS versions older
 * than min_version ("1.0" to "1.3"). */
static const char *tls_priorities(const char *min_version) {
    if (min_version == NULL || strcmp(min_version, "1.2") == 0) {
        return "NORMAL:-VERS-TLS1.1:-VERS-TLS1.0:-VERS-SSL3.0";
    }
    if (strcmp(min_version, "1.3") == 0) {
        return "NORMAL:-VERS-TLS1.2:-VERS-TLS1.1:-VERS-TLS1.0:-VERS-SSL3.0";
    }
    if (strcmp(min_version, "1.1") == 0) {
        return "NORMAL:+VERS-TLS1.1:-VERS-TLS1.0:-VERS-SSL3.0";
    }
    return "NORMAL:+VERS-TLS1.1:+VERS-TLS1.0";
}

/* Every new connection: admitted by the guard, or closed at once. */
static enum MHD_Result admit(void *cls, const struct sockaddr *addr, socklen_t addrlen) {
    (void)addr;
    (void)addrlen;
    const struct http_server *server = cls;
    return conn_guard_admit(server->guard) ? MHD_YES : MHD_NO;
}

/* Under mutual TLS, during the handshake: does the client's certificate verify against the trusted
 * CAs, and is it good for TLS client authentication (an extended key usage that lists it, or
 * none)?  A non-zero answer ends the handshake. */
static int verify_client(gnutls_session_t session) {
    unsigned status = 0;
    unsigned listed = 0;
    const gnutls_datum_t *chain = gnutls_certificate_get_peers(session, &listed);
    if (chain == NULL || listed == 0 ||
        gnutls_certificate_verify_peers2(session, &status) != GNUTLS_E_SUCCESS || status != 0) {
        return GNUTLS_E_CERTIFICATE_ERROR;
    }
    gnutls_x509_crt_t cert;
    if (gnutls_x509_crt_init(&cert) != GNUTLS_E_SUCCESS) {
        return GNUTLS_E_CERTIFICATE_ERROR;
    }
    int answer = GNUTLS_E_CERTIFICATE_ERROR;
    if (gnutls_x509_crt_import(cert, &chain[0], GNUTLS_X509_FMT_DER) == GNUTLS_E_SUCCESS) {
        for (unsigned i = 0;; i++) {
            char oid[128];
            size_t size = sizeof(oid);
            int rc = gnutls_x509_crt_get_key_purpose_oid(cert, i, oid, &size, NULL);
            if (rc == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE) {
                answer = i == 0 ? 0 : answer; /* no extended key usage: any purpose */
                break;
            }
            if (rc != GNUTLS_E_SUCCESS) {
                continue; /* an OID too long for the buffer is no client one */
            }
            if (strcmp(oid, GNUTLS_KP_TLS_WWW_CLIENT) == 0 || strcmp(oid, GNUTLS_KP_ANY) == 0) {
                answer = 0;
                break;
            }
        }
    }
    gnutls_x509_crt_deinit(cert);
    return answer;
}

/* Under mutual TLS, the handshake itself fails for a client without a certificate that the
 * trusted CAs verify for TLS client authentication, so such a client never holds a connection
 * past its handshake.  libmicrohttpd asks for a certificate without requiring one; its session is
 * ours to adjust before the handshake starts. */
static void require_client_certificate(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (info == NULL || info->tls_session == NULL) {
        return;
    }
    gnutls_session_t session = (gnutls_session_t)info->tls_session;
    gnutls_certificate_server_set_request(session, GNUTLS_CERT_REQUIRE);
    gnutls_session_set_verify_function(session, verify_client);
}

static void connection_event(void *cls, struct MHD_Connection *connection, void **socket_context,
                             enum MHD_ConnectionNotificationCode code) {
    struct http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        conn_guard_remove(server->guard, *socket_context);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) {
        return;
    }
    *socket_context = conn_guard_add(server->guard, info->connect_fd);
    if (server->mutual_tls) {
        require_client_certificate(connection);
    }
}

/* An answer is sent (or abandoned): the connection's next request header is due. */
static void request_done(void *cls, struct MHD_Connection *connection, void **request_state,
                         enum MHD_RequestTerminationCode code) {
    (void)request_state;
    (void)code;
    struct http_server *server = cls;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (info != NULL && info->socket_context != NULL) {
        conn_guard_answered(server->guard, info->socket_context);
    }
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
    server->guard =
        conn_guard_start(HTTP_MAX_CONNECTIONS, HTTP_RESERVE_CONNECTIONS, HTTP_HEADER_DEADLINE_S);
    if (server->guard == NULL) {
        blob_unref(server->current);
        free(server);
        snprintf(error, error_size, "out of resources");
        close(listen_fd);
        return NULL;
    }
    pthread_mutex_init(&server->lock, NULL);
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
    struct MHD_OptionItem options[13];
    char priorities[96];
    size_t n = 0;
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, listen_fd, NULL};
    /* The guard refuses connections before libmicrohttpd's own limit is reached: at that limit,
     * libmicrohttpd stops accepting, and new clients wait in the kernel's queue instead of being
     * turned away. */
    options[n++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_LIMIT, HTTP_MAX_CONNECTIONS + HTTP_RESERVE_CONNECTIONS + 1, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                           HTTP_MAX_CONNECTIONS_PER_ADDRESS, NULL};
    options[n++] =
        (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, HTTP_IDLE_TIMEOUT_S, NULL};
    options[n++] =
        (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_event, server};
    options[n++] =
        (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)request_done, server};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)quiet_log, NULL};
    if (tls != NULL && tls->cert_pem != NULL) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, tls->cert_pem};
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, tls->key_pem};
        /* libmicrohttpd takes a mutable pointer and reads the text once, at start. */
        str_copy(priorities, sizeof(priorities), tls_priorities(tls->min_version));
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, priorities};
        if (tls->trust_pem != NULL) {
            options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, tls->trust_pem};
            server->mutual_tls = true;
        }
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    server->daemon = MHD_start_daemon(flags, 0, admit, server, handle, server, MHD_OPTION_ARRAY,
                                      options, MHD_OPTION_END);
    if (server->daemon == NULL) {
        snprintf(error, error_size, "the HTTP server could not start");
        close(listen_fd);
        blob_unref(server->current);
        conn_guard_stop(server->guard);
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
    conn_guard_stop(server->guard);
    blob_unref(server->current);
    gzip_text_free(server->gzip);
    pthread_mutex_destroy(&server->lock);
    free(server);
}
