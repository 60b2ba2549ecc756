/* Summarising nvitop-exporter metrics of one node (node.h).  Series are matched by their exposed
 * names (docs/exporter.md); a MIG device's index label is "<gpu>:<mig>", which keeps MIG devices
 * out of the per-GPU figures (their memory is part of the parent's), and the process rows of a GPU
 * with MIG devices out of the process figures (they are its MIG devices' processes again). */
#include "cluster/node.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/parse/dcgm.h"
#include "util/text/str.h"
#include "util/xalloc.h"

const char *node_state_name(enum node_state state) {
    switch (state) {
    case NODE_PENDING:
        return "pending";
    case NODE_OK:
        return "ok";
    case NODE_REFUSED:
        return "refused";
    case NODE_TIMEOUT:
        return "timeout";
    case NODE_TLS_ERROR:
        return "tls error";
    case NODE_HTTP_ERROR:
        return "http error";
    case NODE_BAD_DATA:
        return "bad data";
    case NODE_ERROR:
        return "error";
    case NODE_DOWN:
        return "down";
    }
    return "?";
}

static const struct {
    enum node_flag flag;
    const char *text, *name;
} flag_names[] = {
    {NODE_FLAG_LOST, "LOST", "lost"}, {NODE_FLAG_XID, "XID", "xid"},
    {NODE_FLAG_ECC, "ECC", "ecc"},    {NODE_FLAG_THROTTLE, "THROTTLE", "throttle"},
    {NODE_FLAG_HOT, "HOT", "hot"},
};

const char *node_flag_name(enum node_flag flag) {
    for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++) {
        if (flag_names[i].flag == flag) {
            return flag_names[i].name;
        }
    }
    return "?";
}

void node_flags_text(char *buf, size_t size, const struct node_summary *s) {
    str_copy(buf, size, s->flags == 0 ? "ok" : "");
    for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++) {
        if ((s->flags & flag_names[i].flag) == 0) {
            continue;
        }
        if (buf[0] != '\0') {
            str_append(buf, size, ",");
        }
        str_append(buf, size, flag_names[i].text);
        if (flag_names[i].flag == NODE_FLAG_XID && !isnan(s->xid_last)) {
            char xid[24];
            snprintf(xid, sizeof xid, ":%.0f", s->xid_last);
            str_append(buf, size, xid);
        }
    }
}

/* The nvitop-exporter series the summary reads (dcgm-exporter's are dcgm_is_read()'s). */
#define USED(name)                                                                                 \
    { name, sizeof(name) - 1 }
static const struct {
    const char *name;
    size_t len;
} summary_series[] = {
    USED("nvitop_info"),
    USED("gpu_memory_total_MiB"),
    USED("gpu_utilization_Percentage"),
    USED("gpu_memory_used_MiB"),
    USED("gpu_power_usage_W"),
    USED("gpu_temperature_C"),
    USED("process_gpu_memory_MiB"),
    USED("nvitop_pod_gpu_memory_MiB"),
    USED("nvitop_health_flags"),
    USED("nvitop_xid_last"),
};
#undef USED
#define SUMMARY_SERIES (sizeof summary_series / sizeof summary_series[0])

bool node_summary_uses(const char *name, size_t len, const void *context) {
    (void)context;
    if (dcgm_is_read(name, len)) {
        return true;
    }
    for (size_t i = 0; i < SUMMARY_SERIES; i++) {
        if (summary_series[i].len == len && memcmp(name, summary_series[i].name, len) == 0) {
            return true;
        }
    }
    return false;
}

#define NAME_ARG "name%5B%5D=" /* "name[]=", escaped */

size_t node_summary_query(char *buf, size_t size) {
    size_t need = 0;
    for (size_t i = 0; i < SUMMARY_SERIES; i++) {
        need += (i > 0 ? 1 : 0) + strlen(NAME_ARG) + summary_series[i].len;
    }
    if (buf != NULL && size > need) {
        char *p = buf;
        for (size_t i = 0; i < SUMMARY_SERIES; i++) {
            if (i > 0) {
                *p++ = '&';
            }
            memcpy(p, NAME_ARG, strlen(NAME_ARG));
            p += strlen(NAME_ARG);
            memcpy(p, summary_series[i].name, summary_series[i].len);
            p += summary_series[i].len;
        }
        *p = '\0';
    }
    return need;
}

double node_reading(double v) {
    return isfinite(v) && v >= 0 && v <= NODE_READING_MAX ? v : NAN;
}

static double nan_max(double a, double b) {
    return isnan(a) || b > a ? b : a;
}

static double nan_add(double a, double b) {
    return isnan(a) ? b : a + b;
}

/* Add mib to user's total and the GPU (index, "<gpu>:<mig>" counted as its GPU) to its set,
 * keeping a small table (users beyond it are ignored: a node has few). */
#define USER_TABLE 64
#define USER_GPUS  256
struct user_acc {
    struct node_user user;
    unsigned char gpus[USER_GPUS / 8]; /* a bit per physical GPU index */
};

static void add_user(struct user_acc *table, size_t *count, const char *user, const char *index,
                     double mib) {
    struct user_acc *u = NULL;
    for (size_t i = 0; i < *count && u == NULL; i++) {
        if (strcmp(table[i].user.name, user) == 0) {
            u = &table[i];
        }
    }
    if (u == NULL) {
        if (*count == USER_TABLE) {
            return;
        }
        u = &table[(*count)++];
        memset(u, 0, sizeof *u);
        str_copy(u->user.name, sizeof u->user.name, user);
    }
    u->user.gpu_memory_mib += mib;
    char *end;
    unsigned long g = strtoul(index, &end, 10);
    if (end != index && g < USER_GPUS && (u->gpus[g / 8] & (1u << (g % 8))) == 0) {
        u->gpus[g / 8] |= (unsigned char)(1u << (g % 8));
        u->user.gpu_count++;
    }
}

static int by_memory_desc(const void *a, const void *b) {
    const struct node_user *x = &((const struct user_acc *)a)->user;
    const struct node_user *y = &((const struct user_acc *)b)->user;
    if (x->gpu_memory_mib != y->gpu_memory_mib) {
        return x->gpu_memory_mib < y->gpu_memory_mib ? 1 : -1;
    }
    return strcmp(x->name, y->name);
}

/* Which physical GPUs are idle: utilization under NODE_IDLE_UTIL and nothing running on them (a
 * process of ours, or a pod of dcgm-exporter's, on the GPU or one of its MIG devices).  A GPU
 * without a utilization reading (MIG enabled) is not counted idle. */
#define NODE_IDLE_UTIL 5.0
#define GPU_TABLE      256
struct gpu_use {
    unsigned long index;
    bool quiet; /* a utilization reading under NODE_IDLE_UTIL */
    bool busy;  /* something runs on it */
};

static struct gpu_use *gpu_use_of(struct gpu_use *table, size_t *count, const char *index) {
    char *end;
    unsigned long g = strtoul(index, &end, 10);
    if (end == index) {
        return NULL;
    }
    for (size_t i = 0; i < *count; i++) {
        if (table[i].index == g) {
            return &table[i];
        }
    }
    if (*count == GPU_TABLE) {
        return NULL;
    }
    table[*count] = (struct gpu_use){.index = g};
    return &table[(*count)++];
}

/* The physical GPUs of the answer that have MIG devices: the "<gpu>" of every MIG device's
 * "<gpu>:<mig>" index.  nvitop-exporter 1.7 (and ours) lists their MIG devices' processes under
 * them too; those rows are the same processes again.  At most MIG_PARENTS are kept (an answer with
 * more GPUs than that counts the rest's copies, nothing worse). */
#define MIG_PARENTS 64
struct mig_parents {
    char index[MIG_PARENTS][16];
    size_t count;
};

static void find_mig_parents(const struct prom_doc *doc, struct mig_parents *parents) {
    parents->count = 0;
    for (size_t i = 0; i < doc->sample_count; i++) {
        const struct prom_sample *s = &doc->samples[i];
        const char *index =
            strcmp(s->name, "gpu_memory_total_MiB") == 0 ? prom_label_value(doc, s, "index") : NULL;
        const char *colon = index != NULL ? strchr(index, ':') : NULL;
        size_t len = colon != NULL ? (size_t)(colon - index) : 0;
        if (len == 0 || len >= sizeof parents->index[0]) {
            continue;
        }
        bool known = false;
        for (size_t k = 0; k < parents->count && !known; k++) {
            known = strncmp(parents->index[k], index, len) == 0 && parents->index[k][len] == '\0';
        }
        if (!known && parents->count < MIG_PARENTS) {
            memcpy(parents->index[parents->count], index, len);
            parents->index[parents->count++][len] = '\0';
        }
    }
}

static bool is_mig_parent(const struct mig_parents *parents, const char *index) {
    for (size_t k = 0; k < parents->count; k++) {
        if (strcmp(parents->index[k], index) == 0) {
            return true;
        }
    }
    return false;
}

static int by_pid(const void *a, const void *b) {
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

/* The number of distinct values among n pids (sorted in place). */
static unsigned distinct_pids(unsigned long *pids, size_t n) {
    if (n == 0) {
        return 0;
    }
    qsort(pids, n, sizeof pids[0], by_pid);
    unsigned count = 1;
    for (size_t i = 1; i < n; i++) {
        count += pids[i] != pids[i - 1];
    }
    return count;
}

bool node_summarize(const struct prom_doc *doc, struct node_summary *out, char *why, size_t size) {
    memset(out, 0, sizeof *out);
    out->util_mean = out->util_max = NAN;
    out->memory_used_mib = out->memory_total_mib = NAN;
    out->power_w = out->temperature_max_c = NAN;
    out->xid_last = NAN;
    struct user_acc *users = xcalloc(USER_TABLE, sizeof *users);
    size_t user_count = 0;
    double util_sum = 0;
    unsigned util_n = 0;
    struct gpu_use gpus[GPU_TABLE];
    size_t gpu_n = 0;
    bool any = false;
    struct mig_parents parents;
    find_mig_parents(doc, &parents);
    /* The pids of the process rows; a row without a readable pid counts as one of its own. */
    unsigned long *pids = xcalloc(doc->sample_count + 1, sizeof *pids);
    size_t pid_count = 0;
    unsigned unnamed = 0;
    for (size_t i = 0; i < doc->sample_count; i++) {
        const struct prom_sample *s = &doc->samples[i];
        if (!str_starts_with(s->name, "gpu_") && !str_starts_with(s->name, "process_") &&
            !str_starts_with(s->name, "nvitop_")) {
            continue;
        }
        const char *host = out->hostname[0] == '\0' ? prom_label_value(doc, s, "hostname") : NULL;
        if (host != NULL) {
            str_copy(out->hostname, sizeof out->hostname, host);
        }
        if (strcmp(s->name, "nvitop_info") == 0) {
            const char *driver = prom_label_value(doc, s, "driver_version");
            const char *exporter = prom_label_value(doc, s, "exporter");
            str_copy(out->driver, sizeof out->driver, driver != NULL ? driver : "");
            out->dcgm = exporter != NULL && strcmp(exporter, "dcgm-exporter") == 0;
            continue;
        }
        const char *index = prom_label_value(doc, s, "index");
        if (index == NULL) {
            continue;
        }
        bool mig = strchr(index, ':') != NULL;
        double v = node_reading(s->value);
        if (strcmp(s->name, "nvitop_health_flags") == 0) {
            out->flags |= isnan(v) ? 0 : (unsigned)v & NODE_FLAG_ALL;
            continue;
        }
        if (strcmp(s->name, "nvitop_xid_last") == 0) {
            out->xid_last = v > 0 ? nan_max(out->xid_last, v) : out->xid_last;
            continue;
        }
        if (strcmp(s->name, "gpu_memory_total_MiB") == 0) {
            const char *name = prom_label_value(doc, s, "devicename");
            if (name != NULL && strcmp(name, "ERROR: GPU is Lost") == 0) {
                out->flags |= NODE_FLAG_LOST;
            }
        }
        if (strcmp(s->name, "process_gpu_memory_MiB") == 0 ||
            strcmp(s->name, "nvitop_pod_gpu_memory_MiB") == 0) {
            struct gpu_use *g = gpu_use_of(gpus, &gpu_n, index);
            if (g != NULL) {
                g->busy = true;
            }
        }
        if (strcmp(s->name, "process_gpu_memory_MiB") == 0) {
            if (!mig && is_mig_parent(&parents, index)) {
                continue; /* the same process as under its MIG device */
            }
            /* A process in a container is counted under its container, as a pod is. */
            const char *user = prom_label_value(doc, s, "container");
            if (user == NULL || user[0] == '\0') {
                user = prom_label_value(doc, s, "username");
            }
            const char *pid = prom_label_value(doc, s, "pid");
            char *end = NULL;
            unsigned long number = pid != NULL ? strtoul(pid, &end, 10) : 0;
            if (pid != NULL && pid[0] != '\0' && *end == '\0') {
                pids[pid_count++] = number;
            } else {
                unnamed++;
            }
            add_user(users, &user_count, user != NULL ? user : "N/A", index, isnan(v) ? 0 : v);
            continue;
        }
        if (strcmp(s->name, "nvitop_pod_gpu_memory_MiB") == 0) { /* a pod: a user, no process */
            const char *pod = prom_label_value(doc, s, "username");
            add_user(users, &user_count, pod != NULL ? pod : "N/A", index, isnan(v) ? 0 : v);
            continue;
        }
        if (strcmp(s->name, "gpu_memory_total_MiB") == 0) {
            any = true; /* every device has this series: count devices by it */
            if (mig) {
                out->mig_count++;
                continue;
            }
            out->gpu_count++;
        }
        if (mig || isnan(v)) {
            continue;
        }
        if (strcmp(s->name, "gpu_utilization_Percentage") == 0) {
            util_sum += v;
            util_n++;
            struct gpu_use *g = gpu_use_of(gpus, &gpu_n, index);
            if (g != NULL) {
                g->quiet = v < NODE_IDLE_UTIL;
            }
            out->util_max = nan_max(out->util_max, v);
        } else if (strcmp(s->name, "gpu_memory_used_MiB") == 0) {
            out->memory_used_mib = nan_add(out->memory_used_mib, v);
        } else if (strcmp(s->name, "gpu_memory_total_MiB") == 0) {
            out->memory_total_mib = nan_add(out->memory_total_mib, v);
        } else if (strcmp(s->name, "gpu_power_usage_W") == 0) {
            out->power_w = nan_add(out->power_w, v);
        } else if (strcmp(s->name, "gpu_temperature_C") == 0) {
            out->temperature_max_c = nan_max(out->temperature_max_c, v);
        }
    }
    out->process_count = distinct_pids(pids, pid_count) + unnamed;
    free(pids);
    if (!any) {
        free(users);
        str_copy(
            why, size,
            "no nvitop-exporter (gpu_*) or dcgm-exporter (DCGM_FI_*) GPU metrics in the answer");
        return false;
    }
    if (util_n > 0) {
        out->util_mean = util_sum / util_n;
    }
    for (size_t i = 0; i < gpu_n; i++) {
        out->idle_count += gpus[i].quiet && !gpus[i].busy;
    }
    qsort(users, user_count, sizeof users[0], by_memory_desc);
    out->user_count = user_count < NODE_USERS ? user_count : NODE_USERS;
    for (size_t i = 0; i < out->user_count; i++) {
        out->users[i] = users[i].user;
    }
    free(users);
    return true;
}

/* Parse the summary's series of body; a dcgm-exporter body's are translated into ours
 * (dcgm_translate_doc()). */
/* The summary of a parse's result (rc and err from prom_parse_only()); frees the doc. */
static bool summarize_parsed(int rc, struct prom_doc *doc, const char *parse_err,
                             struct node_summary *out, char *why, size_t size) {
    if (rc != 0) {
        /* A body cut short is said as such (its last line is not a malformed one). */
        snprintf(why, size, "%s%s",
                 str_starts_with(parse_err, "truncated") ? "" : "malformed metrics: ", parse_err);
        return false;
    }
    struct prom_doc translated;
    if (dcgm_translate_doc(doc, &translated)) {
        prom_doc_free(doc);
        *doc = translated;
    }
    bool ok = node_summarize(doc, out, why, size);
    prom_doc_free(doc);
    return ok;
}

bool node_summarize_body(const char *body, size_t len, struct node_summary *out, char *why,
                         size_t size) {
    struct prom_doc doc;
    char err[200];
    int rc = prom_parse_only(body, len, node_summary_uses, NULL, &doc, err, sizeof err);
    return summarize_parsed(rc, &doc, err, out, why, size);
}

bool node_summarize_in_place(char *text, size_t len, struct node_summary *out, char *why,
                             size_t size) {
    struct prom_doc doc;
    char err[200];
    int rc = prom_parse_only_in_place(text, len, node_summary_uses, NULL, &doc, err, sizeof err);
    return summarize_parsed(rc, &doc, err, out, why, size);
}
