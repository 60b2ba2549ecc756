/*
 * nvt_select_devices: nvitop's select_devices (docs/nvitop-behaviour.md §4.3) as a pure function
 * over a snapshot.
 *
 * Values are compared as nvitop compares its snapshot values: an N/A number is greater than every
 * number (it passes a minimum, fails a maximum), arithmetic with N/A gives NaN, and NaN fails every
 * comparison.  Here N/A is +infinity and NaN is NaN, which gives exactly those results with IEEE
 * comparisons; when sorting, both count as NaN (nvitop's key uses math.isnan, true for both).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/select.h>

#include "abi.h"

struct candidate {
    size_t slot;
    size_t order; /* position among the candidates, for a stable sort */
    unsigned loosened;
    double free;
    double used;
    double total;
    double gpu_util;
    double memory_util;
    uint32_t physical_index;
    bool is_mig;
};

static double from_u64(uint64_t value) {
    return value == NVT_NA_U64 ? INFINITY : (double)value;
}

static double from_u32(uint32_t value) {
    return value == NVT_NA_U32 ? INFINITY : (double)value;
}

static bool is_free_account(const struct nvt_select_criteria *criteria, const char *user) {
    if (user == NULL || user[0] == '\0') {
        return false;
    }
    for (size_t i = 0; i < criteria->free_account_count; i++) {
        if (criteria->free_accounts[i] != NULL && strcmp(criteria->free_accounts[i], user) == 0) {
            return true;
        }
    }
    return false;
}

/* GPU memory of the device's processes owned by free accounts (NaN when one of them is N/A). */
static double free_account_memory(const struct nvt_snapshot *snap, size_t slot,
                                  const struct nvt_select_criteria *criteria) {
    double sum = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *process = &snap->processes[i];
        if (process->device != slot || !is_free_account(criteria, process->host.user)) {
            continue;
        }
        sum += process->gpu_memory_bytes == NVT_NA_U64 ? NAN : (double)process->gpu_memory_bytes;
    }
    return sum;
}

static void load(const struct nvt_snapshot *snap, size_t slot, size_t order,
                 const struct nvt_select_criteria *criteria, struct candidate *out) {
    const struct nvt_device_snapshot *device = &snap->devices[slot];
    memset(out, 0, sizeof(*out));
    out->slot = slot;
    out->order = order;
    out->free = from_u64(device->state.memory_free_bytes);
    out->used = from_u64(device->state.memory_used_bytes);
    out->total = from_u64(device->state.memory_total_bytes);
    out->gpu_util = from_u32(device->state.gpu_util_pct);
    out->memory_util = from_u32(device->state.memory_bandwidth_util_pct);
    out->physical_index = device->info.index;
    out->is_mig = device->info.is_mig;
    if (criteria->free_account_count > 0) {
        double extra = free_account_memory(snap, slot, criteria);
        out->free = isinf(out->free) ? NAN : out->free + extra;
        out->used = isinf(out->used) ? NAN : out->used - extra;
    }
}

/* One constraint: kept when it passes the loosened bound; counted when it fails the strict one. */
static bool check_min(struct candidate *c, double value, uint64_t bound, double tolerance) {
    if (bound == NVT_NA_U64) {
        return true;
    }
    c->loosened += !(value >= (double)bound);
    return value >= (double)bound * (1.0 - tolerance);
}

static bool check_max(struct candidate *c, double value, uint32_t bound, double tolerance) {
    if (bound == NVT_NA_U32) {
        return true;
    }
    c->loosened += !(value <= (double)bound);
    return value <= (double)bound + 100.0 * tolerance;
}

static bool passes(struct candidate *c, const struct nvt_select_criteria *criteria) {
    double t = criteria->tolerance_pct / 100.0;
    /* In nvitop's order: a device dropped by one filter never reaches the next. */
    return check_min(c, c->free, criteria->min_free_memory_bytes, t) &&
           check_min(c, c->total, criteria->min_total_memory_bytes, t) &&
           check_max(c, c->gpu_util, criteria->max_gpu_util_pct, t) &&
           check_max(c, c->memory_util, criteria->max_memory_util_pct, t);
}

/* Compare (not missing, key) pairs: missing first, then by key ascending. */
static int compare_key(double a, double b) {
    bool a_known = isfinite(a);
    bool b_known = isfinite(b);
    if (a_known != b_known) {
        return a_known ? 1 : -1;
    }
    if (!a_known) {
        return 0;
    }
    return (a > b) - (a < b);
}

static int compare_candidates(const void *pa, const void *pb) {
    const struct candidate *a = pa;
    const struct candidate *b = pb;
    int order = (a->loosened > b->loosened) - (a->loosened < b->loosened);
    if (order == 0) {
        order = compare_key(-a->free, -b->free);
    }
    if (order == 0) {
        order = compare_key(-a->used, -b->used);
    }
    if (order == 0) {
        order = compare_key(a->gpu_util, b->gpu_util);
    }
    if (order == 0) {
        order = compare_key(a->memory_util, b->memory_util);
    }
    if (order == 0) {
        order = (a->physical_index < b->physical_index) - (a->physical_index > b->physical_index);
    }
    if (order == 0) {
        order = (a->order > b->order) - (a->order < b->order);
    }
    return order;
}

/* The MIG rule: at most one MIG device, and only when it ranks first without enough others. */
static size_t apply_mig_rule(struct candidate *list, size_t count, size_t min_count,
                             bool *prefer_uuid) {
    size_t non_mig = 0;
    for (size_t i = 0; i < count; i++) {
        non_mig += !list[i].is_mig;
    }
    if (non_mig == count) {
        return count;
    }
    if ((min_count > 0 && non_mig >= min_count) || !list[0].is_mig) {
        size_t kept = 0;
        for (size_t i = 0; i < count; i++) {
            if (!list[i].is_mig) {
                list[kept++] = list[i];
            }
        }
        return kept;
    }
    *prefer_uuid = true;
    return 1; /* list[0] is the first MIG device */
}

const char *nvt_select_unmet(const struct nvt_snapshot *snap,
                             const struct nvt_select_criteria *criteria) {
    if (snap == NULL) {
        return "no snapshot";
    }
    if ((snap->flags & NVT_SAMPLE_INFO) == 0) {
        return "the snapshot was taken without NVT_SAMPLE_INFO (device UUIDs)";
    }
    if ((snap->flags & (NVT_SAMPLE_DEVICES | NVT_SAMPLE_DEVICES_FAST)) == 0) {
        return "the snapshot was taken without NVT_SAMPLE_DEVICES (memory and utilisation)";
    }
    const unsigned owners = NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES;
    if (criteria != NULL && criteria->struct_size >= ABI_CRITERIA_SIZE_1 &&
        criteria->free_account_count > 0 && (snap->flags & owners) != owners) {
        return "free_accounts needs a snapshot taken with NVT_SAMPLE_PROCESSES and "
               "NVT_SAMPLE_HOST_PROCESSES (process owners)";
    }
    return NULL;
}

nvt_status nvt_select_devices(const struct nvt_snapshot *snap, const size_t *candidates,
                              size_t candidate_count, const struct nvt_select_criteria *criteria,
                              size_t *out_slots, size_t *out_count, bool *prefer_uuid) {
    if (snap == NULL || criteria == NULL || out_count == NULL || prefer_uuid == NULL ||
        (candidate_count > 0 && (candidates == NULL || out_slots == NULL)) ||
        criteria->struct_size < ABI_CRITERIA_SIZE_1) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    /* The caller's criteria over the defaults, as far as its struct goes. */
    struct nvt_select_criteria known;
    nvt_select_criteria_init(&known);
    abi_copy(&known, criteria, criteria->struct_size, sizeof(known));
    criteria = &known;
    *out_count = 0;
    *prefer_uuid = false;
    size_t max_count = criteria->max_count;
    if (max_count != NVT_NA_SIZE && max_count < criteria->min_count) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < candidate_count; i++) {
        if (candidates[i] >= snap->device_count) {
            return NVT_ERR_INVALID_ARGUMENT;
        }
    }
    if (nvt_select_unmet(snap, criteria) != NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    if (max_count == 0 || candidate_count == 0) {
        return NVT_OK;
    }
    struct candidate *list = calloc(candidate_count, sizeof(*list));
    if (list == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    size_t count = 0;
    for (size_t i = 0; i < candidate_count; i++) {
        const struct nvt_device_snapshot *device = &snap->devices[candidates[i]];
        if (device->info.handle_status != NVT_OK || device->state.status != NVT_OK) {
            continue; /* a lost (or unknown) GPU runs no job */
        }
        load(snap, candidates[i], i, criteria, &list[count]);
        if (passes(&list[count], criteria)) {
            count++;
        }
    }
    if (!criteria->no_sort && count > 1) {
        qsort(list, count, sizeof(*list), compare_candidates);
    }
    if (count > 0) {
        count = apply_mig_rule(list, count, criteria->min_count, prefer_uuid);
    }
    if (max_count != NVT_NA_SIZE && count > max_count) {
        count = max_count;
    }
    for (size_t i = 0; i < count; i++) {
        out_slots[i] = list[i].slot;
    }
    *out_count = count;
    free(list);
    return NVT_OK; /* a short list when count < min_count, as nvitop */
}
