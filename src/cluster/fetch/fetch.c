/* Concurrent /metrics reads (fetch.h). */
#include "cluster/fetch/fetch.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/fetch/curl_api.h"
#include "cluster/fetch/multi_loop.h"
#include "cluster/fetch/reasons.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

/* An exporter's answer for 8 GPUs and a few hundred processes is well under 1 MiB; a body past
 * this is a wrong URL or a hostile server, not metrics. */
#define BODY_LIMIT (64u << 20)

#define FETCH_MAX_REDIRECTS 5

struct fetch_transfer {
    const struct curl_api *curl;
    struct node *node;
    double timeout_s;
    CURL *easy;
    struct strbuf body; /* its capacity is kept from one read to the next */
    bool too_big;
    bool keep_body; /* parse a copy: the body is read again after (fetch_transfer_body()) */
    /* The node's URL asking for only the series the summary reads (node_summary_query()), or
     * NULL (a URL with its own query).  A read whose body is kept asks for the whole answer. */
    char *filtered_url;
    bool read_filtered; /* the read in progress, or the last one, asked for filtered_url */
    bool unfiltered;    /* the node answered filtered_url badly: always the whole answer */
    bool active;        /* added to the multi handle */
    bool client_cert;   /* a client certificate was given */
    char error[CURL_ERROR_SIZE];
};

static size_t on_data(char *data, size_t size, size_t count, void *user) {
    struct fetch_transfer *t = user;
    size_t n = size * count;
    if (t->body.len + n > BODY_LIMIT) {
        t->too_big = true;
        return 0; /* makes curl fail the transfer with CURLE_WRITE_ERROR */
    }
    if (!strbuf_append(&t->body, data, n)) {
        t->too_big = true; /* out of memory: the same failure for the user */
        return 0;
    }
    return n;
}

enum node_state fetch_state_of(int curl_code, long http_status) {
    char reason[8];
    return fetch_reason(curl_code, http_status, "", "", 0, false, reason, sizeof reason);
}

static void set_failure(struct node *node, enum node_state state, const char *reason) {
    node->state = state;
    str_copy(node->reason, sizeof node->reason, reason);
}

static void finish(struct fetch_transfer *t, CURLcode code, double timeout_s) {
    struct node *node = t->node;
    long status = 0;
    t->curl->easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    node->http_status = (int)status;
    if (t->too_big) {
        set_failure(node, NODE_BAD_DATA, "answer larger than 64 MiB");
        return;
    }
    char reason[sizeof node->reason];
    enum node_state state =
        fetch_reason(code, status, node->url, t->error[0] != '\0' ? t->error : "", timeout_s,
                     t->client_cert, reason, sizeof reason);
    if (state == NODE_ERROR && reason[0] == '\0') {
        str_copy(reason, sizeof reason, t->curl->easy_strerror(code));
    }
    if (state != NODE_OK) {
        set_failure(node, state, reason);
        return;
    }
    char why[200];
    struct node_summary summary;
    bool summarized =
        t->keep_body || t->body.data == NULL
            ? node_summarize_body(t->body.data != NULL ? t->body.data : "", t->body.len, &summary,
                                  why, sizeof why)
            : node_summarize_in_place(t->body.data, t->body.len, &summary, why, sizeof why);
    if (!summarized) {
        set_failure(node, NODE_BAD_DATA, why);
        return;
    }
    node->state = NODE_OK;
    node->reason[0] = '\0';
    node->summary = summary;
    node->has_data = true;
    node->data_time = clock_wall_s();
}

/* Abort a transfer when the owner asked to stop (the monitor quitting). */
static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow) {
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    atomic_bool *cancel = user;
    return atomic_load(cancel) ? 1 : 0;
}

/* curl's receive buffer: an exporter's uncompressed answer for 8 GPUs (37 KB) in one read, not
 * three reads of curl's default 16 KiB, each followed by a poll() of the socket. */
#define FETCH_BUFFER_SIZE (64L << 10)

/* A transfer's curl handle.  A blocking one (curl_easy_perform()) checks options' cancel flag as
 * it goes; a transfer on a multi handle is stopped by its caller's loop instead. */
static CURL *make_easy(const char *url, struct fetch_transfer *t, const struct fetch_options *o,
                       bool blocking) {
    CURL *easy = o->curl->easy_init();
    if (easy == NULL) {
        fputs("nvitop: out of memory (curl_easy_init)\n", stderr);
        abort();
    }
    long timeout_ms = (long)(o->timeout_s * 1000);
    o->curl->easy_setopt(easy, CURLOPT_URL, url);
    o->curl->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    /* A moved exporter (a proxy's 301/302) is followed, a few times at most. */
    o->curl->easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    o->curl->easy_setopt(easy, CURLOPT_MAXREDIRS, (long)FETCH_MAX_REDIRECTS);
    o->curl->easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    o->curl->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    o->curl->easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    o->curl->easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    if (blocking) {
        /* Prometheus's answers (large JSON, one server, maybe far away) gzipped when it offers;
         * a node's /metrics plain: inflating an exporter's 37 KB answer cost more CPU than it
         * saved (docs/cluster.md, "Cost"). */
        o->curl->easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    }
    o->curl->easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_data);
    o->curl->easy_setopt(easy, CURLOPT_WRITEDATA, t);
    o->curl->easy_setopt(easy, CURLOPT_ERRORBUFFER, t->error);
    o->curl->easy_setopt(easy, CURLOPT_USERAGENT, "nvitop-cluster");
    o->curl->easy_setopt(easy, CURLOPT_BUFFERSIZE, FETCH_BUFFER_SIZE);
    if (blocking && o->cancel != NULL) {
        o->curl->easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress);
        o->curl->easy_setopt(easy, CURLOPT_XFERINFODATA, o->cancel);
        o->curl->easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    }
    if (o->cacert != NULL) {
        o->curl->easy_setopt(easy, CURLOPT_CAINFO, o->cacert);
    }
    if (o->cert != NULL) {
        o->curl->easy_setopt(easy, CURLOPT_SSLCERT, o->cert);
    }
    if (o->key != NULL) {
        o->curl->easy_setopt(easy, CURLOPT_SSLKEY, o->key);
    }
    return easy;
}

/* url with the summary's name[] arguments; NULL when it has a query or a fragment of its own. */
static char *filtered_url_of(const char *url) {
    if (strpbrk(url, "?#") != NULL) {
        return NULL;
    }
    size_t len = strlen(url), query = node_summary_query(NULL, 0);
    char *filtered = xmalloc(len + 1 + query + 1);
    memcpy(filtered, url, len);
    filtered[len] = '?';
    node_summary_query(filtered + len + 1, query + 1);
    return filtered;
}

struct fetch_transfer *fetch_transfer_begin(void *multi, struct node *node,
                                            const struct fetch_options *options) {
    struct fetch_transfer *t = xcalloc(1, sizeof *t);
    t->filtered_url = filtered_url_of(node->url);
    t->curl = options->curl;
    t->node = node;
    t->timeout_s = options->timeout_s;
    t->client_cert = options->cert != NULL;
    t->easy = make_easy(node->url, t, options, false);
    t->curl->easy_setopt(t->easy, CURLOPT_PRIVATE, t);
    fetch_transfer_restart(multi, t);
    return t;
}

void fetch_transfer_restart(void *multi, struct fetch_transfer *t) {
    if (t->active) {
        return;
    }
    bool filtered = t->filtered_url != NULL && !t->keep_body && !t->unfiltered;
    if (filtered != t->read_filtered) {
        t->curl->easy_setopt(t->easy, CURLOPT_URL, filtered ? t->filtered_url : t->node->url);
        t->read_filtered = filtered;
    }
    strbuf_clear(&t->body);
    t->too_big = false;
    t->error[0] = '\0';
    t->node->state = NODE_PENDING;
    t->active = true;
    t->curl->multi_add_handle(multi, t->easy);
}

void fetch_transfer_keep_body(struct fetch_transfer *t, bool keep) {
    t->keep_body = keep;
}

const char *fetch_transfer_body(const struct fetch_transfer *t, size_t *len) {
    bool kept = t->keep_body && !t->read_filtered;
    *len = kept ? t->body.len : 0;
    if (!kept) {
        return NULL;
    }
    return t->body.data != NULL ? t->body.data : "";
}

void fetch_transfer_abort(void *multi, struct fetch_transfer *t) {
    if (t->active) {
        t->curl->multi_remove_handle(multi, t->easy);
    }
    t->curl->easy_cleanup(t->easy);
    strbuf_fini(&t->body);
    free(t->filtered_url);
    free(t);
}

struct fetch_transfer *fetch_transfer_done(const struct curl_api *curl, void *multi) {
    CURLMsg *msg;
    int left;
    while ((msg = curl->multi_info_read(multi, &left)) != NULL) {
        if (msg->msg == CURLMSG_DONE) {
            struct fetch_transfer *t;
            curl->easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
            CURLcode code = msg->data.result; /* msg is freed by the removal */
            t->curl->multi_remove_handle(multi, t->easy);
            t->active = false;
            finish(t, code, t->timeout_s);
            enum node_state state = t->node->state;
            if (t->read_filtered && (state == NODE_BAD_DATA || state == NODE_HTTP_ERROR)) {
                /* A server that answers name[] arguments with something else (a proxy that
                 * refuses a query, one that filters other names): read it whole, now and
                 * from now on, before saying anything of the node. */
                t->unfiltered = true;
                fetch_transfer_restart(multi, t);
                continue;
            }
            return t;
        }
    }
    return NULL;
}

void fetch_nodes(struct node *nodes, size_t count, const struct fetch_options *options) {
    if (count == 0) {
        return;
    }
    const struct curl_api *curl = options->curl;
    struct multi_loop *loop = multi_loop_new(curl, 0);
    void *multi = multi_loop_multi(loop);
    struct fetch_transfer **transfers = xcalloc(count, sizeof *transfers);
    for (size_t i = 0; i < count; i++) {
        transfers[i] = fetch_transfer_begin(multi, &nodes[i], options);
    }
    /* Each transfer ends by its own timeout (twice for a node read again whole after its
     * filtered read failed); the deadline only guards against a curl bug. */
    double deadline = clock_monotonic_s() + 2 * options->timeout_s + 5.0;
    size_t left = count;
    while (left > 0 && clock_monotonic_s() < deadline) {
        multi_loop_run(loop, 200);
        while (fetch_transfer_done(curl, multi) != NULL) {
            left--;
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (nodes[i].state == NODE_PENDING) {
            set_failure(&nodes[i], NODE_TIMEOUT, "no answer");
        }
        fetch_transfer_abort(multi, transfers[i]);
    }
    free(transfers);
    multi_loop_free(loop);
}

struct fetch_session {
    CURL *easy; /* NULL until the first fetch_get() */
};

struct fetch_session *fetch_session_new(void) {
    return xcalloc(1, sizeof(struct fetch_session));
}

void fetch_session_free(const struct curl_api *curl, struct fetch_session *session) {
    if (session == NULL) {
        return;
    }
    if (session->easy != NULL) {
        curl->easy_cleanup(session->easy);
    }
    free(session);
}

enum node_state fetch_get(const char *url, const struct fetch_options *options, struct strbuf *body,
                          char *reason, size_t size) {
    const struct curl_api *curl = options->curl;
    struct fetch_transfer t = {.curl = curl, .body = STRBUF_INIT};
    struct fetch_session *session = options->session;
    CURL *easy;
    if (session != NULL && session->easy != NULL) {
        /* The same options but the URL and this call's buffers; the connection is kept. */
        easy = session->easy;
        curl->easy_setopt(easy, CURLOPT_URL, url);
        curl->easy_setopt(easy, CURLOPT_WRITEDATA, &t);
        curl->easy_setopt(easy, CURLOPT_ERRORBUFFER, t.error);
    } else {
        easy = make_easy(url, &t, options, true);
    }
    CURLcode code = curl->easy_perform(easy);
    long status = 0;
    curl->easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    if (session != NULL) {
        curl->easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL); /* t's, about to go */
        session->easy = easy;
    } else {
        curl->easy_cleanup(easy);
    }
    enum node_state state = t.too_big ? NODE_BAD_DATA
                                      : fetch_reason(code, status, url, t.error, options->timeout_s,
                                                     options->cert != NULL, reason, size);
    if (state == NODE_OK) {
        *body = t.body;
        reason[0] = '\0';
        return state;
    }
    if (t.too_big) {
        str_copy(reason, size, "answer larger than 64 MiB");
    } else if (state == NODE_ERROR && reason[0] == '\0') {
        str_copy(reason, size, curl->easy_strerror(code));
    }
    strbuf_fini(&t.body);
    return state;
}
