/* Summarising nvitop-exporter metrics of one node (node.h).  Series are matched by their exposed
 * names (docs/exporter.md); a MIG device's index label is "<gpu>:<mig>", which keeps MIG devices
 * out of the per-GPU figures (their memory is part of the parent's), and the process rows of a GPU
 * with MIG devices out of the process figures (they are its MIG devices' processes again). */
#include "cluster/node.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

bool node_summary_uses(const char *name, size_t len, const void *context) {
    (void)context;
#define USED(name)                                                                                 \
    { name, sizeof(name) - 1 }
    static const struct {
        const char *name;
        size_t len;
    } used[] = {
        USED("nvitop_info"),
        USED("gpu_memory_total_MiB"),
        USED("gpu_utilization_Percentage"),
        USED("gpu_memory_used_MiB"),
        USED("gpu_power_usage_W"),
        USED("gpu_temperature_C"),
        USED("process_gpu_memory_MiB"),
    };
#undef USED
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++) {
        if (used[i].len == len && memcmp(name, used[i].name, len) == 0) {
            return true;
        }
    }
    return false;
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

/* Add mib to user's total, keeping a small table (users beyond it are ignored: the top few of a
 * node's users are what is shown, and a node has few). */
#define USER_TABLE 64
static void add_user(struct node_user *table, size_t *count, const char *user, double mib) {
    for (size_t i = 0; i < *count; i++) {
        if (strcmp(table[i].name, user) == 0) {
            table[i].gpu_memory_mib += mib;
            return;
        }
    }
    if (*count < USER_TABLE) {
        str_copy(table[*count].name, sizeof table[*count].name, user);
        table[(*count)++].gpu_memory_mib = mib;
    }
}

static int by_memory_desc(const void *a, const void *b) {
    const struct node_user *x = a, *y = b;
    if (x->gpu_memory_mib != y->gpu_memory_mib) {
        return x->gpu_memory_mib < y->gpu_memory_mib ? 1 : -1;
    }
    return strcmp(x->name, y->name);
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
    struct node_user users[USER_TABLE];
    size_t user_count = 0;
    double util_sum = 0;
    unsigned util_n = 0;
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
            strcmp(s->name, "nvitop_info") != 0) {
            continue;
        }
        const char *host = prom_label_value(doc, s, "hostname");
        if (host != NULL && out->hostname[0] == '\0') {
            str_copy(out->hostname, sizeof out->hostname, host);
        }
        if (strcmp(s->name, "nvitop_info") == 0) {
            const char *driver = prom_label_value(doc, s, "driver_version");
            str_copy(out->driver, sizeof out->driver, driver != NULL ? driver : "");
            continue;
        }
        const char *index = prom_label_value(doc, s, "index");
        if (index == NULL) {
            continue;
        }
        bool mig = strchr(index, ':') != NULL;
        double v = node_reading(s->value);
        if (strcmp(s->name, "process_gpu_memory_MiB") == 0) {
            if (!mig && is_mig_parent(&parents, index)) {
                continue; /* the same process as under its MIG device */
            }
            const char *user = prom_label_value(doc, s, "username");
            const char *pid = prom_label_value(doc, s, "pid");
            char *end = NULL;
            unsigned long number = pid != NULL ? strtoul(pid, &end, 10) : 0;
            if (pid != NULL && pid[0] != '\0' && *end == '\0') {
                pids[pid_count++] = number;
            } else {
                unnamed++;
            }
            add_user(users, &user_count, user != NULL ? user : "N/A", isnan(v) ? 0 : v);
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
        str_copy(why, size, "no nvitop-exporter GPU metrics (gpu_memory_total_MiB) in the answer");
        return false;
    }
    if (util_n > 0) {
        out->util_mean = util_sum / util_n;
    }
    qsort(users, user_count, sizeof users[0], by_memory_desc);
    out->user_count = user_count < NODE_TOP_USERS ? user_count : NODE_TOP_USERS;
    memcpy(out->users, users, out->user_count * sizeof users[0]);
    return true;
}
