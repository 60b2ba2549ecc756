#include "collector/collector_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>
#include <nvitop/process.h>

#define MiB             1048576.0
#define GiB             1073741824.0
#define INITIAL_METRICS 256

nvt_status sampler_init(struct sampler *sampler, const struct sampler_device *devices,
                        size_t device_count, const uint32_t *roots, size_t root_count,
                        bool no_processes) {
    memset(sampler, 0, sizeof(*sampler));
    sampler->no_processes = no_processes;
    sampler->devices = malloc((device_count > 0 ? device_count : 1) * sizeof(*devices));
    if (sampler->devices == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    if (device_count > 0) {
        memcpy(sampler->devices, devices, device_count * sizeof(*devices));
    }
    sampler->device_count = device_count;
    return lineage_init(&sampler->lineage, roots, root_count);
}

void sampler_fini(struct sampler *sampler) {
    free(sampler->devices);
    lineage_fini(&sampler->lineage);
    free(sampler->text);
    free(sampler->offsets);
    free(sampler->values);
    free(sampler->keys);
    free(sampler->idents);
    memset(sampler, 0, sizeof(*sampler));
}

unsigned sampler_flags(const struct sampler *sampler) {
    unsigned flags = NVT_SAMPLE_DEVICES | NVT_SAMPLE_HOST;
    if (!sampler->no_processes) {
        flags |= NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
    }
    return flags;
}

/* ---- building the sample ---------------------------------------------------------------- */

static bool grow(void **array, size_t elem, size_t capacity) {
    void *bigger = realloc(*array, capacity * elem);
    if (bigger == NULL) {
        return false;
    }
    *array = bigger;
    return true;
}

static bool reserve_metrics(struct sampler *s) {
    if (s->count < s->capacity) {
        return true;
    }
    size_t capacity = s->capacity > 0 ? s->capacity * 2 : INITIAL_METRICS;
    if (!grow((void **)&s->offsets, sizeof(*s->offsets), capacity) ||
        !grow((void **)&s->values, sizeof(*s->values), capacity) ||
        !grow((void **)&s->keys, sizeof(*s->keys), capacity)) {
        return false;
    }
    s->capacity = capacity;
    return true;
}

/* Append one metric: the key is "<scope>/<name>". */
static bool add(struct sampler *s, const char *scope, const char *name, double value) {
    if (!reserve_metrics(s)) {
        return false;
    }
    size_t scope_len = strlen(scope);
    size_t name_len = strlen(name);
    size_t need = scope_len + 1 + name_len + 1;
    if (s->text_cap - s->text_len < need) {
        size_t capacity = s->text_cap > 0 ? s->text_cap : 8192;
        while (capacity - s->text_len < need) {
            capacity *= 2;
        }
        if (!grow((void **)&s->text, 1, capacity)) {
            return false;
        }
        s->text_cap = capacity;
    }
    char *key = s->text + s->text_len;
    memcpy(key, scope, scope_len);
    key[scope_len] = '/';
    memcpy(key + scope_len + 1, name, name_len + 1);
    s->offsets[s->count] = s->text_len;
    s->values[s->count] = value;
    s->text_len += need;
    s->count++;
    return true;
}

static double u64_or_nan(uint64_t value, double divisor) {
    return nvt_is_na_u64(value) ? NAN : (double)value / divisor;
}

static double u32_or_nan(uint32_t value, double divisor) {
    return nvt_is_na_u32(value) ? NAN : (double)value / divisor;
}

static double percent_of(uint64_t part, uint64_t whole) {
    if (nvt_is_na_u64(part) || nvt_is_na_u64(whole) || whole == 0) {
        return NAN;
    }
    return nvt_round_half_even_digits(100.0 * (double)part / (double)whole, 1);
}

static bool add_host(struct sampler *s, const struct nvt_host_state *host) {
    bool ok = add(s, "host", "cpu_percent (%)", host->cpu_percent) &&
              add(s, "host", "memory_percent (%)", host->memory_percent) &&
              add(s, "host", "swap_percent (%)", host->swap_percent) &&
              add(s, "host", "memory_used (GiB)", u64_or_nan(host->memory_used_bytes, GiB));
    if (ok && !isnan(host->load_1m)) { /* nvitop leaves the load keys out where there is none */
        ok = add(s, "host", "load_average (%) (1 min)", host->load_1m) &&
             add(s, "host", "load_average (%) (5 min)", host->load_5m) &&
             add(s, "host", "load_average (%) (15 min)", host->load_15m);
    }
    return ok;
}

static bool add_device(struct sampler *s, const char *ident, const struct nvt_device_state *d) {
    return add(s, ident, "memory_used (MiB)", u64_or_nan(d->memory_used_bytes, MiB)) &&
           add(s, ident, "memory_free (MiB)", u64_or_nan(d->memory_free_bytes, MiB)) &&
           add(s, ident, "memory_total (MiB)", u64_or_nan(d->memory_total_bytes, MiB)) &&
           add(s, ident, "memory_percent (%)",
               percent_of(d->memory_used_bytes, d->memory_total_bytes)) &&
           add(s, ident, "gpu_utilization (%)", u32_or_nan(d->gpu_util_pct, 1.0)) &&
           add(s, ident, "memory_utilization (%)", u32_or_nan(d->memory_bandwidth_util_pct, 1.0)) &&
           add(s, ident, "fan_speed (%)", u32_or_nan(d->fan_speed_pct, 1.0)) &&
           add(s, ident, "temperature (C)", u32_or_nan(d->temperature_c, 1.0)) &&
           add(s, ident, "power_usage (W)", u32_or_nan(d->power_usage_mw, 1000.0));
}

static bool add_process(struct sampler *s, const struct nvt_gpu_process *p, const char *ident,
                        uint64_t device_total, bool with_host) {
    char scope[96];
    const struct nvt_host_process *h = &p->host;
    bool ok = true;
    if (with_host) {
        snprintf(scope, sizeof(scope), "pid:%u/host", p->pid);
        ok = add(s, scope, "cpu_percent (%)", h->cpu_percent) &&
             add(s, scope, "host_memory (MiB)", u64_or_nan(h->rss_bytes, MiB)) &&
             add(s, scope, "host_memory_percent (%)", h->memory_percent) &&
             add(s, scope, "running_time (min)", h->running_time_s / 60.0);
    }
    snprintf(scope, sizeof(scope), "pid:%u/%s", p->pid, ident);
    return ok && add(s, scope, "gpu_memory (MiB)", u64_or_nan(p->gpu_memory_bytes, MiB)) &&
           add(s, scope, "gpu_memory_percent (%)", percent_of(p->gpu_memory_bytes, device_total)) &&
           add(s, scope, "gpu_memory_utilization (%)", u32_or_nan(p->memory_util_pct, 1.0)) &&
           add(s, scope, "gpu_sm_utilization (%)", u32_or_nan(p->sm_util_pct, 1.0));
}

/* ---- which snapshot slots are followed, and their names -------------------------------- */

static void mig_name(char *buf, size_t size, const struct nvt_device_info *info) {
    snprintf(buf, size, "gpu:(%u, %u)", info->index, info->mig_index);
}

static bool name_slots(struct sampler *s, const struct nvt_snapshot *snap) {
    if (snap->device_count > s->ident_cap) {
        if (!grow((void **)&s->idents, sizeof(*s->idents), snap->device_count)) {
            return false;
        }
        s->ident_cap = snap->device_count;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        s->idents[slot][0] = '\0';
    }
    for (size_t k = 0; k < s->device_count; k++) {
        const struct sampler_device *want = &s->devices[k];
        for (size_t slot = 0; slot < snap->device_count; slot++) {
            const struct nvt_device_info *info = &snap->devices[slot].info;
            bool match = info->index == want->index &&
                         (nvt_is_na_u32(want->mig_index)
                              ? !info->is_mig
                              : info->is_mig && info->mig_index == want->mig_index);
            if (!match) {
                continue;
            }
            char base[32];
            if (info->is_mig) {
                mig_name(base, sizeof(base), info);
            } else {
                snprintf(base, sizeof(base), "gpu:%u", info->index);
            }
            if (nvt_is_na_u32(want->cuda_index)) {
                snprintf(s->idents[slot], sizeof(s->idents[slot]), "%s", base);
            } else {
                snprintf(s->idents[slot], sizeof(s->idents[slot]), "cuda:%u (%s)", want->cuda_index,
                         base);
            }
            /* A followed GPU brings its MIG devices, under their own names. */
            const struct nvt_device_snapshot *d = &snap->devices[slot];
            for (size_t c = 0; c < d->child_count; c++) {
                size_t child = d->first_child + c;
                if (child < snap->device_count) {
                    mig_name(s->idents[child], sizeof(s->idents[child]),
                             &snap->devices[child].info);
                }
            }
        }
    }
    return true;
}

/* ---- the whole sample ------------------------------------------------------------------ */

static bool pid_listed_before(const struct nvt_snapshot *snap, const bool *followed, size_t i) {
    for (size_t k = 0; k < i; k++) {
        if (followed[k] && snap->processes[k].pid == snap->processes[i].pid) {
            return true;
        }
    }
    return false;
}

static nvt_status add_processes(struct sampler *s, nvt_context *ctx,
                                const struct nvt_snapshot *snap) {
    if (s->no_processes || snap->process_count == 0) {
        return NVT_OK;
    }
    bool *followed = calloc(snap->process_count, sizeof(*followed));
    if (followed == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    nvt_status st = lineage_classify(&s->lineage, ctx, snap, followed);
    for (size_t i = 0; i < snap->process_count && st == NVT_OK; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        if (!followed[i] || p->device >= snap->device_count || s->idents[p->device][0] == '\0') {
            followed[i] = false;
            continue;
        }
        bool with_host = !pid_listed_before(snap, followed, i);
        uint64_t total = snap->devices[p->device].state.memory_total_bytes;
        if (!add_process(s, p, s->idents[p->device], total, with_host)) {
            st = NVT_ERR_NO_MEMORY;
        }
    }
    free(followed);
    return st;
}

nvt_status sampler_build(struct sampler *s, nvt_context *ctx, const struct nvt_snapshot *snap,
                         struct metric_sample_view *view) {
    s->count = 0;
    s->text_len = 0;
    *view = (struct metric_sample_view){0};
    if (!name_slots(s, snap) || !add_host(s, &snap->host)) {
        return NVT_ERR_NO_MEMORY;
    }
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        if (s->idents[slot][0] != '\0' &&
            !add_device(s, s->idents[slot], &snap->devices[slot].state)) {
            return NVT_ERR_NO_MEMORY;
        }
    }
    nvt_status st = add_processes(s, ctx, snap);
    if (st != NVT_OK) {
        return st;
    }
    /* Only now are the text's addresses final. */
    for (size_t i = 0; i < s->count; i++) {
        s->keys[i] = s->text + s->offsets[i];
    }
    *view = (struct metric_sample_view){.keys = s->keys, .values = s->values, .count = s->count};
    return NVT_OK;
}
