/* The Prometheus source (prom_api.h).  Answers are walked by prom_json (no JSON tree: at 1,000
 * nodes a tree of the answers cost more than the rest of a refresh); each aggregated series fills
 * one figure of the node named by its instance label. */
#include "cluster/prometheus/prom_api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster/fetch/curl_api.h"
#include "cluster/parse/prom_json.h"
#include "cluster/prometheus/node_index.h"
#include "util/sys/clock.h"
#include "util/text/str.h"
#include "util/text/strbuf.h"
#include "util/xalloc.h"

/* The figures of the summary (node.c), aggregated by Prometheus: each answer holds one series per
 * node (sixteen for the users), so nvitop's work grows with the nodes, not with their GPUs and
 * processes.  ">= 0" drops NaN samples, which node_summarize() skips too. */
enum field {
    F_GPUS, /* creates the node; carries the hostname label */
    F_MIG,
    F_UTIL_MEAN,
    F_UTIL_MAX,
    F_MEM_USED,
    F_MEM_TOTAL,
    F_POWER,
    F_TEMP,
    F_PROCS,
    F_USERS,     /* a node's NODE_USERS largest users by GPU memory */
    F_USER_GPUS, /* their GPU counts (after F_USERS: applied to the users it found) */
    F_DRIVER,
    F_IDLE,
    F_HEALTH, /* one series per flag of a node, its label "flag" (the XID's value: the last XID) */
    F_COUNT
};

#define PHYSICAL "{index!~\".*:.*\"}"
/* dcgm-exporter's series (docs/cluster.md, "dcgm-exporter nodes"): a physical GPU's rows have no
 * GPU_I_ID (MIG instances' have one), and "< 2147483632" drops DCGM's blank values (every one is
 * at least DCGM_INT32_BLANK, parse/dcgm.h).  A GPU without memory rows of its own counts its MIG
 * instances' ("or on (instance, job, gpu)"). */
#define DCGM_PHYSICAL "{GPU_I_ID=\"\"}"
#define NOT_BLANK     " < 2147483632"
#define DCGM_FB_TOTAL(sel)                                                                         \
    "((DCGM_FI_DEV_FB_USED" sel NOT_BLANK ") + (DCGM_FI_DEV_FB_FREE" sel NOT_BLANK                 \
    ") + ((DCGM_FI_DEV_FB_RESERVED" sel NOT_BLANK ") or DCGM_FI_DEV_FB_USED" sel " * 0))"
#define DCGM_PER_GPU(a, b) "((" a ") or on (instance, job, gpu) (" b "))"
#define FLAG(name, expr)   "label_replace(" expr ", \"flag\", \"" name "\", \"\", \"\")"
#define DCGM_CLOCK_EVENTS                                                                          \
    "((DCGM_FI_DEV_CLOCKS_EVENT_REASONS or DCGM_FI_DEV_CLOCK_THROTTLE_REASONS)" NOT_BLANK ")"
#define BY_NODE "count by (instance, job) "
/* The process rows of leaf devices: a GPU with MIG devices lists their processes again (as
 * nvitop-exporter 1.7 does), left out by the GPU index its MIG devices' indices start with.  In
 * parentheses: `unless` binds more loosely than a comparison after it. */
#define LEAF_PROCESSES                                                                             \
    "(process_gpu_memory_MiB unless on (instance, job, index) "                                    \
    "label_replace(gpu_memory_total_MiB{index=~\".*:.*\"}, \"index\", \"$1\", \"index\", "         \
    "\"([^:]+):.*\"))"
#define PROCESS_USERS(cond)                                                                        \
    "label_replace(" LEAF_PROCESSES cond ", \"username\", \"$1\", \"container\", \"(.+)\")"
#define DCGM_USERS(cond)                                                                           \
    "label_join(DCGM_FI_DEV_FB_USED{pod!=\"\"}" cond                                               \
    ", \"username\", \"/\", \"namespace\", \"pod\")"
#define NODE_USERS_TEXT "16" /* NODE_USERS */
#define HEALTH_LOST                                                                                \
    FLAG("lost", BY_NODE "(gpu_memory_total_MiB{devicename=\"ERROR: GPU is Lost\"})")
#define HEALTH_XID FLAG("xid", "max by (instance, job) (DCGM_FI_DEV_XID_ERRORS > 0" NOT_BLANK ")")
#define HEALTH_ECC                                                                                 \
    FLAG("ecc", BY_NODE "(DCGM_FI_DEV_ECC_DBE_VOL_TOTAL > 0" NOT_BLANK                             \
                        " or DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS > 0" NOT_BLANK                \
                        " or DCGM_FI_DEV_ROW_REMAP_FAILURE > 0" NOT_BLANK ")")
/* NVML's clock event bits 0x8 and 0x20 to 0x80 (parse/dcgm.c), without bit operators. */
#define HEALTH_THROTTLE                                                                            \
    FLAG("throttle", BY_NODE "(floor(" DCGM_CLOCK_EVENTS                                           \
                             " / 8) % 2 == 1 or floor(" DCGM_CLOCK_EVENTS " / 32) % 8 > 0)")
#define HEALTH_HOT                                                                                 \
    FLAG("hot", BY_NODE "((DCGM_FI_DEV_GPU_TEMP" NOT_BLANK                                         \
                        ") >= (DCGM_FI_DEV_SLOWDOWN_TEMP" NOT_BLANK "))")
static const char *const queries[F_COUNT] = {
    [F_GPUS] = "count by (instance, job, hostname) (gpu_memory_total_MiB" PHYSICAL ") or "
               "label_replace(count by (instance, job, Hostname) (count by (instance, job, "
               "Hostname, gpu) (DCGM_FI_DEV_FB_USED)), \"hostname\", \"$1\", \"Hostname\", "
               "\"(.*)\")",
    [F_MIG] = "count by (instance, job) (gpu_memory_total_MiB{index=~\".*:.*\"}) or "
              "count by (instance, job) (DCGM_FI_DEV_FB_USED{GPU_I_ID!=\"\"})",
    [F_UTIL_MEAN] = "avg by (instance, job) (gpu_utilization_Percentage" PHYSICAL " >= 0) or "
                    "avg by (instance, job) (DCGM_FI_DEV_GPU_UTIL" DCGM_PHYSICAL NOT_BLANK ")",
    [F_UTIL_MAX] = "max by (instance, job) (gpu_utilization_Percentage" PHYSICAL " >= 0) or "
                   "max by (instance, job) (DCGM_FI_DEV_GPU_UTIL" DCGM_PHYSICAL NOT_BLANK ")",
    [F_MEM_USED] =
        "sum by (instance, job) (gpu_memory_used_MiB" PHYSICAL " >= 0) or "
        "sum by (instance, job) " DCGM_PER_GPU("DCGM_FI_DEV_FB_USED" DCGM_PHYSICAL NOT_BLANK,
                                               "DCGM_FI_DEV_FB_USED" NOT_BLANK),
    [F_MEM_TOTAL] =
        "sum by (instance, job) (gpu_memory_total_MiB" PHYSICAL " >= 0) or "
        "sum by (instance, job) " DCGM_PER_GPU(DCGM_FB_TOTAL(DCGM_PHYSICAL), DCGM_FB_TOTAL("")),
    [F_POWER] = "sum by (instance, job) (gpu_power_usage_W" PHYSICAL " >= 0) or "
                "sum by (instance, job) (DCGM_FI_DEV_POWER_USAGE" DCGM_PHYSICAL NOT_BLANK ")",
    [F_TEMP] = "max by (instance, job) (gpu_temperature_C" PHYSICAL " > -1000) or "
               "max by (instance, job) (DCGM_FI_DEV_GPU_TEMP" DCGM_PHYSICAL NOT_BLANK ")",
    [F_PROCS] = "count by (instance, job) (count by (instance, job, pid) (" LEAF_PROCESSES "))",
    /* A process in a container is counted under its container (node.c); dcgm-exporter's pods
     * (its Kubernetes labels) stand in for users, "namespace/pod". */
    [F_USERS] = "topk by (instance, job) (" NODE_USERS_TEXT ", sum by (instance, job, username) "
                "(" PROCESS_USERS(" >= 0") ") or sum by (instance, job, username) "
                                           "(" DCGM_USERS(NOT_BLANK) "))",
    [F_USER_GPUS] = "count by (instance, job, username) (count by (instance, job, username, gpu) "
                    "(label_replace(" PROCESS_USERS("") ", \"gpu\", \"$1\", \"index\", "
                                                        "\"([0-9]+).*\") or " DCGM_USERS("") "))",
    [F_DRIVER] = "max by (instance, job, driver_version, exporter) (nvitop_info) or "
                 "label_replace(label_replace(max by (instance, job, DCGM_FI_DRIVER_VERSION) "
                 "(DCGM_FI_DEV_FB_USED), \"driver_version\", \"$1\", \"DCGM_FI_DRIVER_VERSION\", "
                 "\"(.*)\"), \"exporter\", \"dcgm-exporter\", \"\", \"\")",
    /* Idle GPUs as node.c counts them: utilization under 5 %, no process (no pod) on them. */
    [F_IDLE] = "count by (instance, job) ((gpu_utilization_Percentage" PHYSICAL " < 5) unless on "
               "(instance, job, index) process_gpu_memory_MiB) or count by (instance, job) "
               "((DCGM_FI_DEV_GPU_UTIL" DCGM_PHYSICAL " < 5) unless on (instance, job, gpu) "
               "DCGM_FI_DEV_FB_USED{pod!=\"\"})",
    /* The health flags of node.h, from the same series as a direct read's (parse/dcgm.c). */
    [F_HEALTH] =
        HEALTH_LOST " or " HEALTH_XID " or " HEALTH_ECC " or " HEALTH_THROTTLE " or " HEALTH_HOT,
};

struct target {
    const char *instance;
    const char *job;
    const char *health;
    const char *error;
    double last_scrape;
};

/* count digits at text, as a number into *out; false at anything else (a NUL included). */
static bool fixed_digits(const char *text, int count, int *out) {
    int value = 0;
    for (int i = 0; i < count; i++) {
        if (text[i] < '0' || text[i] > '9') {
            return false;
        }
        value = value * 10 + (text[i] - '0');
    }
    *out = value;
    return true;
}

double prom_api_parse_time(const char *text) {
    /* YYYY-MM-DDTHH:MM:SS by position (sscanf() was 2 % of the --prometheus screen: a target's
     * last scrape, 1,000 a refresh); each check stops at the first byte that does not fit. */
    struct tm tm = {0};
    if (!(fixed_digits(text, 4, &tm.tm_year) && text[4] == '-' &&
          fixed_digits(text + 5, 2, &tm.tm_mon) && text[7] == '-' &&
          fixed_digits(text + 8, 2, &tm.tm_mday) && text[10] == 'T' &&
          fixed_digits(text + 11, 2, &tm.tm_hour) && text[13] == ':' &&
          fixed_digits(text + 14, 2, &tm.tm_min) && text[16] == ':' &&
          fixed_digits(text + 17, 2, &tm.tm_sec))) {
        return NAN;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    double seconds = (double)timegm(&tm);
    const char *p = text + 19;
    if (*p == '.') {
        double scale = 0.1;
        for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10) {
            seconds += (*p - '0') * scale;
        }
    }
    if (*p == 'Z' && p[1] == '\0') {
        return seconds;
    }
    int hours, minutes;
    if ((*p == '+' || *p == '-') && fixed_digits(p + 1, 2, &hours) && p[3] == ':' &&
        fixed_digits(p + 4, 2, &minutes) && p[6] == '\0') {
        double offset = hours * 3600.0 + minutes * 60.0;
        return *p == '+' ? seconds - offset : seconds + offset;
    }
    return NAN;
}

/* The series or targets of one answer, given to a prom_json callback. */
struct reading {
    enum field field;
    struct node *found; /* F_GPUS: the nodes, sorted by address once that answer is read */
    size_t found_count, found_cap;
    struct node_index index; /* of found, once sorted */
    char (*jobs)[128];       /* the jobs that have nvitop-exporter metrics */
    size_t job_count, job_cap;
    struct target *targets; /* pointing into the targets' answer */
    size_t target_count, target_cap;
};

static int node_by_address(const void *a, const void *b) {
    return strcmp(((const struct node *)a)->address, ((const struct node *)b)->address);
}

static int target_by_instance(const void *a, const void *b) {
    return strcmp(((const struct target *)a)->instance, ((const struct target *)b)->instance);
}

static struct node *add_node(struct node **nodes, size_t *count, size_t *cap, const char *name) {
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *nodes = xrealloc(*nodes, *cap * sizeof **nodes);
    }
    struct node *n = &(*nodes)[(*count)++];
    memset(n, 0, sizeof *n);
    str_copy(n->address, sizeof n->address, name);
    return n;
}

static void add_user(struct node_summary *s, const char *user, double mib) {
    if (s->user_count == NODE_USERS) {
        return;
    }
    str_copy(s->users[s->user_count].name, sizeof s->users[0].name, user);
    s->users[s->user_count].gpu_count = 0;
    s->users[s->user_count++].gpu_memory_mib = mib;
    /* Largest first, then by name, as node_summarize() orders them. */
    for (size_t i = s->user_count - 1; i > 0; i--) {
        struct node_user *a = &s->users[i - 1], *b = &s->users[i];
        if (a->gpu_memory_mib > b->gpu_memory_mib ||
            (a->gpu_memory_mib == b->gpu_memory_mib && strcmp(a->name, b->name) <= 0)) {
            break;
        }
        struct node_user t = *a;
        *a = *b;
        *b = t;
    }
}

/* The GPU count of a user F_USERS found (others are not kept). */
static void set_user_gpus(struct node_summary *s, const char *user, double count) {
    for (size_t i = 0; i < s->user_count; i++) {
        if (strcmp(s->users[i].name, user) == 0) {
            s->users[i].gpu_count = isnan(count) || count > 1e6 ? 0 : (unsigned)count;
        }
    }
}

static bool job_has_metrics(const struct reading *r, const char *job) {
    for (size_t i = 0; i < r->job_count; i++) {
        if (strcmp(r->jobs[i], job) == 0) {
            return true;
        }
    }
    return false;
}

/* A series of the GPU count: a new node. */
static void on_gpus(const struct prom_json_series *series, void *context) {
    struct reading *r = context;
    const char *instance = prom_json_label(series, "instance");
    const char *job = prom_json_label(series, "job");
    if (instance == NULL) {
        return;
    }
    if (job != NULL && !job_has_metrics(r, job)) {
        if (r->job_count == r->job_cap) {
            r->job_cap = r->job_cap ? r->job_cap * 2 : 4;
            r->jobs = xrealloc(r->jobs, r->job_cap * sizeof *r->jobs);
        }
        str_copy(r->jobs[r->job_count++], sizeof r->jobs[0], job);
    }
    struct node *n = add_node(&r->found, &r->found_count, &r->found_cap, instance);
    struct node_summary *s = &n->summary;
    s->util_mean = s->util_max = s->memory_used_mib = s->memory_total_mib = NAN;
    s->power_w = s->temperature_max_c = s->xid_last = NAN;
    double v = series->value;
    s->gpu_count = isnan(v) || v < 0 || v > 1e6 ? 0 : (unsigned)v;
    const char *host = prom_json_label(series, "hostname");
    str_copy(s->hostname, sizeof s->hostname, host != NULL ? host : "");
    n->state = NODE_OK;
    n->has_data = true;
    n->data_time = series->time;
}

static unsigned count_of(double v) {
    return isnan(v) || v < 0 || v > 1e9 ? 0 : (unsigned)v;
}

/* A series of another figure: applied to its node (found by instance). */
static void on_field(const struct prom_json_series *series, void *context) {
    struct reading *r = context;
    const char *instance = prom_json_label(series, "instance");
    if (instance == NULL || r->found_count == 0) {
        return;
    }
    char key[sizeof(((struct node *)0)->address)];
    if (strlen(instance) >= sizeof key) { /* cut as the node's address was (add_node()) */
        str_copy(key, sizeof key, instance);
        instance = key;
    }
    struct node *n = node_index_find(&r->index, r->found, instance);
    if (n == NULL) {
        return;
    }
    double v = node_reading(series->value);
    struct node_summary *s = &n->summary;
    switch (r->field) {
    case F_MIG:
        s->mig_count = count_of(v);
        break;
    case F_UTIL_MEAN:
        s->util_mean = v;
        break;
    case F_UTIL_MAX:
        s->util_max = v;
        break;
    case F_MEM_USED:
        s->memory_used_mib = v;
        break;
    case F_MEM_TOTAL:
        s->memory_total_mib = v;
        break;
    case F_POWER:
        s->power_w = v;
        break;
    case F_TEMP:
        s->temperature_max_c = v;
        break;
    case F_PROCS:
        s->process_count = count_of(v);
        break;
    case F_IDLE:
        s->idle_count = count_of(v);
        break;
    case F_USERS: {
        const char *user = prom_json_label(series, "username");
        add_user(s, user != NULL ? user : "N/A", isnan(v) ? 0 : v);
        break;
    }
    case F_USER_GPUS: {
        const char *user = prom_json_label(series, "username");
        set_user_gpus(s, user != NULL ? user : "N/A", v);
        break;
    }
    case F_HEALTH: {
        const char *flag = prom_json_label(series, "flag");
        for (unsigned bit = 1; flag != NULL && bit <= NODE_FLAG_ALL; bit <<= 1) {
            if (strcmp(flag, node_flag_name((enum node_flag)bit)) == 0) {
                s->flags |= bit;
            }
        }
        if (flag != NULL && strcmp(flag, "xid") == 0) {
            s->xid_last = v;
        }
        break;
    }
    case F_DRIVER: {
        const char *driver = prom_json_label(series, "driver_version");
        const char *exporter = prom_json_label(series, "exporter");
        str_copy(s->driver, sizeof s->driver, driver != NULL ? driver : "");
        s->dcgm = exporter != NULL && strcmp(exporter, "dcgm-exporter") == 0;
        break;
    }
    default:
        break;
    }
}

/* An active target (those without instance, job or health are skipped). */
static void on_target(const struct prom_json_target *target, void *context) {
    struct reading *r = context;
    if (target->instance == NULL || target->job == NULL || target->health == NULL) {
        return;
    }
    if (r->target_count == r->target_cap) {
        r->target_cap = r->target_cap ? r->target_cap * 2 : 16;
        r->targets = xrealloc(r->targets, r->target_cap * sizeof *r->targets);
    }
    r->targets[r->target_count++] = (struct target){
        target->instance, target->job, target->health, target->last_error,
        target->last_scrape != NULL ? prom_api_parse_time(target->last_scrape) : NAN};
}

bool prom_api_get(const char *base, const char *path, const char *query,
                  const struct fetch_options *options, struct strbuf *body, char *err,
                  size_t errlen) {
    struct strbuf url = STRBUF_INIT;
    size_t base_len = strlen(base);
    while (base_len > 0 && base[base_len - 1] == '/') {
        base_len--;
    }
    bool ok = strbuf_append(&url, base, base_len) && strbuf_append_str(&url, path);
    if (query != NULL) {
        char *escaped = options->curl->easy_escape(NULL, query, 0);
        ok = ok && escaped != NULL && strbuf_append_str(&url, escaped);
        options->curl->free(escaped);
    }
    if (!ok) {
        strbuf_fini(&url);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    char reason[256];
    enum node_state state = fetch_get(strbuf_cstr(&url), options, body, reason, sizeof reason);
    strbuf_fini(&url);
    if (state != NODE_OK) {
        snprintf(err, errlen, "%s: %s", node_state_name(state), reason);
        return false;
    }
    if (body->data == NULL && !strbuf_append(body, "", 0)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return true;
}

static bool api_get(const char *base, const char *path, const char *query,
                    const struct fetch_options *options, struct strbuf *body,
                    struct reading *reading, char *err, size_t errlen) {
    if (!prom_api_get(base, path, query, options, body, err, errlen)) {
        return false;
    }
    return query != NULL
               ? prom_json_vector(body->data, body->len,
                                  reading->field == F_GPUS ? on_gpus : on_field, reading, err,
                                  errlen)
               : prom_json_targets(body->data, body->len, on_target, reading, err, errlen);
}

/* Merge the nodes found and the targets (both sorted) into *nodes: a node with data keeps it
 * (stale when its target is down); a target without data is listed when it is down
 * (Prometheus's reason) or belongs to a job of nvitop exporters. */
static void merge(const struct reading *r, struct node **nodes, size_t *count) {
    /* Room for every node at once: a node is 2.6 KB, and growing the array by doubling copied
     * 1,000 of them twice over a refresh. */
    size_t cap = r->found_count + r->target_count + 1, s = 0, t = 0;
    *nodes = xmalloc(cap * sizeof **nodes);
    const struct node *found = r->found;
    const struct target *targets = r->targets;
    while (s < r->found_count || t < r->target_count) {
        int cmp = s >= r->found_count    ? 1
                  : t >= r->target_count ? -1
                                         : strcmp(found[s].address, targets[t].instance);
        if (cmp <= 0) {
            struct node *n = &(*nodes)[(*count)++];
            *n = found[s++];
            if (cmp == 0 && !isnan(targets[t].last_scrape)) {
                n->data_time = targets[t].last_scrape; /* the query's time is "now" */
            }
            if (cmp == 0 && strcmp(targets[t].health, "up") != 0) {
                n->state = NODE_DOWN;
                str_copy(n->reason, sizeof n->reason,
                         targets[t].error != NULL && targets[t].error[0] != '\0'
                             ? targets[t].error
                             : targets[t].health);
            }
            t += cmp == 0;
            continue;
        }
        const struct target *tg = &targets[t++];
        bool up = strcmp(tg->health, "up") == 0;
        if (up && !job_has_metrics(r, tg->job)) {
            continue; /* another exporter (Prometheus itself, node_exporter, ...) */
        }
        struct node *n = add_node(nodes, count, &cap, tg->instance);
        n->state = up ? NODE_BAD_DATA : NODE_DOWN;
        str_copy(n->reason, sizeof n->reason,
                 up ? "no nvitop-exporter metrics in Prometheus for this target"
                 : tg->error != NULL && tg->error[0] != '\0' ? tg->error
                                                             : tg->health);
    }
}

bool prom_api_read(const char *base_url, const struct fetch_options *options, struct node **nodes,
                   size_t *count, char *err, size_t errlen) {
    *nodes = NULL;
    *count = 0;
    struct reading r = {.field = F_GPUS};
    struct strbuf body = STRBUF_INIT, targets_body = STRBUF_INIT;
    bool ok = true;
    for (int f = 0; f < F_COUNT && ok; f++) {
        r.field = (enum field)f;
        ok = api_get(base_url, "/api/v1/query?query=", queries[f], options, &body, &r, err, errlen);
        strbuf_fini(&body);
        if (f == F_GPUS && r.found_count > 0) { /* (qsort and bsearch take no NULL array) */
            qsort(r.found, r.found_count, sizeof *r.found, node_by_address);
            node_index_build(&r.index, r.found, r.found_count);
        }
    }
    /* The targets' strings point into their answer, kept until the merge. */
    ok = ok && api_get(base_url, "/api/v1/targets?state=active", NULL, options, &targets_body, &r,
                       err, errlen);
    if (ok && r.target_count > 0) {
        qsort(r.targets, r.target_count, sizeof *r.targets, target_by_instance);
    }
    if (ok) {
        merge(&r, nodes, count);
    }
    strbuf_fini(&targets_body);
    node_index_fini(&r.index);
    free(r.found);
    free(r.jobs);
    free(r.targets);
    return ok;
}

struct history_reading {
    struct node *nodes;
    size_t count;
    double step_s;
};

static int address_is(const void *key, const void *node) {
    return strcmp(key, ((const struct node *)node)->address);
}

static void on_history(const struct prom_json_series *series, void *context) {
    const struct history_reading *h = context;
    const char *instance = prom_json_label(series, "instance");
    struct node *n = instance != NULL && h->count > 0
                         ? bsearch(instance, h->nodes, h->count, sizeof *h->nodes, address_is)
                         : NULL;
    for (size_t i = 0; n != NULL && i < series->point_count; i++) {
        node_history_add(&n->history, h->step_s, series->point_time[i],
                         node_reading(series->point_value[i]));
    }
}

bool prom_api_history(const char *base_url, const struct fetch_options *options, struct node *nodes,
                      size_t count, double step_s, double now, char *err, size_t errlen) {
    /* Points in the middle of the history's slots (node_history.h), so that each falls in its own
     * whatever the rounding; the last one is not after now. */
    double end = (floor(now / step_s) + 0.5) * step_s;
    end = end > now ? end - step_s : end;
    char path[160];
    snprintf(path, sizeof path, "/api/v1/query_range?start=%.3f&end=%.3f&step=%g&query=",
             end - (NODE_HISTORY_CELLS - 1) * step_s, end, step_s);
    struct strbuf body = STRBUF_INIT;
    struct history_reading h = {nodes, count, step_s};
    bool ok = prom_api_get(base_url, path, queries[F_UTIL_MEAN], options, &body, err, errlen) &&
              prom_json_vector(body.data, body.len, on_history, &h, err, errlen);
    strbuf_fini(&body);
    return ok;
}
