/*
 * One node of the cluster: where it is read from, the state of its last read, and the summary of
 * its nvitop-exporter metrics (what the cluster table and JSON show).  No I/O.
 */
#ifndef NVITOP_SRC_CLUSTER_NODE_H
#define NVITOP_SRC_CLUSTER_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/node_history.h"
#include "cluster/parse/promtext.h"

enum node_state {
    NODE_PENDING = 0, /* never read yet */
    NODE_OK,
    NODE_REFUSED,    /* connection refused */
    NODE_TIMEOUT,    /* no complete answer within the timeout */
    NODE_TLS_ERROR,  /* handshake, certificate or key problem */
    NODE_HTTP_ERROR, /* an HTTP status other than 200 (see http_status) */
    NODE_BAD_DATA,   /* the body is no Prometheus text, or holds no nvitop-exporter metrics */
    NODE_ERROR,      /* anything else (name resolution, connection reset, ...) */
    NODE_DOWN,       /* Prometheus: the target's last scrape failed (reason from Prometheus) */
};

#define NODE_TOP_USERS 3  /* the table's TOP USERS and JSON's top_users */
#define NODE_USERS     16 /* kept per node, largest first, for the fleet's users (fleet_users.h) */

/* What needs a human on a node (docs/cluster.md, "Health"): set on any of its GPUs. */
enum node_flag {
    NODE_FLAG_LOST = 1u << 0,     /* our exporter: a device named "ERROR: GPU is Lost" */
    NODE_FLAG_XID = 1u << 1,      /* dcgm-exporter: DCGM_FI_DEV_XID_ERRORS not 0 */
    NODE_FLAG_ECC = 1u << 2,      /* dcgm-exporter: uncorrectable ECC errors or row remapping */
    NODE_FLAG_THROTTLE = 1u << 3, /* dcgm-exporter: thermal, HW slowdown or power-brake clocks */
    NODE_FLAG_HOT = 1u << 4,      /* dcgm-exporter: GPU_TEMP at or above SLOWDOWN_TEMP */
};
#define NODE_FLAG_ALL 0x1fu

/* A user of a node: a process's username (its container when it has one), or a dcgm-exporter
 * pod ("namespace/pod"). */
struct node_user {
    char name[64];
    double gpu_memory_mib;
    unsigned gpu_count; /* physical GPUs it runs on */
};

/* The summary of one node's metrics.  NaN means N/A. */
struct node_summary {
    char hostname[128]; /* the hostname label; empty when no series had one */
    char driver[32];
    bool dcgm;          /* read from NVIDIA's dcgm-exporter (no process metrics: pods as users) */
    unsigned gpu_count; /* physical GPUs */
    unsigned mig_count; /* MIG devices */
    double util_mean;   /* over physical GPUs that report utilization */
    double util_max;
    double memory_used_mib; /* physical GPUs */
    double memory_total_mib;
    double power_w; /* sum over physical GPUs that report it */
    double temperature_max_c;
    unsigned process_count; /* distinct pids (a MIG GPU's copies of its MIG processes left out) */
    unsigned idle_count;    /* physical GPUs with utilization under 5 % and no process (or pod) */
    unsigned flags;         /* enum node_flag */
    double xid_last;        /* the largest last XID of its GPUs (NaN: none) */
    size_t user_count;
    struct node_user users[NODE_USERS]; /* by GPU memory, largest first */
};

struct node {
    char address[256]; /* host:port as given, or the Prometheus instance label */
    char url[300];     /* what is fetched (direct sources) */
    enum node_state state;
    int http_status;  /* with NODE_HTTP_ERROR */
    char reason[256]; /* human-readable cause when state is not NODE_OK */
    bool has_data;    /* summary holds a successful read (maybe older than the last attempt) */
    double data_time; /* wall clock of the data in summary (seconds since the epoch) */
    struct node_summary summary;
    struct node_history history; /* summary.util_mean over the last minutes (HISTORY) */
};

/* Summarise one node's samples.  Returns false with a reason when no nvitop-exporter GPU metric
 * is present (a wrong port, another exporter). */
/* The one rule for a node's figures, wherever they are shown (the table, the node view, JSON): a
 * value that is not a finite number from 0 to NODE_READING_MAX (NaN, +Inf, -Inf, 1e308, a
 * negative one) is no reading, and is shown as N/A (null in JSON).  Returns v, or NaN. */
#define NODE_READING_MAX 1e9
double node_reading(double v);

bool node_summarize(const struct prom_doc *doc, struct node_summary *out, char *why, size_t size);

/* A node's /metrics body summarised: only the summary's series are parsed, and a dcgm-exporter
 * body is read through parse/dcgm.h.  False with a reason in why ("malformed metrics: line 3:
 * ...", "truncated: ...", or node_summarize()'s). */
bool node_summarize_body(const char *body, size_t len, struct node_summary *out, char *why,
                         size_t size);

/* node_summarize_body() parsing in the caller's buffer (prom_parse_only_in_place(): text has room
 * for a NUL at text[len], and is changed). */
bool node_summarize_in_place(char *text, size_t len, struct node_summary *out, char *why,
                             size_t size);

/* The metric names node_summarize() reads (a prom_keep_fn for prom_parse_only(); context
 * unused). */
bool node_summary_uses(const char *name, size_t len, const void *context);

/* The query that asks an exporter for only the series the summary reads, as Prometheus's client
 * libraries (nvitop-exporter 1.7's) and our exporter answer it: "name%5B%5D=nvitop_info&...".
 * Writes it NUL-terminated into buf when size is larger than its length; returns its length. */
size_t node_summary_query(char *buf, size_t size);

/* The health text of a summary: "ok", or its flags joined by ',' ("LOST", "XID:79", "ECC",
 * "THROTTLE", "HOT"; upper case, as a problem is said). */
void node_flags_text(char *buf, size_t size, const struct node_summary *s);

/* The lower-case name of one flag ("lost", "xid", ...), for JSON. */
const char *node_flag_name(enum node_flag flag);

/* A short name of a state: "ok", "refused", "timeout", "tls error", "http error", ... */
const char *node_state_name(enum node_state state);

#endif /* NVITOP_SRC_CLUSTER_NODE_H */
