/* The cluster table's text (table.h). */
#include "cluster/table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

void table_widths(const struct node *nodes, size_t count, struct table_widths *out) {
    out->node = 4;
    out->host = 4;
    for (size_t i = 0; i < count; i++) {
        int a = (int)strlen(nodes[i].address), h = (int)strlen(nodes[i].summary.hostname);
        out->node = a > out->node ? a : out->node;
        out->host = h > out->host ? h : out->host;
    }
}

void table_header(char *buf, size_t size, const struct table_widths *w) {
    snprintf(buf, size, "%-*s  %-*s  %4s %3s %5s %5s %21s %6s %5s %5s %4s  %s", w->node, "NODE",
             w->host, "HOST", "GPUS", "MIG", "UTIL", "MAX", "MEMORY USED / TOTAL", "POWER", "TEMP",
             "PROCS", "AGE", "TOP USERS (GPU MEMORY)");
}

void table_problem(char *buf, size_t size, const struct node *n) {
    if (n->state == NODE_OK) {
        buf[0] = '\0';
    } else if (n->state == NODE_PENDING) {
        snprintf(buf, size, "pending: waiting for the first answer");
    } else {
        snprintf(buf, size, "%s: %s", node_state_name(n->state), n->reason);
    }
}

void table_row(char *buf, size_t size, const struct node *n, const struct table_widths *w,
               double now) {
    const struct node_summary *s = &n->summary;
    if (!n->has_data) {
        char problem[sizeof n->reason + 32];
        table_problem(problem, sizeof problem, n);
        snprintf(buf, size, "%-*s  %-*s  %s", w->node, n->address, w->host, "-", problem);
        return;
    }
    char age[16], util[16], max[16], used[32], total[32], mem[80], power[24], temp[16];
    char users[256];
    fmt_age(age, sizeof age, n, now);
    fmt_pct(util, sizeof util, s->util_mean);
    fmt_pct(max, sizeof max, s->util_max);
    fmt_gib(used, sizeof used, s->memory_used_mib);
    fmt_gib(total, sizeof total, s->memory_total_mib);
    snprintf(mem, sizeof mem, "%s / %s", used, total);
    fmt_unit(power, sizeof power, s->power_w, "W");
    fmt_unit(temp, sizeof temp, s->temperature_max_c, "C");
    fmt_users(users, sizeof users, s);
    snprintf(buf, size, "%-*s  %-*s  %4u %3u %5s %5s %21s %6s %5s %5u %4s  %s", w->node, n->address,
             w->host, s->hostname[0] != '\0' ? s->hostname : "-", s->gpu_count, s->mig_count, util,
             max, mem, power, temp, s->process_count, age, users);
}
