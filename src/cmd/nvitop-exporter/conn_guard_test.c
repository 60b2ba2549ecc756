/* conn_guard.h with socket pairs standing for connections: at the limit the connection waiting
 * longest for its header is shut down for a new one, connections being answered are never
 * dropped, a full guard refuses, and a connection past its header deadline is shut down by the
 * guard's thread. */
#include "conn_guard.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nvt_cmocka.h"

struct pair {
    int server; /* the guard's side */
    int client;
};

static struct pair make_pair(void) {
    int fds[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    return (struct pair){fds[0], fds[1]};
}

/* Whether the guard shut the server side down: the client then reads end of file, within
 * wait_ms. */
static bool dropped(struct pair p, int wait_ms) {
    struct pollfd pfd = {.fd = p.client, .events = POLLIN};
    if (poll(&pfd, 1, wait_ms) != 1) {
        return false;
    }
    char byte;
    return read(p.client, &byte, 1) == 0;
}

static void close_pair(struct pair p) {
    close(p.server);
    close(p.client);
}

static void test_room_for_a_new_client(void **state) {
    (void)state;
    struct conn_guard *guard = conn_guard_start(2, 1, 60.0);
    assert_non_null(guard);
    struct pair a = make_pair(), b = make_pair(), c = make_pair();
    assert_true(conn_guard_admit(guard));
    struct guard_conn *ca = conn_guard_add(guard, a.server);
    assert_true(conn_guard_admit(guard));
    struct guard_conn *cb = conn_guard_add(guard, b.server);
    conn_guard_answering(guard, cb);
    /* At the limit: a, waiting for its header, makes room; b, being answered, stays. */
    assert_true(conn_guard_admit(guard));
    assert_true(dropped(a, 0));
    assert_false(dropped(b, 0));
    struct guard_conn *cc = conn_guard_add(guard, c.server);
    conn_guard_answering(guard, cc);
    /* a is still open (being closed): over limit + reserve, nothing left to drop: refused. */
    assert_false(conn_guard_admit(guard));
    conn_guard_remove(guard, ca);
    assert_false(conn_guard_admit(guard)); /* b and c are being answered */
    conn_guard_answered(guard, cb);
    assert_true(conn_guard_admit(guard)); /* b waits for its next header: it makes room */
    assert_true(dropped(b, 0));
    conn_guard_remove(guard, cb);
    conn_guard_remove(guard, cc);
    conn_guard_stop(guard);
    close_pair(a);
    close_pair(b);
    close_pair(c);
}

static void test_header_deadline(void **state) {
    (void)state;
    struct conn_guard *guard = conn_guard_start(8, 1, 0.2);
    assert_non_null(guard);
    struct pair slow = make_pair(), busy = make_pair();
    struct guard_conn *cs = conn_guard_add(guard, slow.server);
    struct guard_conn *cb = conn_guard_add(guard, busy.server);
    conn_guard_answering(guard, cb);
    assert_true(dropped(slow, 10000)); /* the guard's thread: a bounded wait for the sign */
    assert_false(dropped(busy, 500));
    conn_guard_remove(guard, cs);
    conn_guard_remove(guard, cb);
    conn_guard_stop(guard);
    close_pair(slow);
    close_pair(busy);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_room_for_a_new_client),
        cmocka_unit_test(test_header_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
