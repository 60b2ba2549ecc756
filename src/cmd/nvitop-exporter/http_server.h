/*
 * The exporter's HTTP(S) endpoint on libmicrohttpd: GET or HEAD of /metrics answers the text last
 * published (gzip-compressed, once per text, when the client accepts gzip); every other path is
 * 404, every other method 405.  One internal epoll thread serves every connection.  Hostile or
 * careless clients cannot take the endpoint away from a scraper: connections are bounded in
 * number, overall and per client address (excess ones are closed at once), each must send a
 * complete request header within a deadline, and when every connection is taken a new client
 * gets the place of the one that has waited longest for its header (conn_guard.h).  Under mutual
 * TLS a client without a certificate that the trusted CAs verify for client authentication fails
 * its handshake.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_HTTP_SERVER_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_MAX_CONNECTIONS             256 /* connections open at once */
#define HTTP_RESERVE_CONNECTIONS         16  /* room for sockets being closed on top of those */
#define HTTP_MAX_CONNECTIONS_PER_ADDRESS 32  /* beyond this, new ones are closed at once */
#define HTTP_HEADER_DEADLINE_S           5.0 /* for a complete request header */
#define HTTP_IDLE_TIMEOUT_S              10  /* a connection idle this long is closed */

struct http_tls {
    char *cert_pem; /* NULL for plain HTTP; PEM text, NUL-terminated; not modified */
    char *key_pem;
    char *trust_pem;         /* NULL, or the client CAs: mutual TLS is then required */
    const char *min_version; /* the oldest TLS version accepted: "1.0" to "1.3" */
};

struct http_server;

/* Serve on listen_fd, a bound and listening socket the server takes over.  text (len bytes, a
 * malloc'd allocation the server takes over) is the first exposition.  NULL with a message in
 * error when the server could not start. */
struct http_server *http_server_start(int listen_fd, const struct http_tls *tls, char *text,
                                      size_t len, char *error, size_t error_size);

/* Replace the exposition (takes over the malloc'd text); requests already answering keep the
 * old one until they finish.  Thread-safe against the server thread. */
void http_server_publish(struct http_server *server, char *text, size_t len);

/* Stop serving and free everything.  Accepts NULL. */
void http_server_stop(struct http_server *server);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_HTTP_SERVER_H */
