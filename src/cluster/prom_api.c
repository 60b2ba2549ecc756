/* The Prometheus source (prom_api.h).  Answers are parsed with jansson; each aggregated series
 * fills one figure of the node named by its instance label. */
#include "cluster/prom_api.h"

#include <curl/curl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"
#include "util/str.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The figures of the summary (node.c), aggregated by Prometheus: each answer holds one series per
 * node (three for the users), so nvitop's work grows with the nodes, not with their GPUs and
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
    F_USERS,
    F_DRIVER,
    F_COUNT
};

#define PHYSICAL "{index!~\".*:.*\"}"
static const char *const queries[F_COUNT] = {
    [F_GPUS] = "count by (instance, job, hostname) (gpu_memory_total_MiB" PHYSICAL ")",
    [F_MIG] = "count by (instance, job) (gpu_memory_total_MiB{index=~\".*:.*\"})",
    [F_UTIL_MEAN] = "avg by (instance, job) (gpu_utilization_Percentage" PHYSICAL " >= 0)",
    [F_UTIL_MAX] = "max by (instance, job) (gpu_utilization_Percentage" PHYSICAL " >= 0)",
    [F_MEM_USED] = "sum by (instance, job) (gpu_memory_used_MiB" PHYSICAL " >= 0)",
    [F_MEM_TOTAL] = "sum by (instance, job) (gpu_memory_total_MiB" PHYSICAL " >= 0)",
    [F_POWER] = "sum by (instance, job) (gpu_power_usage_W" PHYSICAL " >= 0)",
    [F_TEMP] = "max by (instance, job) (gpu_temperature_C" PHYSICAL " > -1000)",
    [F_PROCS] = "count by (instance, job) (process_gpu_memory_MiB)",
    [F_USERS] = "topk by (instance, job) (3, sum by (instance, job, username) "
                "(process_gpu_memory_MiB >= 0))",
    [F_DRIVER] = "max by (instance, job, driver_version) (nvitop_info)",
};

struct target {
    const char *instance;
    const char *job;
    const char *health;
    const char *error;
    double last_scrape;
};

double prom_api_parse_time(const char *text) {
    struct tm tm = {0};
    int n = 0;
    if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, &n) != 6 ||
        n != 19) {
        return NAN;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    double seconds = (double)timegm(&tm);
    const char *p = text + n;
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
    if ((*p == '+' || *p == '-') && sscanf(p + 1, "%2d:%2d%n", &hours, &minutes, &n) == 2 &&
        n == 5 && p[6] == '\0') {
        double offset = hours * 3600.0 + minutes * 60.0;
        return *p == '+' ? seconds - offset : seconds + offset;
    }
    return NAN;
}

/* GET base + path (+ the escaped query) and parse it; the "data" member of a success answer. */
static json_t *api_get(const char *base, const char *path, const char *query,
                       const struct fetch_options *options, json_t **root, char *err,
                       size_t errlen) {
    struct strbuf url = STRBUF_INIT;
    size_t base_len = strlen(base);
    while (base_len > 0 && base[base_len - 1] == '/') {
        base_len--;
    }
    bool ok = strbuf_append(&url, base, base_len) && strbuf_append_str(&url, path);
    if (query != NULL) {
        char *escaped = curl_easy_escape(NULL, query, 0);
        ok = ok && escaped != NULL && strbuf_append_str(&url, escaped);
        curl_free(escaped);
    }
    if (!ok) {
        strbuf_fini(&url);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct strbuf body = STRBUF_INIT;
    char reason[256];
    enum node_state state = fetch_get(strbuf_cstr(&url), options, &body, reason, sizeof reason);
    strbuf_fini(&url);
    if (state != NODE_OK) {
        snprintf(err, errlen, "%s: %s", node_state_name(state), reason);
        return NULL;
    }
    json_error_t jerr;
    *root = json_loadb(body.data != NULL ? body.data : "", body.len, 0, &jerr);
    strbuf_fini(&body);
    json_t *data = *root != NULL ? json_object_get(*root, "data") : NULL;
    const char *status = json_string_value(json_object_get(*root, "status"));
    if (*root == NULL || status == NULL || strcmp(status, "success") != 0 ||
        !json_is_object(data)) {
        snprintf(err, errlen, "not a Prometheus API answer%s%s", *root == NULL ? ": " : "",
                 *root == NULL ? jerr.text : "");
        json_decref(*root);
        *root = NULL;
        return NULL;
    }
    return data;
}

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

/* The active targets, sorted by instance (malformed entries skipped). */
static struct target *read_targets(json_t *data, size_t *count) {
    json_t *active = json_object_get(data, "activeTargets");
    size_t size = json_array_size(active);
    struct target *targets = xcalloc(size + 1, sizeof *targets);
    *count = 0;
    for (size_t i = 0; i < size; i++) {
        json_t *t = json_array_get(active, i);
        json_t *labels = json_object_get(t, "labels");
        struct target *out = &targets[*count];
        out->instance = json_string_value(json_object_get(labels, "instance"));
        out->job = json_string_value(json_object_get(labels, "job"));
        out->health = json_string_value(json_object_get(t, "health"));
        out->error = json_string_value(json_object_get(t, "lastError"));
        const char *scrape = json_string_value(json_object_get(t, "lastScrape"));
        out->last_scrape = scrape != NULL ? prom_api_parse_time(scrape) : NAN;
        if (out->instance != NULL && out->job != NULL && out->health != NULL) {
            (*count)++;
        }
    }
    qsort(targets, *count, sizeof *targets, target_by_instance);
    return targets;
}

static double value_of(json_t *item, double *time) {
    json_t *value = json_object_get(item, "value");
    const char *text = json_string_value(json_array_get(value, 1));
    *time = json_number_value(json_array_get(value, 0));
    char *end;
    double v = text != NULL ? strtod(text, &end) : NAN;
    return text != NULL && *end == '\0' ? v : NAN;
}

static void add_user(struct node_summary *s, const char *user, double mib) {
    if (s->user_count == NODE_TOP_USERS) {
        return;
    }
    str_copy(s->users[s->user_count].name, sizeof s->users[0].name, user);
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

/* Apply one aggregated series to its node (found by instance among the sorted nodes). */
static void apply(enum field f, json_t *item, struct node *nodes, size_t count) {
    json_t *metric = json_object_get(item, "metric");
    const char *instance = json_string_value(json_object_get(metric, "instance"));
    if (instance == NULL) {
        return;
    }
    struct node key;
    str_copy(key.address, sizeof key.address, instance);
    struct node *n = bsearch(&key, nodes, count, sizeof *nodes, node_by_address);
    if (n == NULL) {
        return;
    }
    double t, v = value_of(item, &t);
    struct node_summary *s = &n->summary;
    switch (f) {
    case F_MIG:
        s->mig_count = isnan(v) || v < 0 ? 0 : (unsigned)v;
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
        s->process_count = isnan(v) || v < 0 ? 0 : (unsigned)v;
        break;
    case F_USERS: {
        const char *user = json_string_value(json_object_get(metric, "username"));
        add_user(s, user != NULL ? user : "N/A", isnan(v) ? 0 : v);
        break;
    }
    case F_DRIVER: {
        const char *driver = json_string_value(json_object_get(metric, "driver_version"));
        str_copy(s->driver, sizeof s->driver, driver != NULL ? driver : "");
        break;
    }
    default:
        break;
    }
}

static bool job_has_metrics(json_t *gpus, const char *job) {
    for (size_t i = 0; i < json_array_size(gpus); i++) {
        json_t *metric = json_object_get(json_array_get(gpus, i), "metric");
        const char *j = json_string_value(json_object_get(metric, "job"));
        if (j != NULL && strcmp(j, job) == 0) {
            return true;
        }
    }
    return false;
}

bool prom_api_read(const char *base_url, const struct fetch_options *options, struct node **nodes,
                   size_t *count, char *err, size_t errlen) {
    *nodes = NULL;
    *count = 0;
    json_t *roots[F_COUNT + 1] = {NULL};
    json_t *results[F_COUNT] = {NULL};
    bool ok = true;
    for (int f = 0; f < F_COUNT && ok; f++) {
        json_t *data =
            api_get(base_url, "/api/v1/query?query=", queries[f], options, &roots[f], err, errlen);
        results[f] = data != NULL ? json_object_get(data, "result") : NULL;
        ok = data != NULL;
    }
    json_t *tdata = ok ? api_get(base_url, "/api/v1/targets?state=active", NULL, options,
                                 &roots[F_COUNT], err, errlen)
                       : NULL;
    if (tdata == NULL) {
        for (int f = 0; f <= F_COUNT; f++) {
            json_decref(roots[f]);
        }
        return false;
    }
    /* The nodes: one per series of the GPU count. */
    struct node *found = NULL;
    size_t found_count = 0, found_cap = 0;
    for (size_t i = 0; i < json_array_size(results[F_GPUS]); i++) {
        json_t *item = json_array_get(results[F_GPUS], i);
        json_t *metric = json_object_get(item, "metric");
        const char *instance = json_string_value(json_object_get(metric, "instance"));
        if (instance == NULL) {
            continue;
        }
        struct node *n = add_node(&found, &found_count, &found_cap, instance);
        struct node_summary *s = &n->summary;
        s->util_mean = s->util_max = s->memory_used_mib = s->memory_total_mib = NAN;
        s->power_w = s->temperature_max_c = NAN;
        double t, v = value_of(item, &t);
        s->gpu_count = isnan(v) || v < 0 ? 0 : (unsigned)v;
        const char *host = json_string_value(json_object_get(metric, "hostname"));
        str_copy(s->hostname, sizeof s->hostname, host != NULL ? host : "");
        n->state = NODE_OK;
        n->has_data = true;
        n->data_time = t;
    }
    qsort(found, found_count, sizeof *found, node_by_address);
    for (int f = F_GPUS + 1; f < F_COUNT; f++) {
        for (size_t i = 0; i < json_array_size(results[f]); i++) {
            apply((enum field)f, json_array_get(results[f], i), found, found_count);
        }
    }
    size_t target_count;
    struct target *targets = read_targets(tdata, &target_count);
    size_t cap = 0, s = 0, t = 0;
    /* Merge the two sorted lists: a node with data keeps it (stale when its target is down);
     * a target without data is listed when it is down (Prometheus's reason) or belongs to a job
     * of nvitop exporters. */
    while (s < found_count || t < target_count) {
        int cmp = s >= found_count    ? 1
                  : t >= target_count ? -1
                                      : strcmp(found[s].address, targets[t].instance);
        if (cmp <= 0) {
            struct node *n = add_node(nodes, count, &cap, found[s].address);
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
        if (up && !job_has_metrics(results[F_GPUS], tg->job)) {
            continue; /* another exporter (Prometheus itself, node_exporter, ...) */
        }
        struct node *n = add_node(nodes, count, &cap, tg->instance);
        n->state = up ? NODE_BAD_DATA : NODE_DOWN;
        str_copy(n->reason, sizeof n->reason,
                 up ? "no nvitop-exporter metrics in Prometheus for this target"
                 : tg->error != NULL && tg->error[0] != '\0' ? tg->error
                                                             : tg->health);
    }
    free(found);
    free(targets);
    for (int f = 0; f <= F_COUNT; f++) {
        json_decref(roots[f]);
    }
    return true;
}
