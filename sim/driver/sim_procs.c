#include "driver/sim_procs.h"

#include <math.h>
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
    unsigned long long stamp =
        (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL;
    size_t needed = 0;
    for (size_t l = 0; l < s.count; l++) {
        for (size_t i = 0; i < s.lists[l]->count; i++) {
            needed += s.lists[l]->items[i].sm.error == NVML_SUCCESS ? 1 : 0;
        }
    }
    if (needed == 0 || stamp <= last_seen_us) {
        return NVML_ERROR_NOT_FOUND;
    }
    if (samples == NULL || needed > *count) {
        *count = (unsigned int)needed;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    size_t n = 0;
    for (size_t l = 0; l < s.count; l++) {
        for (size_t i = 0; i < s.lists[l]->count; i++) {
            const struct sim_process *p = &s.lists[l]->items[i];
            if (p->sm.error == NVML_SUCCESS) {
                samples[n++] = (nvmlProcessUtilizationSample_t){
                    .pid = p->pid,
                    .timeStamp = stamp,
                    .smUtil = percent(&p->sm, q->t_s),
                    .memUtil = percent(&p->mem, q->t_s),
                    .encUtil = percent(&p->enc, q->t_s),
                    .decUtil = percent(&p->dec, q->t_s),
                };
            }
        }
    }
    *count = (unsigned int)n;
    return NVML_SUCCESS;
}
