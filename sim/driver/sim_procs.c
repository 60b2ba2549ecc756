#include "driver/sim_procs.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "model/sim_value.h"

/* The process lists a query covers: a MIG device's own, or a GPU's and all its MIG devices'. */
struct sources {
    size_t count;
    const struct sim_process_list *lists[1 + SIM_MAX_MIG_SLOTS];
};

static nvmlReturn_t gather(const struct sim_query *q, struct sources *s) {
    s->count = 0;
    if (q->mig != NULL) {
        s->lists[s->count++] = &q->mig->processes;
        return q->mig->processes.error;
    }
    s->lists[s->count++] = &q->device->processes;
    for (size_t k = 0; k < SIM_MAX_MIG_SLOTS; k++) {
        if (q->device->mig[k].present) {
            s->lists[s->count++] = &q->device->mig[k].processes;
        }
    }
    return q->device->processes.error;
}

static unsigned long long used_bytes(const struct sim_process *p, double t_s) {
    unsigned long long bytes = 0;
    if (sim_value_mib_bytes(&p->used_mib, t_s, &bytes) != NVML_SUCCESS) {
        return NVML_VALUE_NOT_AVAILABLE_ULL;
    }
    return bytes;
}

static void put(const struct sim_process *p, double t_s, enum sim_layout layout, void *buf,
                size_t i) {
    unsigned long long used = used_bytes(p, t_s);
    switch (layout) {
    case SIM_LAYOUT_V1:
        ((nvmlProcessInfo_v1_t *)buf)[i] = (nvmlProcessInfo_v1_t){p->pid, used};
        break;
    case SIM_LAYOUT_V2:
        ((nvmlProcessInfo_v2_t *)buf)[i] =
            (nvmlProcessInfo_v2_t){p->pid, used, p->gpu_instance_id, p->compute_instance_id};
        break;
    case SIM_LAYOUT_V3:
        ((nvmlProcessInfo_v3_t *)buf)[i] =
            (nvmlProcessInfo_v3_t){p->pid, used, p->gpu_instance_id, p->compute_instance_id, 0};
        break;
    default:
        ((nvmlProcessDetail_v1_t *)buf)[i] =
            (nvmlProcessDetail_v1_t){p->pid, used, p->gpu_instance_id, p->compute_instance_id, 0};
        break;
    }
}

nvmlReturn_t sim_procs_list(const struct sim_query *q, unsigned int types, enum sim_layout layout,
                            unsigned int *count, void *buf) {
    struct sources s;
    nvmlReturn_t ret = gather(q, &s);
    if (ret != NVML_SUCCESS) {
        return ret;
    }
    size_t needed = 0;
    for (size_t l = 0; l < s.count; l++) {
        for (size_t i = 0; i < s.lists[l]->count; i++) {
            needed += (s.lists[l]->items[i].types & types) != 0 ? 1 : 0;
        }
    }
    /* A size call (count 0) does not see the processes that start before the fill call. */
    size_t race = q->mig == NULL ? q->device->processes.race : 0;
    size_t visible = needed;
    if (*count == 0) {
        visible = race < needed ? needed - race : 0;
    }
    if (*count == 0 && visible == 0) {
        return NVML_SUCCESS;
    }
    if (visible > *count) {
        *count = (unsigned int)visible;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (needed > *count) {
        *count = (unsigned int)needed;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (buf == NULL && needed > 0) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    size_t n = 0;
    for (size_t l = 0; l < s.count; l++) {
        for (size_t i = 0; i < s.lists[l]->count; i++) {
            const struct sim_process *p = &s.lists[l]->items[i];
            if ((p->types & types) != 0) {
                put(p, q->t_s, layout, buf, n++);
            }
        }
    }
    *count = (unsigned int)n;
    return NVML_SUCCESS;
}

static unsigned int percent(const struct sim_num *num, double t_s) {
    unsigned int v = 0;
    sim_value_uint(num, t_s, &v);
    return v;
}

/* The driver samples each process six times a second and keeps the last PROC_SAMPLE_RING
 * periods: a size query names every sample since the time stamp given, not every process (a real
 * H100 on driver 580 counted 72 for its one process, docs/hardware.md). */
#define PROC_SAMPLE_PERIOD_US 166667ULL
#define PROC_SAMPLE_RING      72ULL

nvmlReturn_t sim_procs_utilization(const struct sim_query *q,
                                   nvmlProcessUtilizationSample_t *samples, unsigned int *count,
                                   unsigned long long last_seen_us) {
    struct sources s;
    gather(q, &s);
    nvmlReturn_t ret =
        q->mig != NULL ? NVML_ERROR_NOT_SUPPORTED : q->device->processes.utilization_error;
    if (ret != NVML_SUCCESS) {
        return ret;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long long now_us =
        (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL;
    unsigned long long since_init_us =
        q->elapsed_s > 0.0 ? (unsigned long long)llround(q->elapsed_s * 1e6) : 0ULL;
    unsigned long long start_us = now_us > since_init_us ? now_us - since_init_us : 0ULL;
    /* Periods first..newest, stamped with their start: those after last_seen_us. */
    unsigned long long newest = since_init_us / PROC_SAMPLE_PERIOD_US;
    unsigned long long first = newest >= PROC_SAMPLE_RING ? newest - PROC_SAMPLE_RING + 1 : 0;
    unsigned long long newest_us = start_us + newest * PROC_SAMPLE_PERIOD_US;
    if (last_seen_us >= newest_us) {
        return NVML_ERROR_NOT_FOUND;
    }
    if (last_seen_us >= start_us + first * PROC_SAMPLE_PERIOD_US) {
        first = (last_seen_us - start_us) / PROC_SAMPLE_PERIOD_US + 1;
    }
    size_t procs = 0;
    for (size_t l = 0; l < s.count; l++) {
        for (size_t i = 0; i < s.lists[l]->count; i++) {
            procs += s.lists[l]->items[i].sm.error == NVML_SUCCESS ? 1 : 0;
        }
    }
    size_t needed = procs * (size_t)(newest - first + 1);
    if (needed == 0) {
        return NVML_ERROR_NOT_FOUND;
    }
    if (samples == NULL || needed > *count) {
        *count = needed > UINT32_MAX ? UINT32_MAX : (unsigned int)needed;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    size_t n = 0;
    for (unsigned long long k = first; k <= newest; k++) {
        unsigned long long stamp = start_us + k * PROC_SAMPLE_PERIOD_US;
        double t = q->frozen ? q->t_s : q->t_s - (double)(now_us - stamp) / 1e6;
        t = t < 0.0 ? 0.0 : t;
        for (size_t l = 0; l < s.count; l++) {
            for (size_t i = 0; i < s.lists[l]->count; i++) {
                const struct sim_process *p = &s.lists[l]->items[i];
                if (p->sm.error == NVML_SUCCESS) {
                    samples[n++] = (nvmlProcessUtilizationSample_t){
                        .pid = p->pid,
                        .timeStamp = stamp,
                        .smUtil = percent(&p->sm, t),
                        .memUtil = percent(&p->mem, t),
                        .encUtil = percent(&p->enc, t),
                        .decUtil = percent(&p->dec, t),
                    };
                }
            }
        }
    }
    *count = (unsigned int)n;
    return NVML_SUCCESS;
}
