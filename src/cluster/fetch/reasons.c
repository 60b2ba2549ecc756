/* Plain-words reasons for failed reads (reasons.h). */
#include "cluster/fetch/reasons.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "util/array.h"
#include "util/text/str.h"

/* The host:port of url ("host:port" when the URL has no scheme), into out. */
static void authority(const char *url, char *out, size_t size) {
    const char *start = strstr(url, "://");
    start = start != NULL ? start + 3 : url;
    size_t len = strcspn(start, "/?#");
    if (len >= size) {
        len = size - 1;
    }
    memcpy(out, start, len);
    out[len] = '\0';
}

/* OpenSSL's and GnuTLS's words for a TLS client talking to a plain-HTTP server. */
static bool plain_server(const char *curl_error) {
    static const char *const signs[] = {"wrong version number", "packet length too long",
                                        "record layer failure", "unexpected TLS packet",
                                        "An unexpected TLS packet was received"};
    for (size_t i = 0; i < ARRAY_SIZE(signs); i++) {
        if (strstr(curl_error, signs[i]) != NULL) {
            return true;
        }
    }
    return false;
}

enum node_state fetch_reason(int curl_code, long http_status, const char *url,
                             const char *curl_error, double timeout_s, bool client_cert,
                             char *reason, size_t size) {
    char where[200];
    authority(url, where, sizeof where);
    bool https = str_starts_with(url, "https://");
    reason[0] = '\0';
    switch ((CURLcode)curl_code) {
    case CURLE_OK:
        if (http_status == 200) {
            return NODE_OK;
        }
        snprintf(reason, size, "HTTP %ld", http_status);
        return NODE_HTTP_ERROR;
    case CURLE_COULDNT_CONNECT:
        str_copy(reason, size, "connection refused"); /* curl's text has timings in it */
        return NODE_REFUSED;
    case CURLE_OPERATION_TIMEDOUT:
        snprintf(reason, size, "no answer within %g s", timeout_s);
        return NODE_TIMEOUT;
    case CURLE_COULDNT_RESOLVE_HOST:
        snprintf(reason, size, "unknown host name in %s", where);
        return NODE_ERROR;
    case CURLE_TOO_MANY_REDIRECTS:
        str_copy(reason, size, "too many redirects: point --hosts at the final URL");
        return NODE_HTTP_ERROR;
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
        if (!https) {
            snprintf(reason, size,
                     "closed the connection without an HTTP answer: if it speaks TLS, use "
                     "https://%s",
                     where);
            return NODE_TLS_ERROR;
        }
        snprintf(reason, size,
                 "closed the TLS connection without an answer: it may require a client "
                 "certificate it trusts (--cert and --key)%s",
                 client_cert ? "; the one given was refused" : "");
        return NODE_TLS_ERROR;
    case CURLE_SSL_CONNECT_ERROR:
        if (plain_server(curl_error)) {
            snprintf(reason, size, "speaks plain HTTP, not TLS: use http://%s", where);
        } else if (strstr(curl_error, "alert") != NULL &&
                   (strstr(curl_error, "certificate") != NULL ||
                    strstr(curl_error, "unknown ca") != NULL ||
                    strstr(curl_error, "access denied") != NULL)) {
            /* The server's alert about the client's certificate (or its absence). */
            snprintf(reason, size,
                     "refused the client certificate: it requires one it trusts (--cert and "
                     "--key)%s",
                     client_cert ? "; the one given was refused" : "");
        } else if (strstr(curl_error, "SYSCALL") != NULL || strstr(curl_error, "eof") != NULL ||
                   curl_error[0] == '\0') {
            /* The connection ended mid-handshake: a plain server that gave up on the
             * ClientHello, or a TLS one that refused the client (TLS 1.2). */
            snprintf(reason, size,
                     "the connection ended during the TLS handshake: if it speaks plain HTTP, use "
                     "http://%s; if it requires a client certificate, give one it trusts (--cert "
                     "and --key)",
                     where);
        } else {
            snprintf(reason, size, "TLS handshake failed: %s", curl_error);
        }
        return NODE_TLS_ERROR;
    case CURLE_PEER_FAILED_VERIFICATION:
        snprintf(reason, size,
                 "its certificate is not trusted (give its CA with --cacert) or not for %s: %s",
                 where, curl_error);
        return NODE_TLS_ERROR;
    case CURLE_SSL_CERTPROBLEM:
        snprintf(reason, size, "the client certificate or key (--cert, --key) cannot be used: %s",
                 curl_error);
        return NODE_TLS_ERROR;
    case CURLE_SSL_CACERT_BADFILE:
        snprintf(reason, size, "the CA file (--cacert) cannot be used: %s", curl_error);
        return NODE_TLS_ERROR;
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
        snprintf(reason, size, "TLS: %s", curl_error);
        return NODE_TLS_ERROR;
    default:
        str_copy(reason, size, curl_error);
        return NODE_ERROR;
    }
}
