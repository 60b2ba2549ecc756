/* The Prometheus source (prom_api.h).  Answers are parsed with jansson; the series of each target
 * are grouped by their instance label and handed to the same summary as a /metrics body. */
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

/* The series the summary reads (node.c), in one selector. */
static const char metrics_query[] =
    "{__name__=~\"nvitop_info|gpu_utilization_Percentage|gpu_memory_used_MiB|gpu_memory_total_MiB"
    "|gpu_power_usage_W|gpu_temperature_C|process_gpu_memory_MiB\"}";

struct series {
    const char *instance;
    const char *job;
    json_t *item; /* {"metric": {...}, "value": [t, "v"]} */
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

static int by_instance(const void *a, const void *b) {
    return strcmp(((const struct series *)a)->instance, ((const struct series *)b)->instance);
}

static int target_by_instance(const void *a, const void *b) {
    return strcmp(((const struct target *)a)->instance, ((const struct target *)b)->instance);
}

/* Summarise one instance's series [first, end) into node n. */
static void summarize_group(const struct series *first, const struct series *end, struct node *n) {
    size_t count = (size_t)(end - first), label_total = 0;
    for (const struct series *s = first; s < end; s++) {
        label_total += json_object_size(json_object_get(s->item, "metric"));
    }
    struct prom_doc doc = {
        .samples = xcalloc(count, sizeof *doc.samples),
        .labels = xcalloc(label_total + 1, sizeof *doc.labels),
    };
    double newest = NAN;
    for (const struct series *s = first; s < end; s++) {
        json_t *metric = json_object_get(s->item, "metric");
        json_t *value = json_object_get(s->item, "value");
        const char *text = json_string_value(json_array_get(value, 1));
        const char *name = json_string_value(json_object_get(metric, "__name__"));
        if (name == NULL || text == NULL) {
            continue;
        }
        struct prom_sample *sample = &doc.samples[doc.sample_count++];
        sample->name = name;
        sample->label_first = doc.label_count;
        char *end_ptr;
        sample->value = strtod(text, &end_ptr); /* Prometheus writes NaN, +Inf, -Inf, numbers */
        if (*end_ptr != '\0') {
            sample->value = NAN;
        }
        const char *key;
        json_t *label;
        json_object_foreach(metric, key, label) {
            if (json_is_string(label)) {
                doc.labels[doc.label_count++] = (struct prom_label){key, json_string_value(label)};
            }
        }
        sample->label_count = doc.label_count - sample->label_first;
        double t = json_number_value(json_array_get(value, 0));
        newest = isnan(newest) || t > newest ? t : newest;
    }
    char why[200];
    if (node_summarize(&doc, &n->summary, why, sizeof why)) {
        n->state = NODE_OK;
        n->has_data = true;
        n->data_time = newest;
    } else {
        n->state = NODE_BAD_DATA;
        str_copy(n->reason, sizeof n->reason, why);
    }
    free(doc.samples);
    free(doc.labels);
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

/* The active targets, sorted by instance; NULL-safe on a malformed list (entries skipped). */
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

static bool job_has_metrics(const struct series *series, size_t count, const char *job) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(series[i].job, job) == 0) {
            return true;
        }
    }
    return false;
}

bool prom_api_read(const char *base_url, const struct fetch_options *options, struct node **nodes,
                   size_t *count, char *err, size_t errlen) {
    *nodes = NULL;
    *count = 0;
    json_t *query_root = NULL, *targets_root = NULL;
    json_t *data =
        api_get(base_url, "/api/v1/query?query=", metrics_query, options, &query_root, err, errlen);
    json_t *tdata = data != NULL ? api_get(base_url, "/api/v1/targets?state=active", NULL, options,
                                           &targets_root, err, errlen)
                                 : NULL;
    if (tdata == NULL) {
        json_decref(query_root);
        return false;
    }
    json_t *result = json_object_get(data, "result");
    size_t total = json_array_size(result), used = 0;
    struct series *series = xcalloc(total + 1, sizeof *series);
    for (size_t i = 0; i < total; i++) {
        json_t *item = json_array_get(result, i);
        json_t *metric = json_object_get(item, "metric");
        const char *instance = json_string_value(json_object_get(metric, "instance"));
        const char *job = json_string_value(json_object_get(metric, "job"));
        if (instance != NULL && job != NULL) {
            series[used++] = (struct series){instance, job, item};
        }
    }
    qsort(series, used, sizeof *series, by_instance);
    size_t target_count;
    struct target *targets = read_targets(tdata, &target_count);
    size_t cap = 0, s = 0, t = 0;
    /* Merge the two sorted lists: a target with series is summarised; one without is listed
     * when it is down (or belongs to a job of nvitop exporters) with Prometheus's reason. */
    while (s < used || t < target_count) {
        int cmp = s >= used           ? 1
                  : t >= target_count ? -1
                                      : strcmp(series[s].instance, targets[t].instance);
        if (cmp <= 0) {
            size_t end = s;
            while (end < used && strcmp(series[end].instance, series[s].instance) == 0) {
                end++;
            }
            struct node *n = add_node(nodes, count, &cap, series[s].instance);
            summarize_group(&series[s], &series[end], n);
            if (cmp == 0 && !isnan(targets[t].last_scrape)) {
                n->data_time = targets[t].last_scrape; /* the query's time is "now" */
            }
            if (cmp == 0 && strcmp(targets[t].health, "up") != 0) {
                n->state = NODE_DOWN; /* stale series of a target that just went down */
                str_copy(n->reason, sizeof n->reason,
                         targets[t].error != NULL && targets[t].error[0] != '\0'
                             ? targets[t].error
                             : targets[t].health);
            }
            s = end;
            t += cmp == 0;
            continue;
        }
        const struct target *tg = &targets[t++];
        bool up = strcmp(tg->health, "up") == 0;
        if (up && !job_has_metrics(series, used, tg->job)) {
            continue; /* another exporter (Prometheus itself, node_exporter, ...) */
        }
        struct node *n = add_node(nodes, count, &cap, tg->instance);
        n->state = up ? NODE_BAD_DATA : NODE_DOWN;
        str_copy(n->reason, sizeof n->reason,
                 up ? "no nvitop-exporter metrics in Prometheus for this target"
                 : tg->error != NULL && tg->error[0] != '\0' ? tg->error
                                                             : tg->health);
    }
    free(series);
    free(targets);
    json_decref(query_root);
    json_decref(targets_root);
    return true;
}
