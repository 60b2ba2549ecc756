/*
 * Exports: nvmlDeviceGetSamples (the driver's ring buffers of utilisation and power samples;
 * the clock types have none) and accounting (mode, pids, per-process statistics).
 *
 * The simulated driver takes a sample every SAMPLE_PERIOD_US of real time since the first init
 * and keeps the last SAMPLE_RING of them, as NVIDIA's does; a sample's value is the scenario's
 * value at the simulated time it was taken.  Timestamps are CLOCK_REALTIME microseconds, as in
 * the real driver, so clients pass the last one they saw to get only newer samples.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_state.h"
#include "model/sim_value.h"

#define SAMPLE_PERIOD_US 166667LL /* six samples a second */
#define SAMPLE_RING      120

static long long realtime_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (long long)now.tv_sec * 1000000LL + now.tv_nsec / 1000LL;
}

/* The number each sampling type records, and its unit factor (power: W to mW). */
static const struct sim_num *sampled(const struct sim_device *d, nvmlSamplingType_t type,
                                     double *scale) {
    *scale = 1.0;
    switch (type) {
    case NVML_TOTAL_POWER_SAMPLES:
        *scale = 1000.0;
        return &d->power_usage_w;
    case NVML_GPU_UTILIZATION_SAMPLES:
        return &d->util_gpu;
    case NVML_MEMORY_UTILIZATION_SAMPLES:
        return &d->util_memory;
    case NVML_ENC_UTILIZATION_SAMPLES:
        return &d->util_encoder;
    case NVML_DEC_UTILIZATION_SAMPLES:
        return &d->util_decoder;
    case NVML_PROCESSOR_CLK_SAMPLES:
        return &d->clock[NVML_CLOCK_GRAPHICS];
    case NVML_MEMORY_CLK_SAMPLES:
        return &d->clock[NVML_CLOCK_MEM];
    default:
        return NULL;
    }
}

/* Fills the samples newer than `last_seen` (oldest first, at most *count, the newest kept when
 * they do not all fit).  NULL `samples` asks how many the ring holds. */
static nvmlReturn_t fill_samples(const struct sim_query *q, const struct sim_num *num, double scale,
                                 unsigned long long last_seen, unsigned int *count,
                                 nvmlSample_t *samples) {
    long long now_us = realtime_us();
    long long start_us = now_us - (long long)llround(q->elapsed_s * 1e6);
    long long newest = (now_us - start_us) / SAMPLE_PERIOD_US;
    long long oldest = newest >= SAMPLE_RING ? newest - SAMPLE_RING + 1 : 0;
    if (samples == NULL) {
        *count = (unsigned int)(newest - oldest + 1);
        return NVML_SUCCESS;
    }
    long long first = oldest;
    while (first <= newest &&
           (unsigned long long)(start_us + first * SAMPLE_PERIOD_US) <= last_seen) {
        first++;
    }
    if (first > newest) {
        *count = 0;
        return NVML_ERROR_NOT_FOUND;
    }
    if (newest - first + 1 > (long long)*count) {
        first = newest - (long long)*count + 1;
    }
    unsigned int n = 0;
    for (long long k = first; k <= newest; k++, n++) {
        long long stamp = start_us + k * SAMPLE_PERIOD_US;
        double t = q->frozen ? q->t_s : q->t_s - (double)(now_us - stamp) / 1e6;
        samples[n].timeStamp = (unsigned long long)stamp;
        samples[n].sampleValue.uiVal =
            (unsigned int)llround(sim_value_at(num, t < 0.0 ? 0.0 : t) * scale);
    }
    *count = n;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetSamples(nvmlDevice_t device, nvmlSamplingType_t type,
                                  unsigned long long lastSeenTimeStamp,
                                  nvmlValueType_t *sampleValType, unsigned int *sampleCount,
                                  nvmlSample_t *samples) {
    struct sim_query q;
    bool valid = (unsigned int)type < NVML_SAMPLINGTYPE_COUNT && sampleValType != NULL &&
                 sampleCount != NULL;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetSamples, device, valid);
    double scale = 1.0;
    const struct sim_num *num = ret == NVML_SUCCESS ? sampled(q.device, type, &scale) : NULL;
    if (ret == NVML_SUCCESS) {
        ret = num != NULL ? num->error : NVML_ERROR_INVALID_ARGUMENT;
    }
    /* The clock types keep no samples: a real H100 on driver 580 answers NOT_FOUND for both
     * (docs/hardware.md). */
    if (ret == NVML_SUCCESS &&
        (type == NVML_PROCESSOR_CLK_SAMPLES || type == NVML_MEMORY_CLK_SAMPLES)) {
        ret = NVML_ERROR_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS && num != NULL) {
        *sampleValType = NVML_VALUE_TYPE_UNSIGNED_INT;
        ret = fill_samples(&q, num, scale, lastSeenTimeStamp, sampleCount, samples);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetAccountingMode(nvmlDevice_t device, nvmlEnableState_t *mode) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetAccountingMode, device, mode != NULL);
    unsigned int v = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(&q.device->accounting_mode, q.t_s, &v);
    }
    if (ret == NVML_SUCCESS) {
        *mode = v != 0 ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
    }
    return sim_end(&q, ret);
}

/* Accounting covers the GPU's compute processes (those of its MIG devices included) while the
 * mode is on; while it is off the driver knows no process (an empty list, NOT_FOUND for a pid:
 * what a real H100 on driver 580 answers, docs/hardware.md).  A board without accounting
 * answers NOT_SUPPORTED. */
static nvmlReturn_t accounting_on(const struct sim_query *q, bool *on) {
    unsigned int v = 0;
    nvmlReturn_t ret = sim_value_uint(&q->device->accounting_mode, q->t_s, &v);
    *on = ret == NVML_SUCCESS && v != 0;
    return ret;
}

static bool accounted(const struct sim_process *p) {
    return (p->types & (SIM_PROCESS_COMPUTE | SIM_PROCESS_MPS)) != 0;
}

nvmlReturn_t nvmlDeviceGetAccountingPids(nvmlDevice_t device, unsigned int *count,
                                         unsigned int *pids) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetAccountingPids, device, count != NULL);
    bool on = false;
    if (ret == NVML_SUCCESS) {
        ret = accounting_on(&q, &on);
    }
    if (ret == NVML_SUCCESS && on) {
        ret = q.device->processes.error;
    }
    if (ret != NVML_SUCCESS) {
        return sim_end(&q, ret);
    }
    const struct sim_process_list *list = &q.device->processes;
    unsigned int n = 0;
    for (size_t i = 0; on && i < list->count; i++) {
        n += accounted(&list->items[i]) ? 1U : 0U;
    }
    if (pids == NULL || *count < n) {
        ret = n == 0 && pids == NULL ? NVML_SUCCESS : NVML_ERROR_INSUFFICIENT_SIZE;
        *count = n;
        return sim_end(&q, ret);
    }
    n = 0;
    for (size_t i = 0; on && i < list->count; i++) {
        if (accounted(&list->items[i])) {
            pids[n++] = list->items[i].pid;
        }
    }
    *count = n;
    return sim_end(&q, NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetAccountingStats(nvmlDevice_t device, unsigned int pid,
                                          nvmlAccountingStats_t *stats) {
    struct sim_query q;
    nvmlReturn_t ret =
        sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetAccountingStats, device, stats != NULL);
    bool on = false;
    if (ret == NVML_SUCCESS) {
        ret = accounting_on(&q, &on);
    }
    if (ret == NVML_SUCCESS && !on) {
        ret = NVML_ERROR_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS) {
        ret = q.device->processes.error;
    }
    const struct sim_process *found = NULL;
    for (size_t i = 0; ret == NVML_SUCCESS && i < q.device->processes.count; i++) {
        const struct sim_process *p = &q.device->processes.items[i];
        if (p->pid == pid && accounted(p)) {
            found = p;
            break;
        }
    }
    if (ret == NVML_SUCCESS && found == NULL) {
        ret = NVML_ERROR_NOT_FOUND;
    }
    if (ret == NVML_SUCCESS) {
        unsigned int sm = 0;
        unsigned int mem = 0;
        unsigned long long used = 0;
        memset(stats, 0, sizeof(*stats));
        stats->gpuUtilization = sim_value_uint(&found->sm, q.t_s, &sm) == NVML_SUCCESS ? sm : 0;
        stats->memoryUtilization =
            sim_value_uint(&found->mem, q.t_s, &mem) == NVML_SUCCESS ? mem : 0;
        stats->maxMemoryUsage = sim_value_mib_bytes(&found->used_mib, q.t_s, &used) == NVML_SUCCESS
                                    ? used
                                    : NVML_VALUE_NOT_AVAILABLE_ULL;
        stats->startTime = (unsigned long long)(realtime_us() - llround(q.elapsed_s * 1e6));
        stats->isRunning = 1;
    }
    return sim_end(&q, ret);
}
