/*
 * What libmicrohttpd does not do for the exporter's availability (docs/architecture.md, "The
 * exporter"): a deadline for a complete request header, whatever bytes arrive meanwhile
 * (libmicrohttpd's timeout is an idle one, which a client sending a byte a second never
 * reaches), and room for a new client when every connection is taken: the connection that has
 * waited longest for its request header is dropped for it.
 *
 * The guard knows connections by their socket; it drops one with shutdown(), which the server's
 * event loop sees as the client leaving, so the server alone ever closes a socket.  One thread
 * (the server's) admits, adds, marks and removes connections; the guard's own thread enforces
 * the deadlines.  Every function is safe against that thread.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_CONN_GUARD_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_CONN_GUARD_H

#include <stdbool.h>

struct conn_guard;
struct guard_conn;

/* A guard for limit connections, each of which must complete a request header within
 * header_deadline_s of its arrival or of its previous answer.  Connections being dropped still
 * hold their sockets until the server closes them: up to reserve of those are allowed on top of
 * limit.  NULL when out of resources. */
struct conn_guard *conn_guard_start(unsigned limit, unsigned reserve, double header_deadline_s);

/* Whether a new connection may come in: true while fewer than limit are open and not being
 * dropped; at the limit, the connection waiting longest for its request header is dropped and the
 * new one admitted.  false (refuse it: close it at once) when every connection is being answered,
 * or limit + reserve sockets are open. */
bool conn_guard_admit(struct conn_guard *guard);

/* Track an admitted connection's socket; NULL when out of memory (the socket is then shut down:
 * an untracked connection could hold its slot for ever). */
struct guard_conn *conn_guard_add(struct conn_guard *guard, int fd);

/* The connection's request header is complete: no deadline while it is answered. */
void conn_guard_answering(struct conn_guard *guard, struct guard_conn *conn);

/* The answer is sent: the next request header is due within the deadline. */
void conn_guard_answered(struct conn_guard *guard, struct guard_conn *conn);

/* The server closed the connection (before closing its socket).  Accepts NULL. */
void conn_guard_remove(struct conn_guard *guard, struct guard_conn *conn);

/* Stop the deadline thread and free the guard (after the server has stopped).  Accepts NULL. */
void conn_guard_stop(struct conn_guard *guard);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_CONN_GUARD_H */
