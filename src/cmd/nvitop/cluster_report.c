/* The cluster summary table and JSON (cluster_report.h). */
#include "cluster_report.h"

#include <math.h>
#include <string.h>

#include <nvitop/version.h>

#include "json_writer.h"
#include "util/strbuf.h"

static void fmt_pct(char *buf, size_t size, double v) {
    if (isnan(v)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.0f%%", v);
    }
}

static void fmt_gib(char *buf, size_t size, double mib) {
    if (isnan(mib)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.1fGiB", mib / 1024.0);
    }
}

static void fmt_unit(char *buf, size_t size, double v, const char *unit) {
    if (isnan(v)) {
        snprintf(buf, size, "N/A");
    } else {
        snprintf(buf, size, "%.0f%s", v, unit);
    }
}

/* "12s", "4m", "3h", "2d": the age of a node's data. */
static void fmt_age(char *buf, size_t size, const struct node *n, double now) {
    if (!n->has_data) {
        snprintf(buf, size, "-");
        return;
    }
    double age = now - n->data_time;
    age = age < 0 ? 0 : age;
    if (age < 60) {
        snprintf(buf, size, "%.0fs", floor(age));
    } else if (age < 3600) {
        snprintf(buf, size, "%.0fm", floor(age / 60));
    } else if (age < 86400) {
        snprintf(buf, size, "%.0fh", floor(age / 3600));
    } else {
        snprintf(buf, size, "%.0fd", floor(age / 86400));
    }
}

static void fmt_users(char *buf, size_t size, const struct node_summary *s) {
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < s->user_count && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s %.1fGiB", i > 0 ? ", " : "",
                         s->users[i].name, s->users[i].gpu_memory_mib / 1024.0);
        used += n > 0 ? (size_t)n : 0;
    }
    if (s->user_count == 0) {
        snprintf(buf, size, "-");
    }
}

void cluster_print_table(FILE *out, const struct node *nodes, size_t count, double now) {
    int node_w = 4, host_w = 4;
    for (size_t i = 0; i < count; i++) {
        int a = (int)strlen(nodes[i].address), h = (int)strlen(nodes[i].summary.hostname);
        node_w = a > node_w ? a : node_w;
        host_w = h > host_w ? h : host_w;
    }
    fprintf(out, "%-*s  %-*s  %4s %3s %5s %5s %21s %6s %5s %5s %4s  %s\n", node_w, "NODE", host_w,
            "HOST", "GPUS", "MIG", "UTIL", "MAX", "MEMORY USED / TOTAL", "POWER", "TEMP", "PROCS",
            "AGE", "TOP USERS (GPU MEMORY)");
    for (size_t i = 0; i < count; i++) {
        const struct node *n = &nodes[i];
        const struct node_summary *s = &n->summary;
        char age[16];
        fmt_age(age, sizeof age, n, now);
        if (!n->has_data) {
            fprintf(out, "%-*s  %-*s  %s: %s\n", node_w, n->address, host_w, "-",
                    node_state_name(n->state), n->reason);
            continue;
        }
        char util[16], max[16], used[32], total[32], mem[80], power[24], temp[16], users[256];
        fmt_pct(util, sizeof util, s->util_mean);
        fmt_pct(max, sizeof max, s->util_max);
        fmt_gib(used, sizeof used, s->memory_used_mib);
        fmt_gib(total, sizeof total, s->memory_total_mib);
        snprintf(mem, sizeof mem, "%s / %s", used, total);
        fmt_unit(power, sizeof power, s->power_w, "W");
        fmt_unit(temp, sizeof temp, s->temperature_max_c, "C");
        fmt_users(users, sizeof users, s);
        fprintf(out, "%-*s  %-*s  %4u %3u %5s %5s %21s %6s %5s %5u %4s  %s\n", node_w, n->address,
                host_w, s->hostname[0] != '\0' ? s->hostname : "-", s->gpu_count, s->mig_count,
                util, max, mem, power, temp, s->process_count, age, users);
        if (n->state != NODE_OK) { /* stale data: say why it is not fresh */
            fprintf(out, "%-*s  %-*s  %s: %s\n", node_w, "", host_w, "", node_state_name(n->state),
                    n->reason);
        }
    }
}

static void number(struct json_writer *w, const char *key, double v) {
    json_key(w, key);
    json_double(w, v);
}

static void node_object(struct json_writer *w, const struct node *n, double now) {
    const struct node_summary *s = &n->summary;
    json_begin_object(w);
    json_key(w, "address");
    json_string(w, n->address);
    json_key(w, "state");
    json_string(w, node_state_name(n->state));
    json_key(w, "reason");
    json_string(w, n->state == NODE_OK ? NULL : n->reason);
    json_key(w, "http_status");
    if (n->http_status > 0) {
        json_i64(w, n->http_status);
    } else {
        json_null(w);
    }
    number(w, "age_s", n->has_data ? (now > n->data_time ? now - n->data_time : 0) : NAN);
    json_key(w, "summary");
    if (!n->has_data) {
        json_null(w);
        json_end_object(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "hostname");
    json_string(w, s->hostname[0] != '\0' ? s->hostname : NULL);
    json_key(w, "driver_version");
    json_string(w, s->driver[0] != '\0' ? s->driver : NULL);
    json_key(w, "gpu_count");
    json_u64(w, s->gpu_count);
    json_key(w, "mig_count");
    json_u64(w, s->mig_count);
    number(w, "utilization_mean_pct", s->util_mean);
    number(w, "utilization_max_pct", s->util_max);
    number(w, "memory_used_mib", s->memory_used_mib);
    number(w, "memory_total_mib", s->memory_total_mib);
    number(w, "power_w", s->power_w);
    number(w, "temperature_max_c", s->temperature_max_c);
    json_key(w, "process_count");
    json_u64(w, s->process_count);
    json_key(w, "top_users");
    json_begin_array(w);
    for (size_t i = 0; i < s->user_count; i++) {
        json_begin_object(w);
        json_key(w, "username");
        json_string(w, s->users[i].name);
        number(w, "gpu_memory_mib", s->users[i].gpu_memory_mib);
        json_end_object(w);
    }
    json_end_array(w);
    json_end_object(w);
    json_end_object(w);
}

bool cluster_print_json(FILE *out, const struct node *nodes, size_t count, double now,
                        const struct cluster_source_info *source) {
    struct strbuf text = STRBUF_INIT;
    struct json_writer w;
    json_init(&w, &text);
    json_begin_object(&w);
    json_key(&w, "schema");
    json_string(&w, "nvitop-cluster");
    json_key(&w, "schema_version");
    json_u64(&w, CLUSTER_JSON_SCHEMA_VERSION);
    json_key(&w, "generator");
    json_string(&w, "nvitop " NVT_VERSION_STRING);
    number(&w, "timestamp", now);
    json_key(&w, "source");
    json_begin_object(&w);
    json_key(&w, "kind");
    json_string(&w, source->kind);
    json_key(&w, "url");
    json_string(&w, source->url);
    json_end_object(&w);
    json_key(&w, "nodes");
    json_begin_array(&w);
    for (size_t i = 0; i < count; i++) {
        node_object(&w, &nodes[i], now);
    }
    json_end_array(&w);
    json_end_object(&w);
    bool ok = w.ok && strbuf_append_char(&text, '\n') &&
              fwrite(strbuf_cstr(&text), 1, text.len, out) == text.len && fflush(out) == 0;
    strbuf_fini(&text);
    return ok;
}
