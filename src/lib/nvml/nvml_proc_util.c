/*
 * Per-process utilisation (SM, memory bandwidth, encoder, decoder) from
 * nvmlDeviceGetProcessUtilization.
 *
 * NVML returns the samples newer than the timestamp it is given.  We hand it the newest timestamp
 * seen on the device (a cursor), so each call returns only new samples and nothing is counted
 * twice.  The newest sample of each process within the last second is remembered: when the
 * cursor yields nothing (we sample faster than the driver does), the remembered ones stand in,
 * which equals nvitop's one-second look-back (where the newest sample per process wins) without a
 * second call.  Values above 100 are clamped.
 */
#include <stdlib.h>
#include <string.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/sys/clock.h"

#define LOOK_BACK_US    1000000ULL
#define LOOK_BACK_S     1.0
#define INITIAL_SAMPLES 64U
#define MAX_SAMPLES     (1U << 16)
/* Answers in a row, of every device, that must each use a quarter of the buffer or less before it
 * is cut down: several rounds of a machine's GPUs, so that the busiest GPU's answer is among them
 * and the buffer is not cut and grown again every round. */
#define SHRINK_AFTER_CALLS 64U

static uint32_t clamp_pct(unsigned int value) {
    return value > 100 ? 100 : value;
}

/* The first call names every sample the driver keeps (72 periods of every process: 2.3 MB for
 * 1,000 processes on one GPU), later ones only those since the cursor (six a second of each).
 * The buffer lives for one query; only its size is kept.  Once SHRINK_AFTER_CALLS answers in a
 * row each used a quarter of that size or less, the size is cut to twice the largest of them, so
 * that one large answer does not size every later buffer. */
static void fit_capacity(struct nvml_backend *backend, unsigned used) {
    if (backend->util_capacity <= INITIAL_SAMPLES || used > backend->util_capacity / 4) {
        backend->util_small_calls = 0;
        backend->util_small_peak = 0;
        return;
    }
    if (used > backend->util_small_peak) {
        backend->util_small_peak = used;
    }
    if (++backend->util_small_calls < SHRINK_AFTER_CALLS) {
        return;
    }
    unsigned peak = backend->util_small_peak;
    backend->util_capacity = peak < INITIAL_SAMPLES / 2 ? INITIAL_SAMPLES : 2 * peak;
    backend->util_small_calls = 0;
    backend->util_small_peak = 0;
}

/* Fetch the device's new samples into *out, a buffer the caller frees (NULL when there are
 * none).  Returns how many (0 on any driver error, which includes NOT_FOUND for "no samples"),
 * or -1 when out of memory.  A whole history too large to take (the cursor still 0) is skipped:
 * the cursor moves to a second ago by our clock, which stamps the driver's samples, as nvitop
 * asks. */
static long fetch(struct nvml_backend *backend, struct nvml_device *device,
                  nvmlProcessUtilizationSample_t **out) {
    *out = NULL;
    if (backend->util_capacity < INITIAL_SAMPLES) {
        backend->util_capacity = INITIAL_SAMPLES;
    }
    for (int attempt = 0; attempt < 3; attempt++) {
        unsigned capacity = backend->util_capacity;
        nvmlProcessUtilizationSample_t *buffer = malloc((size_t)capacity * sizeof(*buffer));
        if (buffer == NULL) {
            return -1;
        }
        unsigned int count = capacity;
        nvmlReturn_t result = NVML_QUERY(backend, nvmlDeviceGetProcessUtilization, device->handle,
                                         buffer, &count, device->util_cursor_us);
        if (result == NVML_SUCCESS) {
            unsigned fetched = count <= capacity ? count : capacity;
            fit_capacity(backend, fetched);
            if (fetched > 0) {
                *out = buffer;
            } else {
                free(buffer);
            }
            return (long)fetched;
        }
        free(buffer);
        if (result != NVML_ERROR_INSUFFICIENT_SIZE) {
            return 0;
        }
        if (count > MAX_SAMPLES) {
            if (device->util_cursor_us != 0) {
                return 0;
            }
            device->util_cursor_us = (unsigned long long)((clock_wall_s() - LOOK_BACK_S) * 1e6);
        } else {
            backend->util_capacity = 2 * count + 5;
        }
    }
    return 0;
}

/* The remembered sample of a pid, or NULL. */
static struct nvml_util_sample *recent_of(struct nvml_device *device, uint32_t pid) {
    for (size_t i = 0; i < device->util_recent_count; i++) {
        if (device->util_recent[i].pid == pid) {
            return &device->util_recent[i];
        }
    }
    return NULL;
}

/* Merge new samples into the remembered ones, keeping the newest per pid (applying older ones
 * first would only be overwritten), and drop those older than the look-back window, measured
 * from the newest sample (the driver's clock, which need not be ours). */
static bool remember(struct nvml_device *device, const nvmlProcessUtilizationSample_t *samples,
                     size_t fresh) {
    size_t capacity = device->util_recent_count + fresh;
    struct nvml_util_sample *recent = realloc(device->util_recent, capacity * sizeof(*recent));
    if (recent == NULL) {
        return false;
    }
    device->util_recent = recent;
    for (size_t i = 0; i < fresh; i++) {
        const nvmlProcessUtilizationSample_t *in = &samples[i];
        struct nvml_util_sample *sample = recent_of(device, in->pid);
        if (sample == NULL) {
            sample = &recent[device->util_recent_count++];
        } else if (sample->timestamp_us > in->timeStamp) {
            continue;
        }
        sample->pid = in->pid;
        sample->timestamp_us = in->timeStamp;
        sample->sm = clamp_pct(in->smUtil);
        sample->mem = clamp_pct(in->memUtil);
        sample->enc = clamp_pct(in->encUtil);
        sample->dec = clamp_pct(in->decUtil);
        if (in->timeStamp > device->util_cursor_us) {
            device->util_cursor_us = in->timeStamp;
        }
    }
    unsigned long long oldest =
        device->util_cursor_us > LOOK_BACK_US ? device->util_cursor_us - LOOK_BACK_US : 0;
    size_t kept = 0;
    for (size_t i = 0; i < device->util_recent_count; i++) {
        if (recent[i].timestamp_us >= oldest) {
            recent[kept++] = recent[i];
        }
    }
    device->util_recent_count = kept;
    return true;
}

static struct nvml_process *find(struct nvml_process_list *list, uint32_t pid) {
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].pid == pid) {
            return &list->items[i];
        }
    }
    return NULL;
}

nvt_status nvml_apply_process_utilization(struct nvml_backend *backend, struct nvml_device *device,
                                          struct nvml_process_list *list, bool memory_na_seen) {
    nvmlProcessUtilizationSample_t *samples = NULL;
    long fresh = fetch(backend, device, &samples);
    if (fresh < 0) {
        return NVT_ERR_NO_MEMORY;
    }
    double now = clock_monotonic_s();
    if (fresh > 0) {
        bool kept = remember(device, samples, (size_t)fresh);
        free(samples);
        if (!kept) {
            return NVT_ERR_NO_MEMORY;
        }
        device->util_recent_time = now;
    } else if (now - device->util_recent_time > LOOK_BACK_S) {
        device->util_recent_count = 0; /* nothing new for a second: the old samples expire */
    }
    /* Listed processes without a sample are idle (0 %), unless the driver hid some memory
     * figures (MIG without privileges, WDDM), where nvitop leaves them N/A. */
    uint32_t idle = memory_na_seen ? NVT_NA_U32 : 0;
    for (size_t i = 0; i < list->count; i++) {
        list->items[i].sm_util_pct = idle;
        list->items[i].memory_util_pct = idle;
        list->items[i].encoder_util_pct = idle;
        list->items[i].decoder_util_pct = idle;
    }
    for (size_t i = 0; i < device->util_recent_count; i++) {
        const struct nvml_util_sample *sample = &device->util_recent[i];
        struct nvml_process *process = find(list, sample->pid);
        if (process != NULL) {
            process->sm_util_pct = sample->sm;
            process->memory_util_pct = sample->mem;
            process->encoder_util_pct = sample->enc;
            process->decoder_util_pct = sample->dec;
        }
    }
    return NVT_OK;
}
